"""The pace at which a screen shows bot moves to a person.

Bots answer in milliseconds, so three bot turns in a row would flash by. The screen takes the
updates of its watch stream as they come and shows them in order, but a bot move no sooner than
`pause` seconds after the move before it: a person can follow each one. One update may carry several
moves (the server sends what happened since the last update); its events are split into moves by the
seat that acts. Nothing waits at a table of bots only (nobody to follow them), nor with a pause of 0
(tests, and people who want it fast: `--bot-pause 0`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence

from sizzle.common.v1 import common_pb2
from sizzle.match.v1 import match_service_pb2 as mpb

DEFAULT_PAUSE_MS = 700


def moves_of(events: Sequence[common_pb2.Event]) -> list[list[common_pb2.Event]]:
    """The events split into moves: a move starts where another seat acts; the game's own events
    (seat -1) belong to the move they follow."""
    moves: list[list[common_pb2.Event]] = []
    for event in events:
        if not moves or (event.seat >= 0 and event.seat != actor(moves[-1])):
            moves.append([])
        moves[-1].append(event)
    return moves


def actor(move: Sequence[common_pb2.Event]) -> int:
    """The seat that made the move, or -1 for the game's own events."""
    return next((e.seat for e in move if e.seat >= 0), -1)


def people_at(match: mpb.Match) -> bool:
    """Whether a person plays (or played) at the table: a table of bots only is not paced."""
    return any(s.kind == mpb.SEAT_KIND_HUMAN or s.taken_over for s in match.seats)


def is_bot_move(match: mpb.Match, move: Sequence[common_pb2.Event]) -> bool:
    seat = actor(move)
    return 0 <= seat < len(match.seats) and match.seats[seat].kind == mpb.SEAT_KIND_BOT


class Pacer:
    """Spaces bot moves `pause` seconds apart from the move shown before them."""

    def __init__(self, pause: float, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.pause = max(0.0, pause)
        self.clock = clock
        self.sleep = sleep
        self.last_shown: float | None = None
        self.waited = 0.0  # seconds spent waiting so far
        self.bot_moves_shown: list[float] = []  # when each paced bot move was shown

    def applies(self, match: mpb.Match, move: Sequence[common_pb2.Event]) -> bool:
        return self.pause > 0 and people_at(match) and is_bot_move(match, move)

    async def before(self, match: mpb.Match, move: Sequence[common_pb2.Event]) -> None:
        """Waits, when `move` is a bot's, until it may be shown."""
        if not self.applies(match, move):
            return
        if self.last_shown is not None:
            delay = self.last_shown + self.pause - self.clock()
            if delay > 0:
                await self.sleep(delay)
                self.waited += delay
        self.bot_moves_shown.append(self.clock())

    def shown(self) -> None:
        """A move is on screen now."""
        self.last_shown = self.clock()
