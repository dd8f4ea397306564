"""A sensible beginner at A la carte, the kitchen game (documented in docs/rules/a_la_carte.md).

Dish choice: the dish (or the crepe) with the best points times a rough chance of success. Actions:
season the condiment the recipe still lacks most, else heat while below the green range; when the
only action left could burn the dish, cool it first with a lower-heat cup. Coffee: swap for another
player's ready dish, cool a burnt dish, spoil a rival's dish holding two of a colour or two salt,
take three more spoons when the dish needs more actions than are left. Crepes: always flip.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from services.rules.games.a_la_carte.content import (
    CONTENT,
    LAYOUT,
    NUM_CONDIMENTS,
    NUM_CUP_KINDS,
    RECIPES,
    SKILL_NAMES,
    SKILLS,
)
from services.rules.games.a_la_carte.kitchen import is_finished
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb

L = LAYOUT
# Faces of the fixed-heat kind, to judge the risk of a roll.
FIXED_HEATS = [face.amount for face in CONTENT.die if face.kind == pb.DIE_FACE_KIND_HEAT]
DIE_FACES = len(CONTENT.die)


def dish_value(dish: int) -> float:
    """Points times a rough chance to finish: each condiment is a gamble, a narrow green range and a
    long way up are risky."""
    recipe = RECIPES[dish]
    width = recipe.heat_max - recipe.heat_min + 1
    heat_chance = min(0.95, 0.45 + 0.15 * width) if recipe.heat_min > 0 else 0.9
    season_chance = 0.8 ** sum(recipe.needs)
    return recipe.points * heat_chance * season_chance


def crepe_value(skill: str) -> float:
    flips = SKILLS[SKILL_NAMES.index(skill)].flips
    total = sum(f.weight for f in flips)
    picture = sum(f.weight for f in flips if f.result == pb.FLIP_RESULT_PICTURE_UP) / total
    return CONTENT.crepe.points * min(0.95, 1.6 * picture)


def burn_risk(heat: int, burnt_at: int) -> float:
    """Chance one roll burns a dish at `heat` (a "choose" face never needs to)."""
    return sum(1 for amount in FIXED_HEATS if heat + amount >= burnt_at) / DIE_FACES + (
        1 / DIE_FACES if heat + 1 >= burnt_at else 0.0
    )


class ALaCarteHeuristic:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        me = view.players[view.core.viewer]
        phase = view.phase
        if phase == pb.PHASE_CHOOSE_DISH:
            return self._choose_dish(me, legal)
        if phase == pb.PHASE_CHOOSE_HEAT:
            return self._choose_heat(me.stove, legal)
        if phase == pb.PHASE_TAKE_CUP:
            return self._take_cup(view, legal)
        if phase == pb.PHASE_SPOILED:
            return self._cool_or_trash(me.stove, legal)
        if phase == pb.PHASE_CREPE_FLIP:
            return L.flip
        return self._act(view, me, legal)

    # ------------------------------------------------------------------ decisions
    def _choose_dish(self, me: Any, legal: list[int]) -> int:
        best, best_value = legal[0], -1.0
        for action_id in legal:
            if action_id == L.crepe:
                value = crepe_value(me.skill)
            else:
                value = dish_value(action_id - L.dish_base)
            value += self.rng.random() * 0.1
            if value > best_value:
                best, best_value = action_id, value
        return best

    def _choose_heat(self, stove: Any, legal: list[int]) -> int:
        amounts = [a - L.choose_heat_base + 1 for a in legal]
        if stove.crepe:
            return legal[0]  # the crepe's heat does not matter until it burns
        recipe = RECIPES[stove.dish]
        landing = [a for a in amounts if recipe.heat_min <= stove.heat + a <= recipe.heat_max]
        safe = [a for a in amounts if stove.heat + a < recipe.burnt_at]
        amount = min(landing) if landing else (max(safe) if safe else min(amounts))
        return L.choose_heat_base + amount - 1

    def _take_cup(self, view: Any, legal: list[int]) -> int:
        """Take from the richest rival; prefer the cups that help most (swap, spoons, lower)."""
        n = view.core.num_players
        preference = {pb.CUP_KIND_SWAP_STOVES: 3, pb.CUP_KIND_THREE_SPOONS: 2, pb.CUP_KIND_LOWER_HEAT: 1}

        def score(action_id: int) -> tuple[int, int]:
            k, c = divmod(action_id - L.take_cup_base, NUM_CUP_KINDS)
            rival = view.players[(view.core.viewer + k + 1) % n]
            return rival.points, preference.get(CONTENT.cups[c].kind, 0)

        return max(legal, key=score)

    def _cool_or_trash(self, stove: Any, legal: list[int]) -> int:
        recipe = RECIPES[stove.dish]
        cooled = {a: stove.heat - (a - L.lower_base + 1) for a in legal if a != L.trash}
        for action_id, heat in cooled.items():
            if recipe.heat_min <= heat <= recipe.heat_max:
                return action_id
        saving = [a for a, heat in cooled.items() if heat < recipe.burnt_at]
        return saving[0] if saving else L.trash

    def _act(self, view: Any, me: Any, legal: list[int]) -> int:
        stove = me.stove
        coffee = self._coffee(view, me, legal)
        if coffee is not None:
            return coffee
        recipe = RECIPES[stove.dish] if stove.dish >= 0 else None
        if recipe is None:
            return L.roll
        seasons = [a for a in legal if L.season_base <= a < L.choose_heat_base]
        lacking = [a for a in seasons if stove.pan[a - L.season_base] < recipe.needs[a - L.season_base]]
        if lacking:
            # The condiment lacking most; among equals the fullest dispenser (less salt per tip).
            def shortfall(action_id: int) -> tuple[int, int]:
                d = action_id - L.season_base
                return recipe.needs[d] - stove.pan[d], view.dispensers[d].pieces

            return max(lacking, key=shortfall)
        if stove.heat < recipe.heat_min:
            return L.roll
        # In range but stuck (a needed dispenser is empty): season what is safest, else roll.
        if seasons:
            return min(seasons, key=lambda a: stove.pan[a - L.season_base])
        return L.roll

    def _coffee(self, view: Any, me: Any, legal: list[int]) -> int | None:
        n = view.core.num_players
        seat = view.core.viewer
        stove = me.stove
        # Swap for a rival's dish that is ready to serve (served at once on our turn).
        for action_id in legal:
            if L.swap_base <= action_id < L.spoons:
                rival = view.players[(seat + action_id - L.swap_base + 1) % n]
                if is_finished(rival.stove) and not is_finished(stove):
                    return action_id
        recipe = RECIPES[stove.dish] if stove.dish >= 0 else None
        # Cool a dish that is above its green range (a rival's every-stove roll, say).
        lowers = [a for a in legal if L.lower_base <= a < L.take_cup_base]
        if recipe is not None and lowers and stove.heat > recipe.heat_max:
            return lowers[-1]
        # Spoil the leading rival's dish when one piece more would over-season it.
        reseasons = [a for a in legal if L.reseason_base <= a < L.lower_base]
        best, best_points = None, -1
        for action_id in reseasons:
            k, d = divmod(action_id - L.reseason_base, NUM_CONDIMENTS)
            rival = view.players[(seat + k + 1) % n]
            pan = rival.stove.pan
            fatal = pan[d] >= CONTENT.overseasoned_at - 1 or (
                rival.stove.salt >= CONTENT.oversalted_at - 1 and view.dispensers[d].salt > 0
            )
            if fatal and view.dispensers[d].pieces + view.dispensers[d].salt > 0 and rival.points > best_points:
                best, best_points = action_id, rival.points
        if best is not None and best_points >= me.points - 5:
            return best
        # Three more spoons when the dish needs more work than the actions left.
        if L.spoons in legal and recipe is not None:
            lacking = sum(max(0, need - have) for need, have in zip(recipe.needs, stove.pan, strict=True))
            climb = max(0, recipe.heat_min - stove.heat)
            if lacking + (climb + 1) // 2 > view.actions_left and burn_risk(stove.heat, recipe.burnt_at) < 0.2:
                return L.spoons
        return None
