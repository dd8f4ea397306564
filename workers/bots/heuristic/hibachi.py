"""A sensible beginner at Hibachi: Fired Up! (documented in docs/rules/hibachi.md).

It picks a target recipe (on show or in its reserve) needing the fewest cards it lacks, and keeps
the cards of the next closest recipe too; anything else it holds is spare.

Throwing: its cheapest chips go to the spaces of the ingredients its target lacks (a cheap chip
keeps the price low) while it has money to buy them, then one to Bonus ingredient (a free card pays
even when it is hard to hit); at four players, where a chip stays in the supply, one to Place a chip
when it lands there often enough (it reads its landing chances: the board is public, its spread is
in its view); its dearest chip goes to the space of a spare card (selling pays twice the chips
there); then a recipe to reserve. Offered only some throws (a single-minded plan's), it picks the
first of that order among them. Cleaning: cook whenever it can, else take the most useful
activation: a free bonus card it needs, buying a needed card, selling a spare card (any card off its
target when money runs low), reserving a recipe, placing a spare chip on Bonus ingredient;
otherwise it removes a chip.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any

from services.rules.games.hibachi.public import (
    ACTION_SPACE,
    CHILI,
    CHIP_VALUES,
    CHIPS_PER_SEAT,
    CONTENT,
    INGREDIENT_SPACE,
    INGREDIENTS,
    LAYOUT,
    RECIPE_KINDS,
    THROWS_PER_ROUND,
    hit_rates,
    id_to_action,
)
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb

BONUS_SPACE = ACTION_SPACE[pb.SPACE_KIND_BONUS_INGREDIENT]
RESERVE_SPACE = ACTION_SPACE[pb.SPACE_KIND_RESERVE_RECIPE]
PLACE_SPACE = ACTION_SPACE[pb.SPACE_KIND_PLACE_CHIP]
BONUS_CENTRE = (CONTENT.board.spaces[BONUS_SPACE].centre_x, CONTENT.board.spaces[BONUS_SPACE].centre_y)

# Tuning (the bot's own judgement, not the game's numbers).
LOW_MONEY = CONTENT.start_money // 4  # below this, it sells any card its target does not need
AFFORD_SPARE = CONTENT.start_money // 4  # keeps this much when buying, unless the price is small
SMALL_PRICE = 400  # ... a price it pays whatever its money
AIM_THROWS = 2000  # throws of the landing-chance estimate per space
PLACE_CHANCE = 0.5  # aims at Place a chip (to lay its spare chip on Bonus) only when this share lands there


@lru_cache(maxsize=16)
def landing_chances(spread: float) -> tuple[float, ...]:
    """The share of throws aimed at each space that land on it, at this spread (the board is public)."""
    return tuple(hit_rates(space, spread, AIM_THROWS).target for space in range(LAYOUT.spaces))


def wanted_kinds(hand: Sequence[int], recipes: Sequence[int]) -> list[int]:
    """The ingredient indices still missing for the recipe closest to done (fewest missing first)."""
    return closest(hand, recipes)[0]


def closest(hand: Sequence[int], recipes: Sequence[int]) -> list[list[int]]:
    """The missing kinds of every recipe, the closest to done first."""
    missing = [[k for k in RECIPE_KINDS[recipe] if hand[k] < 1] for recipe in recipes]
    missing.sort(key=len)
    return missing or [[]]


def ranked_recipes(hand: Sequence[int], recipes: Sequence[int]) -> list[int]:
    """The recipes, the closest to done first."""
    return sorted(recipes, key=lambda r: sum(1 for k in RECIPE_KINDS[r] if hand[k] < 1))


def target_kinds(hand: Sequence[int], recipes: Sequence[int]) -> set[int]:
    """The kinds of the recipe closest to done."""
    ranked = ranked_recipes(hand, recipes)
    return set(RECIPE_KINDS[ranked[0]]) if ranked else set()


def kept_kinds(hand: Sequence[int], recipes: Sequence[int]) -> list[int]:
    """How many cards of each kind the two closest recipes use (the rest of the hand is spare)."""
    keep = [0] * LAYOUT.kinds
    for recipe in ranked_recipes(hand, recipes)[:2]:
        for k in RECIPE_KINDS[recipe]:
            keep[k] += 1
    return keep


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
        if view.phase == pb.PHASE_THROWING:
            return self._throw(view, me, hand, recipes, legal_actions)
        return self._activate(view, me, hand, recipes, legal_actions)

    # ------------------------------------------------------------------ throwing
    def _throw(self, view: Any, me: int, hand: list[int], recipes: list[int], legal: Sequence[int]) -> int:
        allowed = set(legal)
        for space, dearest in self._aims(view, me, hand, recipes):
            # The chips that may go there (a caller may offer only some throws), cheapest first.
            values = [v for v in range(LAYOUT.values) if LAYOUT.throw(v, space) in allowed]
            if values:
                return LAYOUT.throw(values[-1] if dearest else values[0], space)
        return min(legal)

    def _aims(self, view: Any, me: int, hand: list[int], recipes: list[int]) -> Iterator[tuple[int, bool]]:
        """The spaces to aim at, best first, each with whether to throw the dearest chip there."""
        player = view.players[me]
        covered = set()
        for chip in view.chips:
            if chip.owner == me and chip.status == pb.CHIP_STATUS_ON_BOARD:
                covered.update(chip.spaces)
        missing = closest(hand, recipes)
        wanted = missing[0]
        keep = kept_kinds(hand, recipes)
        spare = [k for k in range(LAYOUT.kinds) if hand[k] > keep[k] and k != CHILI]
        can_buy = player.money >= CHIP_VALUES[0]
        if can_buy:
            yield from ((INGREDIENT_SPACE[k], False) for k in wanted if INGREDIENT_SPACE[k] not in covered)
        if BONUS_SPACE not in covered:
            yield BONUS_SPACE, False
        # A chip that stays in the supply this round (4 players throw 3) can be laid on Bonus
        # ingredient by Place a chip: worth a throw for one who lands there often enough.
        spare_chip = THROWS_PER_ROUND[view.core.num_players] < CHIPS_PER_SEAT
        place_chance = landing_chances(player.throw_spread)[PLACE_SPACE]
        if spare_chip and PLACE_SPACE not in covered and place_chance >= PLACE_CHANCE:
            yield PLACE_SPACE, False
        sell_spaces = [INGREDIENT_SPACE[k] for k in spare if INGREDIENT_SPACE[k] not in covered]
        if sell_spaces:
            yield self.rng.choice(sell_spaces), True  # selling pays twice the chips there
        if not player.reserve and RESERVE_SPACE not in covered and view.recipe_deck_size:
            yield RESERVE_SPACE, False
        yield BONUS_SPACE, False
        later = [k for kinds in missing[1:] for k in kinds if k not in wanted]
        yield from ((INGREDIENT_SPACE[k], False) for k in later if INGREDIENT_SPACE[k] not in covered)
        yield from ((INGREDIENT_SPACE[k], False) for k in wanted)
        # Only when offered nothing above (a plan's throws): what sells, then what it needs at all.
        yield from ((INGREDIENT_SPACE[k], True) for k in spare)
        yield from ((INGREDIENT_SPACE[k], False) for k in sorted(needed_kinds(recipes)))
        yield from ((space, False) for space in range(LAYOUT.spaces))

    # ------------------------------------------------------------------ cleaning
    def _activate(self, view: Any, me: int, hand: list[int], recipes: list[int], legal: Sequence[int]) -> int:
        costs = [0] * LAYOUT.spaces
        statuses = {}
        for chip in view.chips:
            if chip.status == pb.CHIP_STATUS_ON_BOARD:
                for space in chip.spaces:
                    costs[space] += chip.value
            if chip.owner == me:
                statuses[CHIP_VALUES.index(chip.value)] = chip.status
        missing = closest(hand, recipes)
        wanted, later = missing[0], {k for kinds in missing[1:2] for k in kinds}
        keep = kept_kinds(hand, recipes)
        money = view.players[me].money
        if money < LOW_MONEY:
            # Short of money: only the target's own cards are kept.
            target = target_kinds(hand, recipes)
            keep = [1 if k in target else 0 for k in range(LAYOUT.kinds)]
        best, best_score = legal[-1], -1e9
        for action_id in legal:
            score = self._score(id_to_action(action_id), costs, statuses, hand, wanted, later, keep, money)
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
        later: set[int],
        keep: list[int],
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
                return (60.0 if k in wanted else 25.0 if k in later else 20.0 if k == CHILI else 8.0) + chip_bias
            if kind == "buy":
                affordable = cost <= money - AFFORD_SPARE or cost <= SMALL_PRICE
                return (50.0 - cost / 100 if k in wanted and affordable else -5.0) + chip_bias
            spare = hand[k] > keep[k] and k != CHILI
            return (30.0 + cost * CONTENT.sell_multiplier / 200 if spare else -3.0) + chip_bias
        if kind == "reserve_recipe":
            return 12.0 + chip_bias
        if kind == "take_head_chef":
            return 2.0 + chip_bias
        if kind == "place_chip":
            spare_chip = statuses.get(CHIP_VALUES.index(detail.placed_chip_value)) != pb.CHIP_STATUS_ON_BOARD
            on_bonus = (detail.x, detail.y) == BONUS_CENTRE
            return (10.0 if spare_chip and on_bonus else -1.0) + chip_bias
        return 0.0 + chip_bias
