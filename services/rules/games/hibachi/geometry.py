"""The board's geometry: which spaces reach into a chip's hole, where the raised edge starts, and
where chips overlap. Every length comes from content (millimetres)."""

from __future__ import annotations

import math
from functools import cache

from services.rules.games.hibachi.content import BOARD, CONTENT, SPACES

HOLE_RADIUS = CONTENT.chip_hole_radius
CHIP_DIAMETER = 2.0 * CONTENT.chip_outer_radius
# The playing area inside the raised edge: a centre must lie strictly inside it.
INNER_MIN_X = BOARD.edge_width
INNER_MIN_Y = BOARD.edge_width
INNER_MAX_X = BOARD.width - BOARD.edge_width
INNER_MAX_Y = BOARD.height - BOARD.edge_width

# Each space as (id, centre x, centre y, straight half width, straight half height, corner radius):
# a rounded rectangle is the set of points within the corner radius of its inner rectangle.
_SHAPES = [
    (
        s.id,
        s.centre_x,
        s.centre_y,
        s.half_width - s.corner_radius,
        s.half_height - s.corner_radius,
        s.corner_radius,
    )
    for s in SPACES
]


def distance_to_space(space: int, x: float, y: float) -> float:
    """Distance from a point to the nearest point of a space (0 inside it)."""
    _, cx, cy, hw, hh, r = _SHAPES[space]
    dx = max(abs(x - cx) - hw, 0.0)
    dy = max(abs(y - cy) - hh, 0.0)
    return max(math.hypot(dx, dy) - r, 0.0)


def _hole_index(cell: float) -> dict[tuple[int, int], list[tuple[int, float, float, float, float, float]]]:
    """A grid over the board: for each cell, the spaces a hole centred in that cell could reach."""
    index: dict[tuple[int, int], list[tuple[int, float, float, float, float, float]]] = {}
    for shape in _SHAPES:
        _, cx, cy, hw, hh, r = shape
        reach_x, reach_y = hw + r + HOLE_RADIUS, hh + r + HOLE_RADIUS
        for gx in range(int((cx - reach_x) // cell), int((cx + reach_x) // cell) + 1):
            for gy in range(int((cy - reach_y) // cell), int((cy + reach_y) // cell) + 1):
                index.setdefault((gx, gy), []).append(shape)
    return index


_CELL = 2.0 * HOLE_RADIUS
_HOLE_INDEX = _hole_index(_CELL)


def spaces_under_hole(x: float, y: float) -> list[int]:
    """Every space of which some part shows through the hole of a chip centred at (x, y): the
    rulebook's "if any part of a space is visible through a chip's hole, the chip is on it"."""
    if not (math.isfinite(x) and math.isfinite(y)):
        return []
    found = []
    for space, cx, cy, hw, hh, r in _HOLE_INDEX.get((int(x // _CELL), int(y // _CELL)), ()):
        dx = abs(x - cx) - hw
        dy = abs(y - cy) - hh
        if math.hypot(dx if dx > 0.0 else 0.0, dy if dy > 0.0 else 0.0) - r < HOLE_RADIUS:
            found.append(space)
    return found


def space_bits(x: float, y: float) -> int:
    """The spaces under a chip's hole as a bit set (bit s for space s), as the state keeps them."""
    bits = 0
    for space in spaces_under_hole(x, y):
        bits |= 1 << space
    return bits


@cache
def spaces_of(bits: int) -> tuple[int, ...]:
    """The space ids of a bit set, ascending."""
    return tuple(space for space in range(len(SPACES)) if bits >> space & 1)


def beyond_edge(x: float, y: float) -> bool:
    """Whether a chip centred at (x, y) has its centre hole on top of or beyond the raised edge."""
    return not (INNER_MIN_X < x < INNER_MAX_X and INNER_MIN_Y < y < INNER_MAX_Y)


def on_board(x: float, y: float) -> bool:
    """Whether a point lies on the board at all (the raised edge included): where one may aim."""
    return math.isfinite(x) and math.isfinite(y) and 0.0 <= x <= BOARD.width and 0.0 <= y <= BOARD.height


def overlaps(ax: float, ay: float, bx: float, by: float) -> bool:
    """Whether two chips centred at these points overlap."""
    return (ax - bx) ** 2 + (ay - by) ** 2 < CHIP_DIAMETER * CHIP_DIAMETER


def space_centre(space: int) -> tuple[float, float]:
    return SPACES[space].centre_x, SPACES[space].centre_y
