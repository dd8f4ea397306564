"""Builders for Hibachi scenario tests: tables set up by hand, chips laid where a test wants them."""

from __future__ import annotations

from typing import Any

from services.rules.games.hibachi.content import (
    ACTION_SPACE,
    CHIP_VALUES,
    INGREDIENT_SPACE,
    INGREDIENTS,
    LAYOUT,
    SPACES,
)
from services.rules.games.hibachi.geometry import space_bits
from services.rules.games.hibachi.table import chip_slot
from services.rules.registry import get_engine
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb

ENGINE = get_engine("hibachi")
L = LAYOUT


def kind(ingredient: int) -> int:
    """The hand index of an Ingredient enum value."""
    return INGREDIENTS.index(ingredient)


RICE, EGG, ONION = kind(pb.INGREDIENT_RICE), kind(pb.INGREDIENT_EGG), kind(pb.INGREDIENT_ONION)
SHRIMP, CHILI = kind(pb.INGREDIENT_SHRIMP), kind(pb.INGREDIENT_CHILI)
FRIED_RICE = 0  # Hibachi Fried Rice: rice, egg, onion
SHRIMP_FRIED_RICE = 1  # rice, shrimp, egg


def v(value: int) -> int:
    """The value index of a chip value in yen."""
    return CHIP_VALUES.index(value)


def centre(space: int) -> tuple[float, float]:
    return SPACES[space].centre_x, SPACES[space].centre_y


def plain_grill() -> tuple[float, float]:
    """A point of the board on no space at all: halfway between Place a chip and Bonus ingredient
    (two corners of the top band of plain grill)."""
    px, py = centre(action_space(pb.SPACE_KIND_PLACE_CHIP))
    bx, by = centre(action_space(pb.SPACE_KIND_BONUS_INGREDIENT))
    return (px + bx) / 2, (py + by) / 2


def ingredient_space(ingredient: int) -> int:
    return INGREDIENT_SPACE[kind(ingredient)]


def action_space(space_kind: int) -> int:
    return ACTION_SPACE[space_kind]


def new_table(players: int = 3, seed: int = 1, head_chef: int = 0, **options: str) -> Any:
    """A fresh game with a known head chef, on the head chef's first throw."""
    state = ENGINE.new_game(players, options, seed)
    state.head_chef = head_chef
    state.core.seat_to_move = head_chef
    return state


def put_chip(state: Any, seat: int, value: int, x: float, y: float, face_up: bool = False) -> Any:
    """Lays `seat`'s chip of `value` on the board at (x, y), as if thrown there."""
    chip = state.chips[chip_slot(state, seat, v(value))]
    chip.status = pb.CHIP_STATUS_ON_BOARD
    chip.x, chip.y = x, y
    chip.face_up = face_up
    chip.space_bits = space_bits(x, y)
    chip.arrival = state.arrivals
    state.arrivals += 1
    return chip


def put_on(state: Any, seat: int, value: int, space: int, dx: float = 0.0, dy: float = 0.0) -> Any:
    x, y = centre(space)
    return put_chip(state, seat, value, x + dx, y + dy)


def chip(state: Any, seat: int, value: int) -> Any:
    return state.chips[chip_slot(state, seat, v(value))]


def give(state: Any, seat: int, hand_index: int, count: int = 1) -> None:
    """Moves cards from a pile into a hand."""
    state.players[seat].hand[hand_index] += count
    state.piles[hand_index] -= count


def to_cleaning(state: Any, seat: int | None = None) -> Any:
    """Ends the throwing step by hand: chips in play face up, `seat` (default: head chef) to activate."""
    n = state.core.num_players
    state.phase = pb.PHASE_CLEANING
    state.throws_made = n * (4 if n < 4 else 3)
    for c in state.chips:
        if c.status == pb.CHIP_STATUS_ON_BOARD:
            c.face_up = True
    state.core.seat_to_move = state.head_chef if seat is None else seat
    ENGINE.check_invariants(state)
    return state


def exact_thrower(state: Any, seat: int) -> None:
    """Makes a seat throw with no spread at all, so a landing is exactly its aim."""
    state.players[seat].throw_spread = 0.0


def throw_at(state: Any, seat: int, value: int, x: float, y: float) -> list:
    return ENGINE.apply(state, seat, pb.Action(throw=pb.Throw(chip_value=value, aim_x=x, aim_y=y)))


def legal(state: Any) -> list[int]:
    return ENGINE.legal_actions(state)
