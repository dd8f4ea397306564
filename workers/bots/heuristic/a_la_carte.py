"""A sensible beginner at A la carte, the kitchen game (documented in docs/rules/a_la_carte.md).

Dish choice: the dish (or the crepe) with the best points times a rough chance of success. Actions:
season the condiment the recipe still lacks most, else heat while below the green range. Coffee
breaks (any number a turn, each checked again after the last): swap for another player's ready dish,
cool a dish above its range, re-season the leading rival's dish once it holds a piece (up to three
tips, each onto the colour nearest three pieces, stopping once it is spoiled), and last (it closes the
other cups) three more spoons when the dish needs more actions than are left. Crepes: always flip.

Given only some of the legal ids (a single-minded plan's), it still answers with one of them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from services.rules.games.a_la_carte.public import (
    CONTENT,
    LAYOUT,
    NUM_CONDIMENTS,
    NUM_CUP_KINDS,
    RECIPES,
    SKILL_NAMES,
    SKILLS,
    is_finished,
    is_spoiled,
)
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb

# Faces of the fixed-heat kind, to judge the risk of a roll.
FIXED_HEATS = [face.amount for face in CONTENT.die if face.kind == pb.DIE_FACE_KIND_HEAT]
DIE_FACES = len(CONTENT.die)


# Rough figures of a beginner's kitchen (measured with this bot's own play): actions a dish takes,
# the chance a perfect one earns a star, and what a star is worth in points.
ACTIONS_BASE, ACTIONS_PER_HEAT, ACTIONS_PER_PIECE = 0.6, 0.45, 0.9
STAR_CHANCE_ONE_COLOUR, STAR_CHANCE_MIXED, STAR_POINTS = 0.4, 0.12, 2.0


def dish_value(dish: int) -> float:
    """Expected points per action: points times a rough chance to finish (each condiment is a
    gamble, a narrow green range and a long way up are risky), a star's worth for a dish that is
    easily perfect, over the actions it takes (the game is a race: tempo counts)."""
    recipe = RECIPES[dish]
    width = recipe.heat_max - recipe.heat_min + 1
    heat_chance = min(0.95, 0.45 + 0.15 * width) if recipe.heat_min > 0 else 0.9
    season_chance = 0.8 ** sum(recipe.needs)
    colours = sum(1 for need in recipe.needs if need)
    star = 0.0 if not colours else STAR_CHANCE_ONE_COLOUR if colours == 1 else STAR_CHANCE_MIXED
    actions = ACTIONS_BASE + ACTIONS_PER_HEAT * recipe.heat_min + ACTIONS_PER_PIECE * sum(recipe.needs)
    return (recipe.points * heat_chance * season_chance + STAR_POINTS * star) / actions


def crepe_value(skill: str, actions_left: int) -> float:
    """The crepe's points per action: placing it loses the rest of the turn, and each crepe turn
    (three actions) serves it with the chance of a picture-side landing in up to two flips."""
    flips = SKILLS[SKILL_NAMES.index(skill)].flips
    total = sum(f.weight for f in flips)
    picture = sum(f.weight for f in flips if f.result == pb.FLIP_RESULT_PICTURE_UP) / total
    recipe_up = sum(f.weight for f in flips if f.result == pb.FLIP_RESULT_RECIPE_UP) / total
    per_turn = picture + recipe_up * picture
    actions = actions_left + CONTENT.actions_per_turn / per_turn
    return CONTENT.crepe.points * min(0.95, 2 * per_turn) / actions


def progress(stove: Any) -> float:
    """How far a stove's dish is from being served (more is nearer): needed pieces in the pan, heat
    in range; a burnt or empty stove is worth nothing."""
    if stove.dish < 0 or is_spoiled(stove):
        return -1.0
    recipe = RECIPES[stove.dish]
    pieces = sum(min(have, need) for have, need in zip(stove.pan, recipe.needs, strict=True))
    return pieces + (1.0 if recipe.heat_min <= stove.heat <= recipe.heat_max else 0.0)


def burn_risk(heat: int, burnt_at: int) -> float:
    """Chance one roll burns a dish at `heat` (a "choose" face never needs to)."""
    return sum(1 for amount in FIXED_HEATS if heat + amount >= burnt_at) / DIE_FACES + (
        1 / DIE_FACES if heat + 1 >= burnt_at else 0.0
    )


class ALaCarteHeuristic:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._actions_left = 0

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        choice = self._decide(view, legal)
        return choice if choice in legal else legal[0]

    def _decide(self, view: Any, legal: list[int]) -> int:
        me = view.players[view.core.viewer]
        phase = view.phase
        if phase == pb.PHASE_CHOOSE_DISH:
            self._actions_left = view.actions_left
            return self._choose_dish(me, legal)
        if phase == pb.PHASE_CHOOSE_HEAT:
            return self._choose_heat(me.stove, legal)
        if phase == pb.PHASE_TAKE_CUP:
            return self._take_cup(view, legal)
        if phase == pb.PHASE_SPOILED:
            return self._cool_or_trash(me.stove, legal)
        if phase == pb.PHASE_CREPE_FLIP:
            return LAYOUT.flip
        return self._act(view, me, legal)

    # ------------------------------------------------------------------ decisions
    def _choose_dish(self, me: Any, legal: list[int]) -> int:
        best, best_value = legal[0], -1.0
        for action_id in legal:
            if action_id == LAYOUT.crepe:
                value = crepe_value(me.skill, self._actions_left)
            else:
                value = dish_value(action_id - LAYOUT.dish_base)
            value += self.rng.random() * 0.02
            if value > best_value:
                best, best_value = action_id, value
        return best

    def _choose_heat(self, stove: Any, legal: list[int]) -> int:
        amounts = [a - LAYOUT.choose_heat_base + 1 for a in legal]
        if stove.crepe:
            return legal[0]  # the crepe's heat does not matter until it burns
        recipe = RECIPES[stove.dish]
        landing = [a for a in amounts if recipe.heat_min <= stove.heat + a <= recipe.heat_max]
        safe = [a for a in amounts if stove.heat + a < recipe.burnt_at]
        amount = min(landing) if landing else (max(safe) if safe else min(amounts))
        return LAYOUT.choose_heat_base + amount - 1

    def _take_cup(self, view: Any, legal: list[int]) -> int:
        """Take from the richest rival; prefer the cups that help most (swap, spoons, lower)."""
        n = view.core.num_players
        preference = {pb.CUP_KIND_SWAP_STOVES: 3, pb.CUP_KIND_THREE_SPOONS: 2, pb.CUP_KIND_LOWER_HEAT: 1}

        def score(action_id: int) -> tuple[int, int]:
            k, c = divmod(action_id - LAYOUT.take_cup_base, NUM_CUP_KINDS)
            rival = view.players[(view.core.viewer + k + 1) % n]
            return rival.points, preference.get(CONTENT.cups[c].kind, 0)

        return max(legal, key=score)

    def _cool_or_trash(self, stove: Any, legal: list[int]) -> int:
        recipe = RECIPES[stove.dish]
        cooled = {a: stove.heat - (a - LAYOUT.lower_base + 1) for a in legal if a != LAYOUT.trash}
        for action_id, heat in cooled.items():
            if recipe.heat_min <= heat <= recipe.heat_max:
                return action_id
        saving = [a for a, heat in cooled.items() if heat < recipe.burnt_at]
        return saving[0] if saving else LAYOUT.trash

    def _act(self, view: Any, me: Any, legal: list[int]) -> int:
        stove = me.stove
        coffee = self._coffee(view, me, legal)
        if coffee is not None:
            return coffee
        recipe = RECIPES[stove.dish] if stove.dish >= 0 else None
        seasons = [a for a in legal if LAYOUT.season_base <= a < LAYOUT.choose_heat_base]
        if recipe is None or (LAYOUT.roll not in legal and not seasons):
            # Only coffee breaks are offered (a plan's): the most useful one.
            return LAYOUT.roll if LAYOUT.roll in legal else self._any_coffee(view, me, legal)
        lacking = [a for a in seasons if stove.pan[a - LAYOUT.season_base] < recipe.needs[a - LAYOUT.season_base]]
        if lacking:
            # The condiment lacking most; among equals the fullest dispenser (less salt per tip).
            def shortfall(action_id: int) -> tuple[int, int]:
                d = action_id - LAYOUT.season_base
                return recipe.needs[d] - stove.pan[d], view.dispensers[d].pieces

            return max(lacking, key=shortfall)
        if (stove.heat < recipe.heat_min or not seasons) and LAYOUT.roll in legal:
            return LAYOUT.roll
        # In range but stuck (a needed dispenser is empty): season what is safest, else roll.
        return min(seasons, key=lambda a: stove.pan[a - LAYOUT.season_base])

    def _any_coffee(self, view: Any, me: Any, legal: list[int]) -> int:
        """A coffee break when nothing else is offered: the next tip of the cup in use, spoons, a
        re-season of the leader, a swap for the most advanced dish, the gentlest cooling."""
        tip = self._reseason(view, me, legal, eager=True)
        if tip is not None:
            return tip
        if LAYOUT.spoons in legal:
            return LAYOUT.spoons
        swaps = [a for a in legal if LAYOUT.swap_base <= a < LAYOUT.spoons]
        if swaps:
            n = view.core.num_players
            return max(swaps, key=lambda a: progress(
                view.players[(view.core.viewer + a - LAYOUT.swap_base + 1) % n].stove))
        return legal[0]

    def _coffee(self, view: Any, me: Any, legal: list[int]) -> int | None:
        n = view.core.num_players
        seat = view.core.viewer
        stove = me.stove
        # Swap for a rival's dish that is ready to serve (served at once on our turn).
        for action_id in legal:
            if LAYOUT.swap_base <= action_id < LAYOUT.spoons:
                rival = view.players[(seat + action_id - LAYOUT.swap_base + 1) % n]
                if is_finished(rival.stove) and not is_finished(stove):
                    return action_id
        recipe = RECIPES[stove.dish] if stove.dish >= 0 else None
        # Cool a dish that is above its green range (a rival's every-stove roll, say).
        lowers = [a for a in legal if LAYOUT.lower_base <= a < LAYOUT.take_cup_base]
        if recipe is not None and lowers and stove.heat > recipe.heat_max:
            return lowers[-1]
        # Spoil the leading rival's dish: up to three tips, once it holds a piece or more.
        tip = self._reseason(view, me, legal, eager=False)
        if tip is not None:
            return tip
        # Three more spoons (it closes the other cups) when the dish needs more work than the actions left.
        if LAYOUT.spoons in legal and recipe is not None:
            lacking = sum(max(0, need - have) for need, have in zip(recipe.needs, stove.pan, strict=True))
            climb = max(0, recipe.heat_min - stove.heat)
            if lacking + (climb + 1) // 2 > view.actions_left and burn_risk(stove.heat, recipe.burnt_at) < 0.2:
                return LAYOUT.spoons
        return None

    def _reseason(self, view: Any, me: Any, legal: list[int], eager: bool) -> int | None:
        """The next tip of the re-season cup in use (until the dish is spoiled), or the first tip of
        a new one onto the leading rival's dish that holds a piece (any such dish when `eager`)."""
        n = view.core.num_players
        seat = view.core.viewer
        reseasons = [a for a in legal if LAYOUT.reseason_base <= a < LAYOUT.lower_base]
        if not reseasons:
            return None

        def target(action_id: int) -> Any:
            return view.players[(seat + (action_id - LAYOUT.reseason_base) // NUM_CONDIMENTS + 1) % n]

        if view.HasField("reseasoning"):
            ongoing = [a for a in reseasons if target(a).seat == view.reseasoning.seat]
            if ongoing and not is_spoiled(target(ongoing[0]).stove):
                return max(ongoing, key=lambda a: self._danger(view, target(a).stove, a))
            reseasons = [a for a in reseasons if a not in ongoing]
        rivals = {target(a).seat for a in reseasons}
        threats = [
            view.players[r] for r in rivals
            if view.players[r].points >= me.points - 5 and (eager or self._worth_spoiling(view.players[r].stove))
        ]
        if not threats:
            if not eager or not reseasons:
                return None
            threats = [view.players[r] for r in rivals]
        leader = max(threats, key=lambda p: (p.points, self._danger_of(p.stove)))
        mine = [a for a in reseasons if target(a).seat == leader.seat]
        return max(mine, key=lambda a: self._danger(view, leader.stove, a))

    @staticmethod
    def _worth_spoiling(stove: Any) -> bool:
        return not is_spoiled(stove) and (any(stove.pan) or stove.salt > 0)

    @staticmethod
    def _danger_of(stove: Any) -> int:
        return max(max(stove.pan), stove.salt)

    @staticmethod
    def _danger(view: Any, stove: Any, action_id: int) -> float:
        """How close a tip of this dispenser brings the dish to three of a colour or three salt; a
        colour the recipe still lacks would help it, so it comes last."""
        d = (action_id - LAYOUT.reseason_base) % NUM_CONDIMENTS
        needs = RECIPES[stove.dish].needs
        dispenser = view.dispensers[d]
        held = dispenser.pieces + dispenser.salt
        colour = stove.pan[d] if stove.pan[d] >= needs[d] else stove.pan[d] - CONTENT.overseasoned_at
        salt = stove.salt * dispenser.salt / held if held else 0.0
        return colour + salt + 0.01 * held
