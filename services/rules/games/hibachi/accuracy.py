"""How well an aimed throw hits: for every space and skill level, the share of throws aimed at the
space's centre that land on it, on other spaces only, on plain grill, or beyond the raised edge
(invalid), on an empty board (no pushes). A Monte Carlo over the engine's own landing draw and
geometry, from a fixed seed, so it is the same every run.

    python -m services.rules.games.hibachi.accuracy [--throws N] [--seed S]

prints the table docs/rules/hibachi.md shows ("Hit rates"); the tests use `hit_rates` to check the
ruling that the action spaces are harder targets than the ingredient spaces.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from services.rules.games.hibachi.content import SKILL_SPREADS, SPACES
from services.rules.games.hibachi.geometry import beyond_edge, space_centre, spaces_under_hole
from services.rules.games.hibachi.throwing import draw_landing
from services.rules.random_source import RandomSource, seed_random
from sizzle.common.v1 import common_pb2

DEFAULT_THROWS = 20_000
DEFAULT_SEED = 20_261_205


@dataclass(frozen=True)
class HitRates:
    """Where throws aimed at one space's centre end up (shares of all throws; they sum to 1)."""

    target: float  # on the aimed space (perhaps on a neighbour too)
    other: float  # on other spaces only
    grill: float  # on the board but on no space
    off: float  # centre on or beyond the raised edge: invalid this round


def _source(seed: int) -> RandomSource:
    state = common_pb2.RandomState()
    seed_random(state, seed)
    return RandomSource(state)


def hit_rates(space: int, spread: float, throws: int = DEFAULT_THROWS, seed: int = DEFAULT_SEED) -> HitRates:
    """Throws `throws` chips at the centre of `space` with the given spread, on an empty board."""
    rng = _source(seed + space)
    aim_x, aim_y = space_centre(space)
    target = other = grill = off = 0
    for _ in range(throws):
        x, y = draw_landing(aim_x, aim_y, spread, rng)
        if beyond_edge(x, y):
            off += 1
            continue
        under = spaces_under_hole(x, y)
        if space in under:
            target += 1
        elif under:
            other += 1
        else:
            grill += 1
    return HitRates(target / throws, other / throws, grill / throws, off / throws)


def table(throws: int = DEFAULT_THROWS, seed: int = DEFAULT_SEED) -> dict[str, list[HitRates]]:
    """Hit rates by skill name, then by space id."""
    return {skill: [hit_rates(s.id, spread, throws, seed) for s in SPACES] for skill, spread in SKILL_SPREADS.items()}


def markdown(rates: dict[str, list[HitRates]]) -> str:
    """The table as markdown: a row per space, for each skill on target / other space / grill / off."""
    skills = list(rates)
    head = "| Space | " + " | ".join(f"{skill} ({SKILL_SPREADS[skill]:g} mm)" for skill in skills) + " |"
    rule = "| --- |" + " --- |" * len(skills)
    lines = [head, rule]
    for space in SPACES:
        cells = []
        for skill in skills:
            r = rates[skill][space.id]
            cells.append(f"{r.target:5.1%} / {r.other:5.1%} / {r.grill:5.1%} / {r.off:5.1%}")
        lines.append(f"| {space.name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--throws", type=int, default=DEFAULT_THROWS, help="throws per space and skill")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args(argv)
    print("Aimed at the space's centre: on target / on other spaces only / on plain grill / beyond the edge")
    print(markdown(table(args.throws, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
