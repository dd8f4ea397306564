"""The simulated throw: where a chip lands, whether it lands face up, the chips it pushes, and the
raised edge that makes a chip invalid. All chance comes from the game's random source."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from services.rules.games.hibachi.content import CONTENT
from services.rules.games.hibachi.geometry import CHIP_DIAMETER, beyond_edge, space_bits
from services.rules.random_source import RandomSource
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb

MODEL = CONTENT.throw_model
# A pushed chip stops this far from the chips around it; the margin keeps rounding from leaving
# two chips a hair's breadth overlapping.
PUSH_GAP = CHIP_DIAMETER + MODEL.push_clearance


@dataclass
class Push:
    """A chip moved by a throw."""

    slot: int
    from_x: float
    from_y: float
    to_x: float
    to_y: float
    invalid: bool


@dataclass
class Landing:
    """What became of a thrown chip."""

    x: float
    y: float
    face_up: bool
    invalid: bool
    pushes: list[Push] = field(default_factory=list)


def draw_landing(aim_x: float, aim_y: float, spread: float, rng: RandomSource) -> tuple[float, float]:
    """The landing point: the aim plus independent normal noise on each axis with the skill's spread
    (one Box-Muller draw gives both axes)."""
    radius = spread * math.sqrt(-2.0 * math.log(1.0 - rng.uniform()))
    angle = 2.0 * math.pi * rng.uniform()
    return aim_x + radius * math.cos(angle), aim_y + radius * math.sin(angle)


def throw_chip(state: Any, slot: int, aim_x: float, aim_y: float, spread: float, rng: RandomSource) -> Landing:
    """Throws state.chips[slot] at the aim, lands it, and pushes what it hits. Mutates the state."""
    chip = state.chips[slot]
    x, y = draw_landing(aim_x, aim_y, spread, rng)
    face_up = rng.uniform() < MODEL.face_up_probability
    chip.x, chip.y, chip.face_up = x, y, face_up
    chip.arrival = state.arrivals
    state.arrivals += 1
    if beyond_edge(x, y):
        # It bounces off the raised edge: invalid for the round, and it disturbs nothing.
        chip.status = pb.CHIP_STATUS_INVALID
        chip.space_bits = 0
        return Landing(x, y, face_up, invalid=True)
    chip.status = pb.CHIP_STATUS_ON_BOARD
    chip.space_bits = space_bits(x, y)
    return Landing(x, y, face_up, invalid=False, pushes=resolve_pushes(state, slot, rng))


def resolve_pushes(state: Any, fixed_slot: int, rng: RandomSource) -> list[Push]:
    """Pushes every chip the chip at `fixed_slot` overlaps, and every chip those then overlap.

    Chips are settled in order of distance from the landing chip: one that overlaps a settled chip
    slides straight away from the nearest such chip (the one that hit it) to the first point where
    it overlaps none of them. So no two chips on the board overlap afterwards. A chip pushed with
    its centre onto the raised edge is invalid for the round.
    """
    chips = state.chips
    fixed = chips[fixed_slot]
    fx, fy = fixed.x, fixed.y
    settled = [(fx, fy)]
    others = []
    for slot, chip in enumerate(chips):
        if slot != fixed_slot and chip.status == pb.CHIP_STATUS_ON_BOARD:
            px, py = chip.x, chip.y
            others.append(((px - fx) ** 2 + (py - fy) ** 2, slot, px, py))
    others.sort()
    pushes = []
    limit = CHIP_DIAMETER * CHIP_DIAMETER
    for _, slot, px, py in others:
        pusher, nearest = None, limit
        for qx, qy in settled:
            d2 = (px - qx) ** 2 + (py - qy) ** 2
            if d2 < nearest:
                pusher, nearest = (qx, qy), d2
        if pusher is None:
            settled.append((px, py))
            continue
        dx, dy = px - pusher[0], py - pusher[1]
        norm = math.hypot(dx, dy)
        if norm < 1e-9:  # dead centre on top: it squirts out in a random direction
            angle = 2.0 * math.pi * rng.uniform()
            dx, dy = math.cos(angle), math.sin(angle)
        else:
            dx, dy = dx / norm, dy / norm
        t = _free_distance(px, py, dx, dy, settled)
        nx, ny = px + t * dx, py + t * dy
        chip = chips[slot]
        chip.x, chip.y = nx, ny
        invalid = beyond_edge(nx, ny)
        if invalid:
            chip.status = pb.CHIP_STATUS_INVALID
            chip.space_bits = 0
        else:
            chip.space_bits = space_bits(nx, ny)
            settled.append((nx, ny))
        pushes.append(Push(slot, px, py, nx, ny, invalid))
    return pushes


def _free_distance(px: float, py: float, dx: float, dy: float, settled: list[tuple[float, float]]) -> float:
    """The least t >= 0 such that a chip at (px, py) + t (dx, dy) keeps PUSH_GAP from every settled chip."""
    blocked = []
    for qx, qy in settled:
        wx, wy = px - qx, py - qy
        b = wx * dx + wy * dy
        disc = b * b - (wx * wx + wy * wy - PUSH_GAP * PUSH_GAP)
        if disc > 0.0:
            root = math.sqrt(disc)
            blocked.append((-b - root, -b + root))
    t = 0.0
    moved = True
    while moved:
        moved = False
        for start, end in blocked:
            if start < t < end or (t == 0.0 and start <= 0.0 < end):
                t = end
                moved = True
    return t
