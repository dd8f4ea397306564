"""The timer of the card game, a match option: a number of rounds (the default) or minutes of wall
clock. The engine has no clock: in a clock game it tells the match service its limit
(clock_limit_seconds) and the match service ends the game when the time is up (end_by_clock)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from services.kit.errors import GameError
from services.rules.games.a_la_carte_cards.content import CONTENT
from services.rules.spec import OptionSpec
from sizzle.common.v1 import common_pb2

SECONDS_PER_MINUTE = 60.0  # a unit conversion, not a rule
MIN_CLOCK_MINUTES = 1.0  # ours: a shorter clock (1e-300 minutes was taken) ends the game as it starts

ROUNDS_OPTION = OptionSpec(
    "rounds",
    "Round timer: the game ends after this many rounds (every seat moves once a round, seat 0 first);"
    " ignored when `minutes` is set",
    str(CONTENT.default_rounds),
    tuple(str(r) for r in range(CONTENT.min_rounds, CONTENT.max_rounds + 1)),
)
MINUTES_OPTION = OptionSpec(
    "minutes",
    "Clock timer: minutes of wall clock after which the server ends the game (a decimal number, at least"
    f" {MIN_CLOCK_MINUTES:g} and at most {CONTENT.max_clock_minutes:g}); empty for the round timer",
    "",
    minimum=MIN_CLOCK_MINUTES,
    maximum=CONTENT.max_clock_minutes,
)


@dataclass(frozen=True)
class Timer:
    """What ends a game: the last round, and (clock games) the minutes of wall clock."""

    rounds_limit: int
    clock_minutes: float  # 0 when the rounds are the timer


def timer_from_options(options: Mapping[str, str]) -> Timer:
    """The timer the match options set; a clock game keeps the safety limit of rounds."""
    text = options.get("minutes", "").strip()
    if not text:
        return Timer(rounds_limit=int(options.get("rounds", ROUNDS_OPTION.default)), clock_minutes=0.0)
    try:
        minutes = float(text)
    except ValueError:
        minutes = math.nan
    if not math.isfinite(minutes) or minutes <= 0:
        raise GameError(
            common_pb2.ERROR_REASON_INVALID_OPTION,
            f"option minutes={text!r} is not a positive number of minutes",
            {"option": "minutes"},
        )
    return Timer(rounds_limit=CONTENT.clock_safety_rounds, clock_minutes=minutes)
