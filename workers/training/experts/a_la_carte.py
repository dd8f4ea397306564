"""An expert at A la carte, the kitchen game: the training teacher (docs/rules/a_la_carte.md).

The strategy in plain words:

* Every dish is a small push-your-luck problem: three compulsory actions a turn, each a heat roll or
  a tip of a dispenser, until the dish is served (heat in its green range, its condiments in the pan)
  or spoiled (burnt, three of a colour, three salt). The expert solves that problem for each dish by
  dynamic programming over (heat, pieces of each recipe colour, salt): the value of a pan is the
  points it is expected to bring (a star for a perfect dish counts as a bonus, a winning third star a
  lot) minus a price for every action it still takes (tempo: the game ends when somebody serves a
  fifth dish, and cheap quick dishes win that race). Between our turns rivals may heat the pan with
  "every stove +1", and, while one of them holds a re-season cup, spoil a pan that is one piece from
  spoiling (the beginner bots do exactly that to the leader); the tables price both in. They are
  computed lazily, per dish, skill, table size and star bonus, and cached for the whole process.
* On its turn it looks one action ahead with the real dispensers (how full each is and how much
  salt it holds decide what a tip pours) and takes the action whose outcomes are worth most by the
  tables: it seasons first while the pan is cold, rolls only while a burn is unlikely, picks the
  heat that lands the dish on the choose face, and knows that rivals act only when its turn ends.
  A roll's "every stove +1" also heats the rivals' pans; that counts too.
* Dish choice: the dish whose empty pan is worth most by the same tables (risk and tempo included:
  mostly the quick, safe dishes); the crepe when its nearly sure five points beat that, which is
  mostly when a dish was served by the turn's last action (placing the crepe then costs nothing).
  The dish that would end the game is preferred when serving it puts us in front.
* Coffee breaks are free, so each cup is spent when it gains more than it is worth in hand: swap
  stoves for a rival's more advanced dish (which also sets that rival back), cool a pan or rescue a
  burnt one, take three more spoons when the dish is safe to push, and tip a dispenser over the
  rival's dish that it is expected to cost most, weighted by how dangerous that rival is (the
  leader, one star from winning, or one dish from ending the game in front).
* A stolen cup is the one the expert values most, from the most dangerous rival.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import product
from math import comb
from typing import Any

from services.rules.games.a_la_carte.public import (
    CONTENT,
    CUP_KINDS,
    DIE,
    LAYOUT,
    NUM_CONDIMENTS,
    NUM_CUP_KINDS,
    RECIPES,
    SKILL_NAMES,
    SKILLS,
    Recipe,
)
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb

# What `make train GAME=a_la_carte` needs beyond train.py's common settings to reproduce the shipped
# model: the exact dish values are a rich function of stoves and dispensers, which a network twice as
# wide imitates better. No search teaches better play than this expert's (docs/bots.md, "Expert
# iteration"), so the student then learns from its own results against heuristics (reinforcement,
# 300 batches of 800 games, with the learnt critic as the baseline: 1.41x over 5,000 other deals where
# 96,000 games with the batch mean made 1.25x; its checks still rose at the end).
TRAINING_DEFAULTS = {"hidden": 512, "reinforce_games": 240_000, "reinforce_baseline": "critic"}

MAX_HEAT = CONTENT.max_heat
OVER = CONTENT.overseasoned_at
OVERSALT = CONTENT.oversalted_at
OWN_BELOW = CONTENT.own_seasoning_below
DIE_TOTAL = float(sum(face.weight for face in DIE))
SWAP_CUP = CUP_KINDS.index(pb.CUP_KIND_SWAP_STOVES)
SPOONS_CUP = CUP_KINDS.index(pb.CUP_KIND_THREE_SPOONS)
RESEASON_CUP = CUP_KINDS.index(pb.CUP_KIND_RESEASON)
LOWER_CUP = CUP_KINDS.index(pb.CUP_KIND_LOWER_HEAT)

# ---------------------------------------------------------------------- tuning
# Points an action is worth, the price of tempo, by table size (two players race hardest).
ACTION_COST = {2: 1.0, 3: 0.7, 4: 0.7}
STAR_BONUS = 2.5  # a perfect dish's star, in points
WIN_BONUS = 40.0  # a star that wins the game outright
CUP_GAIN = 0.6  # what the cup face of the die brings (a cup to use later)
DRIFT_PER_RIVAL = 0.02  # chance per own action that some rival's "every stove +1" heats the pan
CUP_WORTH = {SWAP_CUP: 1.2, SPOONS_CUP: 0.9, RESEASON_CUP: 1.5, LOWER_CUP: 0.9}
LAST_WEIGHT = 2.0  # choosing the dish that ends the game: its worth if serving it puts us in front
DENIAL = 0.6  # how much a rival's loss counts as our gain (times the rival's threat)
END_THREAT = 1.0  # extra weight of a rival whose next dish ends the game in its favour
ATTACK = 0.2  # chance per action that a rival holding a re-season cup turns it on a pan holding pieces
SPOILED_BY_ATTACK = (0.0, 0.6, 1.0)  # chance its three tips spoil the pan, by the most pieces of a colour (or salt)
TYPICAL_DISPENSER = (10, 4)  # pieces, salt: what the tables assume a dispenser holds

Key = tuple[int, int, int, int, int, int]  # heat, pan by dispenser, salt
Table = dict[Key, float]


# ---------------------------------------------------------------------- chance
@lru_cache(maxsize=4096)
def tip_outcomes(skill: int, pieces: int, salt: int) -> tuple[tuple[float, int, int], ...]:
    """(probability, pieces, salt) that one tip of a dispenser holding `pieces` and `salt` pours,
    as kitchen.tip draws them."""
    held = pieces + salt
    if held == 0:
        return ((1.0, 0, 0),)
    bands = SKILLS[skill].tip_bands
    band = bands[0]
    for candidate in bands:
        if candidate.min_held <= held:
            band = candidate
    total = float(sum(band.weights))
    counts: dict[int, float] = {}
    for count, weight in enumerate(band.weights):
        if weight:
            k = min(count, held)
            counts[k] = counts.get(k, 0.0) + weight / total
    out: dict[tuple[int, int], float] = {}
    for k, p in counts.items():
        for s in range(max(0, k - pieces), min(k, salt) + 1):
            q = p * comb(salt, s) * comb(pieces, k - s) / comb(held, k)
            out[(k - s, s)] = out.get((k - s, s), 0.0) + q
    return tuple((p, a, b) for (a, b), p in out.items() if p > 0)


def _heat_faces() -> list[tuple[float, str, int]]:
    faces = []
    for face in DIE:
        kind = {
            pb.DIE_FACE_KIND_HEAT: "heat",
            pb.DIE_FACE_KIND_CHOOSE: "choose",
            pb.DIE_FACE_KIND_ALL_STOVES: "heat",
            pb.DIE_FACE_KIND_COFFEE_CUP: "cup",
        }[face.kind]
        faces.append((face.weight / DIE_TOTAL, kind, face.amount))
    return faces


FACES = _heat_faces()
ALL_STOVES_CHANCE = sum(face.weight for face in DIE if face.kind == pb.DIE_FACE_KIND_ALL_STOVES) / DIE_TOTAL


# ---------------------------------------------------------------------- the dish tables
def terminal(recipe: Recipe, key: Key, bonus: float) -> float | None:
    """The value of a pan that leaves the stove now (served or trashed), None while it cooks."""
    heat, salt = key[0], key[5]
    pan = key[1:5]
    if heat >= recipe.burnt_at or salt >= OVERSALT or max(pan) >= OVER:
        return 0.0
    if not recipe.heat_min <= heat <= recipe.heat_max:
        return None
    if any(have < need for have, need in zip(pan, recipe.needs, strict=True)):
        return None
    perfect = recipe.seasoned and salt == 0 and pan == recipe.needs
    return recipe.points + (bonus if perfect else 0.0)


def _with_heat(key: Key, heat: int) -> Key:
    return (min(MAX_HEAT, heat), key[1], key[2], key[3], key[4], key[5])


def _poured(key: Key, d: int, pieces: int, salt: int) -> Key:
    pan = list(key[1:5])
    pan[d] = min(OVER, pan[d] + pieces)
    return (key[0], pan[0], pan[1], pan[2], pan[3], min(OVERSALT, key[5] + salt))


class DishModel:
    """The value of every pan of one dish for one chef (skill) at one table size, by dynamic
    programming: V(pan) = best over actions of (expected value after it) - the action's price.

    `now[key]` is a pan's value (points if it is served now, 0 if it is trashed); `after[key]` is its
    value just after one of our actions (a rival may heat it before our next one)."""

    def __init__(self, dish: int, skill: int, players: int, bonus: float, attack: float) -> None:
        self.recipe = RECIPES[dish]
        self.bonus = bonus
        self.attack = attack
        self.drift = min(0.6, DRIFT_PER_RIVAL * (players - 1))
        self.cost = ACTION_COST[players]
        self.skill = skill
        self.now: Table = {}
        self.after: Table = {}
        self._solve()

    def _solve(self) -> None:
        recipe = self.recipe
        needed = [d for d in range(NUM_CONDIMENTS) if recipe.needs[d]]
        now, after = self.now, self.after
        cooking: list[Key] = []
        # Pans from hottest and fullest down: every action moves a pan forward (hotter, more pieces,
        # more salt) or leaves it as it was, so the pans it leads to are valued first.
        for heat in range(MAX_HEAT, -1, -1):
            for counts in product(range(OVER, -1, -1), repeat=len(needed)):
                pan = [0] * NUM_CONDIMENTS
                for d, c in zip(needed, counts, strict=True):
                    pan[d] = c
                for salt in range(OVERSALT, -1, -1):
                    key = (heat, pan[0], pan[1], pan[2], pan[3], salt)
                    done = terminal(recipe, key, self.bonus)
                    if done is None:
                        cooking.append(key)
                    else:
                        now[key] = after[key] = done
        cooking.sort(key=lambda k: -sum(k))
        tips = tip_outcomes(self.skill, *TYPICAL_DISPENSER)
        drift = self.drift
        stay = 1 - drift
        for key in cooking:
            heat = key[0]
            drifted = now[_with_heat(key, heat + 1)]  # hotter pans are valued already
            # A pan holding pieces may be spoiled by a rival's re-season cup (three tips).
            survive = 1 - self.attack * SPOILED_BY_ATTACK[min(max(key[1:]), len(SPOILED_BY_ATTACK) - 1)]
            idle = survive * drift * drifted
            best = -1e9
            # Roll the die.
            gain, still = 0.0, 0.0
            for p, kind, amount in FACES:
                if kind == "cup":
                    gain += p * (CUP_GAIN + idle)
                    still += p * survive * stay
                elif kind == "heat":
                    gain += p * after[_with_heat(key, heat + amount)]
                else:
                    gain += p * max(after[_with_heat(key, heat + a)] for a in range(1, amount + 1))
            best = max(best, (gain - self.cost) / (1 - still))
            # Season each recipe colour still below two pieces.
            for d in needed:
                if key[1 + d] >= OWN_BELOW:
                    continue
                gain, still = 0.0, 0.0
                for p, pieces, salt in tips:
                    if pieces == 0 and salt == 0:
                        gain += p * idle
                        still += p * survive * stay
                    else:
                        gain += p * after[_poured(key, d, pieces, salt)]
                best = max(best, (gain - self.cost) / (1 - still))
            now[key] = best
            after[key] = survive * (stay * best + drift * drifted)

    def _clean(self, key: Key) -> Key:
        """A pan holding a colour off the recipe (a rival's re-season), valued without it."""
        needs = self.recipe.needs
        pan = [key[1 + d] if needs[d] else 0 for d in range(NUM_CONDIMENTS)]
        return (key[0], pan[0], pan[1], pan[2], pan[3], key[5])

    def value(self, key: Key) -> float:
        """The value of a pan as it is now."""
        value = self.now.get(key)
        if value is None:
            done = terminal(self.recipe, key, self.bonus)
            if done is not None:
                return done
            value = self.now[self._clean(key)]
        return value

    def value_after(self, key: Key) -> float:
        """The value of a pan just after one of our actions."""
        value = self.after.get(key)
        if value is None:
            done = terminal(self.recipe, key, self.bonus)
            if done is not None:
                return done
            value = self.after[self._clean(key)]
        return value


@lru_cache(maxsize=1024)
def dish_model(dish: int, skill: int, players: int, bonus: float, attack: float = 0.0) -> DishModel:
    return DishModel(dish, skill, players, bonus, attack)


def stove_key(stove: Any) -> Key:
    pan = stove.pan
    return (stove.heat, pan[0], pan[1], pan[2], pan[3], stove.salt)


def is_clean(recipe: Recipe, key: Key) -> bool:
    """No piece of a colour off the recipe: a perfect dish is still possible."""
    return all(key[1 + d] == 0 for d in range(NUM_CONDIMENTS) if not recipe.needs[d])


# ---------------------------------------------------------------------- the crepe
def crepe_success(skill: int) -> float:
    """The chance one crepe turn serves it: picture up, or recipe up then picture up."""
    flips = SKILLS[skill].flips
    total = float(sum(f.weight for f in flips))
    picture = sum(f.weight for f in flips if f.result == pb.FLIP_RESULT_PICTURE_UP) / total
    recipe_up = sum(f.weight for f in flips if f.result == pb.FLIP_RESULT_RECIPE_UP) / total
    return picture + recipe_up * picture


def crepe_value(skill: int, actions_left: int, players: int) -> float:
    """Five points, nearly sure (it can take about four turns before it burns), for the rest of this
    turn and a whole turn per try."""
    p = crepe_success(skill)
    sure = 1 - (1 - p) ** 3.5
    turns = sure / p
    return CONTENT.crepe.points * sure - ACTION_COST[players] * (actions_left + CONTENT.actions_per_turn * turns)


# ---------------------------------------------------------------------- the bot
class ALaCarteExpert:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng  # the interface's; every choice is deterministic (ties go to the lower id)

    # ------------------------------------------------------------------ helpers
    def _model(self, view: Any, seat: int, dish: int, clean: bool = True) -> DishModel:
        """The tables of a dish cooked by the chef at `seat`; ours fear the rivals' re-season cups."""
        player = view.players[seat]
        skill = SKILL_NAMES.index(player.skill)
        attack = 0.0
        if seat == view.core.viewer and any(
            p.cups[RESEASON_CUP] for i, p in enumerate(view.players) if i != seat
        ):
            attack = ATTACK
        return dish_model(dish, skill, view.core.num_players, self._bonus(view, seat) if clean else 0.0, attack)

    @staticmethod
    def _bonus(view: Any, seat: int) -> float:
        if view.stars_left <= 0:
            return 0.0
        if view.players[seat].stars >= CONTENT.stars_to_win - 1:
            return WIN_BONUS
        return STAR_BONUS

    def _stove_value(self, view: Any, seat: int, stove: Any) -> float:
        """What a stove is worth to the chef at `seat` (its dish cooked by that chef)."""
        if stove.dish < 0:
            return 0.0
        key = stove_key(stove)
        recipe = RECIPES[stove.dish]
        return self._model(view, seat, stove.dish, is_clean(recipe, key)).value(key)

    def _threat(self, view: Any, seat: int) -> float:
        """How much a rival matters to us: the leader most, a rival one star from winning a lot."""
        me = view.core.viewer
        rival = view.players[seat]
        best_other = max(p.points for i, p in enumerate(view.players) if i != me)
        weight = 0.5 + (0.5 if rival.points >= best_other else 0.0)
        weight += 0.15 * max(0, rival.points - view.players[me].points) / 5
        if rival.stars >= CONTENT.stars_to_win - 1:
            weight += 1.0
        finished = len(rival.finished) + (rival.crepe == pb.CREPE_STATUS_FINISHED)
        if finished >= CONTENT.dishes_to_end - 1:
            # Its next dish ends the game.
            dish = rival.stove.dish
            gain = RECIPES[dish].points if dish >= 0 else CONTENT.crepe.points if rival.stove.crepe else 0
            if rival.points + gain >= view.players[me].points:
                weight += END_THREAT
        return DENIAL * weight / max(1, view.core.num_players - 2)

    # ------------------------------------------------------------------ step
    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase == pb.PHASE_CHOOSE_DISH:
            return self._choose_dish(view, legal)
        if phase == pb.PHASE_CHOOSE_HEAT:
            return self._choose_heat(view, legal)
        if phase == pb.PHASE_TAKE_CUP:
            return self._take_cup(view, legal)
        if phase == pb.PHASE_SPOILED:
            return self._rescue(view, legal)
        if phase == pb.PHASE_CREPE_FLIP:
            return LAYOUT.flip if LAYOUT.flip in legal else legal[0]
        return self._act(view, legal)

    # ------------------------------------------------------------------ decisions
    def _choose_dish(self, view: Any, legal: list[int]) -> int:
        me = view.core.viewer
        player = view.players[me]
        skill = SKILL_NAMES.index(player.skill)
        start: Key = (0, 0, 0, 0, 0, 0)
        last = len(player.finished) + (player.crepe == pb.CREPE_STATUS_FINISHED) >= CONTENT.dishes_to_end - 1
        best_rival = max(p.points for i, p in enumerate(view.players) if i != me)
        best, best_value = legal[0], -1e9
        for action_id in legal:
            if action_id == LAYOUT.crepe:
                points = CONTENT.crepe.points
                value = crepe_value(skill, view.actions_left, view.core.num_players)
            else:
                points = RECIPES[action_id - LAYOUT.dish_base].points
                value = self._model(view, me, action_id - LAYOUT.dish_base).value(start)
            if last:
                # Serving it ends the game: it had better put us in front.
                lead = player.points + points - best_rival
                value += LAST_WEIGHT * (1.0 if lead > 0 else 0.5 if lead == 0 else 0.0)
            if value > best_value:
                best, best_value = action_id, value
        return best

    def _choose_heat(self, view: Any, legal: list[int]) -> int:
        me = view.core.viewer
        stove = view.players[me].stove
        if stove.crepe:
            return legal[0]
        model = self._model(view, me, stove.dish, is_clean(RECIPES[stove.dish], stove_key(stove)))
        key = stove_key(stove)
        # Rivals heat and re-season our pan only between our turns.
        follow = model.value if view.actions_left > 0 else model.value_after
        return max(legal, key=lambda a: follow(_with_heat(key, key[0] + a - LAYOUT.choose_heat_base + 1)))

    def _take_cup(self, view: Any, legal: list[int]) -> int:
        n = view.core.num_players
        me = view.core.viewer

        def score(action_id: int) -> float:
            k, c = divmod(action_id - LAYOUT.take_cup_base, NUM_CUP_KINDS)
            rival = (me + k + 1) % n
            return CUP_WORTH.get(c, 0.0) * (1 + self._threat(view, rival))

        return max(legal, key=score)

    def _rescue(self, view: Any, legal: list[int]) -> int:
        me = view.core.viewer
        stove = view.players[me].stove
        key = stove_key(stove)
        model = self._model(view, me, stove.dish, is_clean(RECIPES[stove.dish], key))
        best, best_value = LAYOUT.trash, CUP_WORTH[LOWER_CUP]
        for action_id in legal:
            if action_id == LAYOUT.trash:
                continue
            value = model.value(_with_heat(key, key[0] - (action_id - LAYOUT.lower_base + 1)))
            if value > best_value:
                best, best_value = action_id, value
        return best

    def _act(self, view: Any, legal: list[int]) -> int:
        me = view.core.viewer
        player = view.players[me]
        stove = player.stove
        if stove.dish < 0:
            return LAYOUT.roll
        key = stove_key(stove)
        recipe = RECIPES[stove.dish]
        model = self._model(view, me, stove.dish, is_clean(recipe, key))
        skill = SKILL_NAMES.index(player.skill)
        now = model.value(key)

        # The compulsory actions, one ply deep with the real dispensers.
        # Rivals heat and re-season our pan only between our turns.
        follow = model.value if view.actions_left > 1 else model.value_after
        best, best_value = LAYOUT.roll, self._roll_value(follow, key) - model.cost + self._heating_others(view)
        for action_id in legal:
            if LAYOUT.season_base <= action_id < LAYOUT.choose_heat_base:
                d = action_id - LAYOUT.season_base
                held = view.dispensers[d]
                value = sum(
                    p * follow(_poured(key, d, pieces, salt))
                    for p, pieces, salt in tip_outcomes(skill, held.pieces, held.salt)
                ) - model.cost
                if value > best_value:
                    best, best_value = action_id, value

        coffee = self._coffee(view, legal, model, key, now)
        return coffee if coffee is not None else best

    def _heating_others(self, view: Any) -> float:
        """What the "every stove +1" face of our roll does to the rivals' dishes, to us."""
        me = view.core.viewer
        total = 0.0
        for seat, rival in enumerate(view.players):
            stove = rival.stove
            if seat == me or stove.dish < 0:
                continue
            key = stove_key(stove)
            model = self._model(view, seat, stove.dish, is_clean(RECIPES[stove.dish], key))
            total += self._threat(view, seat) * (model.value(key) - model.value(_with_heat(key, key[0] + 1)))
        return ALL_STOVES_CHANCE * total

    @staticmethod
    def _roll_value(follow: Callable[[Key], float], key: Key) -> float:
        value = 0.0
        for p, kind, amount in FACES:
            if kind == "cup":
                value += p * (follow(key) + CUP_GAIN)
            elif kind == "heat":
                value += p * follow(_with_heat(key, key[0] + amount))
            else:
                value += p * max(follow(_with_heat(key, key[0] + a)) for a in range(1, amount + 1))
        return value

    def _coffee(self, view: Any, legal: list[int], model: DishModel, key: Key, now: float) -> int | None:
        """The best coffee break, if one gains more than its cup is worth in hand."""
        n = view.core.num_players
        me = view.core.viewer
        my_stove = view.players[me].stove
        best: int | None = None
        best_gain = 0.0

        others: dict[int, float] = {}  # the gains of cups other than three spoons, which closes the rest

        def consider(action_id: int, gain: float) -> None:
            nonlocal best, best_gain
            if action_id != LAYOUT.spoons and gain > 0:
                others[action_id] = gain
            if gain > best_gain:
                best, best_gain = action_id, gain

        for action_id in legal:
            if action_id < LAYOUT.swap_base or action_id >= LAYOUT.take_cup_base:
                continue
            if action_id < LAYOUT.spoons:
                rival = (me + action_id - LAYOUT.swap_base + 1) % n
                other = view.players[rival].stove
                mine_after = self._stove_value(view, me, other)
                theirs_before = self._stove_value(view, rival, other)
                theirs_after = self._stove_value(view, rival, my_stove)
                gain = mine_after - now + self._threat(view, rival) * (theirs_before - theirs_after)
                consider(action_id, gain - CUP_WORTH[SWAP_CUP])
            elif action_id == LAYOUT.spoons:
                consider(action_id, self._spoons_gain(view, model, key) - CUP_WORTH[SPOONS_CUP])
            elif action_id < LAYOUT.lower_base:
                k, d = divmod(action_id - LAYOUT.reseason_base, NUM_CONDIMENTS)
                rival = (me + k + 1) % n
                if view.HasField("reseasoning") and view.reseasoning.seat == rival:
                    # The next tip of the cup in use: free, worth it while it hurts.
                    loss = self._reseason_loss(view, rival, d, view.reseasoning.tips_left)
                    consider(action_id, self._threat(view, rival) * loss)
                else:
                    loss = self._reseason_loss(view, rival, d, CONTENT.reseason_tips)
                    consider(action_id, self._threat(view, rival) * loss - CUP_WORTH[RESEASON_CUP])
            else:
                amount = action_id - LAYOUT.lower_base + 1
                cooled = _with_heat(key, key[0] - amount)
                consider(action_id, model.value(cooled) - now - CUP_WORTH[LOWER_CUP])
        if best == LAYOUT.spoons and others:
            # Every other cup worth using goes first: after three spoons none may be used this turn.
            return max(others, key=lambda a: (others[a], -a))
        return best

    def _spoons_gain(self, view: Any, model: DishModel, key: Key) -> float:
        """Three more actions are worth their price when the pan can take them without much risk."""
        if model.value(key) <= 0:
            return 0.0
        return 3 * model.cost * min(1.0, max(0.0, model.value(key) / model.recipe.points))

    def _reseason_loss(self, view: Any, rival: int, d: int, tips: int) -> float:
        """The expected loss of a rival's dish when our tip of dispenser d falls into it and, while
        the cup has tips left, we tip that dispenser again whenever that hurts more than stopping."""
        stove = view.players[rival].stove
        key = stove_key(stove)
        recipe = RECIPES[stove.dish]
        before = self._stove_value(view, rival, stove)
        skill = SKILL_NAMES.index(view.players[view.core.viewer].skill)
        clean = self._model(view, rival, stove.dish, True)
        dirty = self._model(view, rival, stove.dish, False)

        def value(pan: Key) -> float:
            return (clean if is_clean(recipe, pan) else dirty).value(pan)

        def tipped(pan: Key, pieces: int, salt: int, left: int) -> float:
            """The rival's expected value after one tip and the best of stopping or going on."""
            total = 0.0
            for p, a, b in tip_outcomes(skill, pieces, salt):
                poured = _poured(pan, d, a, b)
                worth = value(poured)
                if left > 1 and worth > 0 and pieces - a + salt - b > 0:
                    worth = min(worth, tipped(poured, pieces - a, salt - b, left - 1))
                total += p * worth
            return total

        held = view.dispensers[d]
        return before - tipped(key, held.pieces, held.salt, tips)


