"""A sensible beginner at Hibachi: Fired Up! (documented in docs/rules/hibachi.md).

It picks a target recipe (on show or in its reserve) needing the fewest cards it lacks. Throwing:
its cheapest chips go to the spaces of the ingredients it lacks (a cheap chip keeps the price
low), then to Bonus ingredient; its dearest chip goes to an ingredient it holds but does not need
(selling pays twice the chips there). Cleaning: cook whenever it can, else take the most useful
activation: a free bonus card it needs, buying a needed card, selling a card it does not need,
reserving a recipe, placing a spare chip on Bonus ingredient; otherwise it removes a chip.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from services.rules.games.hibachi.codec import id_to_action
from services.rules.games.hibachi.content import (
    ACTION_SPACE,
    CHILI,
    CHIP_VALUES,
    CONTENT,
    INGREDIENT_SPACE,
    INGREDIENTS,
    LAYOUT,
)
from services.rules.games.hibachi.table import RECIPE_KINDS
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb

BONUS_SPACE = ACTION_SPACE[pb.SPACE_KIND_BONUS_INGREDIENT]
RESERVE_SPACE = ACTION_SPACE[pb.SPACE_KIND_RESERVE_RECIPE]


def wanted_kinds(hand: Sequence[int], recipes: Sequence[int]) -> list[int]:
    """The ingredient indices still missing for the recipe closest to done (fewest missing first)."""
    best: list[int] | None = None
    for recipe in recipes:
        missing = [k for k in RECIPE_KINDS[recipe] if hand[k] < 1]
        if best is None or len(missing) < len(best):
            best = missing
    return best or []


def needed_kinds(recipes: Sequence[int]) -> set[int]:
    return {k for recipe in recipes for k in RECIPE_KINDS[recipe]}


class HibachiHeuristic:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        me = view.core.viewer
        player = view.players[me]
        recipes = [*view.recipes_on_show, *player.reserve]
        hand = list(player.hand)
        wanted = wanted_kinds(hand, recipes)
        if view.phase == pb.PHASE_THROWING:
            return self._throw(view, me, hand, recipes, wanted, legal_actions)
        return self._activate(view, me, hand, recipes, wanted, legal_actions)

    # ------------------------------------------------------------------ throwing
    def _throw(
        self, view: Any, me: int, hand: list[int], recipes: list[int], wanted: list[int], legal: Sequence[int]
    ) -> int:
        ready = sorted({(a - LAYOUT.throw_base) // LAYOUT.spaces for a in legal})
        covered = set()
        for chip in view.chips:
            if chip.owner == me and chip.status == pb.CHIP_STATUS_ON_BOARD:
                covered.update(chip.spaces)
        needed = needed_kinds(recipes)
        surplus = [k for k in range(LAYOUT.kinds) if hand[k] > 0 and k not in needed and k != CHILI]
        buy_targets = [INGREDIENT_SPACE[k] for k in wanted if INGREDIENT_SPACE[k] not in covered]
        if buy_targets or BONUS_SPACE not in covered:
            space = buy_targets[0] if buy_targets else BONUS_SPACE
            return LAYOUT.throw(ready[0], space)  # the cheapest chip
        if surplus:
            return LAYOUT.throw(ready[-1], INGREDIENT_SPACE[self.rng.choice(surplus)])  # the dearest chip
        if not view.players[me].reserve and RESERVE_SPACE not in covered and view.recipe_deck_size:
            return LAYOUT.throw(ready[0], RESERVE_SPACE)
        return LAYOUT.throw(ready[0], BONUS_SPACE)

    # ------------------------------------------------------------------ cleaning
    def _activate(
        self, view: Any, me: int, hand: list[int], recipes: list[int], wanted: list[int], legal: Sequence[int]
    ) -> int:
        costs = [0] * LAYOUT.spaces
        statuses = {}
        for chip in view.chips:
            if chip.status == pb.CHIP_STATUS_ON_BOARD:
                for space in chip.spaces:
                    costs[space] += chip.value
            if chip.owner == me:
                statuses[CHIP_VALUES.index(chip.value)] = chip.status
        needed = needed_kinds(recipes)
        money = view.players[me].money
        best, best_score = legal[-1], -1e9
        for action_id in legal:
            score = self._score(id_to_action(action_id), costs, statuses, hand, wanted, needed, money)
            score += self.rng.random() * 0.01
            if score > best_score:
                best, best_score = action_id, score
        return best

    def _score(
        self,
        action: Any,
        costs: list[int],
        statuses: dict[int, int],
        hand: list[int],
        wanted: list[int],
        needed: set[int],
        money: int,
    ) -> float:
        kind = action.WhichOneof("kind")
        detail = getattr(action, kind)
        # Spend the cheapest chip on plain activations, so a dear chip's space stays dear for others.
        chip_bias = -detail.chip_value / 10_000
        if kind == "cook":
            return 100.0 - (5.0 if detail.chili_for else 0.0) + chip_bias
        if kind in ("buy", "sell", "bonus_ingredient"):
            k = INGREDIENTS.index(detail.ingredient)
            cost = costs[INGREDIENT_SPACE[k]]
            if kind == "bonus_ingredient":
                return (60.0 if k in wanted else 20.0 if k == CHILI else 8.0) + chip_bias
            if kind == "buy":
                affordable = cost <= money - CONTENT.start_money // 4 or cost <= 400
                return (50.0 - cost / 100 if k in wanted and affordable else -5.0) + chip_bias
            return (30.0 + cost * CONTENT.sell_multiplier / 200 if k not in needed else -3.0) + chip_bias
        if kind == "reserve_recipe":
            return 12.0 + chip_bias
        if kind == "take_head_chef":
            return 2.0 + chip_bias
        if kind == "place_chip":
            spare = statuses.get(CHIP_VALUES.index(detail.placed_chip_value)) != pb.CHIP_STATUS_ON_BOARD
            on_bonus = (detail.x, detail.y) == (
                CONTENT.board.spaces[BONUS_SPACE].centre_x,
                CONTENT.board.spaces[BONUS_SPACE].centre_y,
            )
            return (10.0 if spare and on_bonus else -1.0) + chip_bias
        return 0.0 + chip_bias
