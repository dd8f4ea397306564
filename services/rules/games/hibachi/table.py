"""Questions about the table the rules keep asking: whose chip is where, what a space costs now,
which recipes a hand can cook, and how many throws a seat has left."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from services.rules.games.hibachi.content import (
    CHILI,
    CHIP_VALUES,
    CHIPS_PER_SEAT,
    CONTENT,
    INGREDIENTS,
    RECIPES,
    THROWS_PER_ROUND,
)
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb

ON_BOARD = pb.CHIP_STATUS_ON_BOARD
# Each recipe's ingredients as indices into the hand.
RECIPE_KINDS = [[INGREDIENTS.index(i) for i in recipe.ingredients] for recipe in RECIPES]


def seat_slots(seat: int) -> range:
    """The state's chip slots of a seat: its chips in value order (views never show slot order)."""
    return range(seat * CHIPS_PER_SEAT, (seat + 1) * CHIPS_PER_SEAT)


def chip_slot(state: Any, seat: int, value_index: int) -> int:
    """The slot of `seat`'s chip with the given value (slots are fixed: seat, then value)."""
    return seat * CHIPS_PER_SEAT + value_index


def own_chips(state: Any, seat: int) -> Iterator[tuple[int, Any]]:
    """(value index, chip) of each of a seat's chips."""
    for slot in seat_slots(seat):
        chip = state.chips[slot]
        yield chip.value_index, chip


def value_index_of(chip_value: int) -> int | None:
    """The value index of a chip value in yen, or None for a value no chip has."""
    try:
        return CHIP_VALUES.index(chip_value)
    except ValueError:
        return None


def space_cost(state: Any, space: int) -> int:
    """The yen shown by ALL chips currently on a space, added together."""
    bit = 1 << space
    return sum(CHIP_VALUES[c.value_index] for c in state.chips if c.status == ON_BOARD and c.space_bits & bit)


def has_chip_on_board(state: Any, seat: int) -> bool:
    return any(state.chips[slot].status == ON_BOARD for slot in seat_slots(seat))


def placeable(chip: Any, activating: Any) -> bool:
    """Whether Place a chip may place `chip`: one still in the supply, an invalid throw, or another of
    the seat's chips on the board; never one already activated this round, nor the one activating."""
    if chip.value_index == activating.value_index:
        return False
    return chip.status in (pb.CHIP_STATUS_IN_SUPPLY, pb.CHIP_STATUS_INVALID, pb.CHIP_STATUS_ON_BOARD)


def cook_options(hand: Any, recipe: int) -> list[int]:
    """The ways a hand can cook a recipe: 0 with its own three ingredients, 1 + j with chili cards
    standing in for its j-th ingredient."""
    kinds = RECIPE_KINDS[recipe]
    missing = [j for j, kind in enumerate(kinds) if hand[kind] < 1]
    options = [0] if not missing else []
    if CONTENT.chili_replacements_per_recipe > 0 and hand[CHILI] >= CONTENT.chili_per_ingredient and len(missing) <= 1:
        options.extend(1 + j for j in range(len(kinds)) if not missing or missing == [j])
    return options


def chips_per_round(num_players: int) -> int:
    return THROWS_PER_ROUND[num_players]


def throws_left(state: Any, seat: int) -> int:
    """Chips `seat` still throws this round (throws go round the table from the head chef)."""
    if state.phase != pb.PHASE_THROWING:
        return 0
    n = state.core.num_players
    done = state.throws_made // n + (1 if (seat - state.head_chef) % n < state.throws_made % n else 0)
    return chips_per_round(n) - done
