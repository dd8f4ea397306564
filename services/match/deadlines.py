"""The deadline loop every match-service replica runs: turn time limits, bot turns that were never
played, and game clocks. Deadlines live in the store, so they survive a restart; replicas racing on
one deadline are settled by the store's compare-and-set."""

from __future__ import annotations

import logging

from services.kit.errors import GameError
from services.kit.loops import Ticker
from services.match.core import Matches, now_ms

log = logging.getLogger("sizzle.deadlines")


class DeadlineLoop:
    def __init__(self, matches: Matches, interval: float = 0.2, gauge_every: float = 5.0) -> None:
        self.matches = matches
        self.gauge_every = gauge_every
        self._since_gauge = gauge_every
        self.ticker = Ticker("deadline loop", self._round, interval)

    def start(self) -> None:
        self.ticker.start()

    async def stop(self) -> None:
        await self.ticker.stop()

    async def tick(self) -> int:
        due = await self.matches.store.due(now_ms(), 100)
        for match_id in due:
            try:
                await self.matches.on_deadline(match_id)
            except GameError as error:
                log.warning("deadline of %s: %s", match_id, error.message)
        return len(due)

    async def _round(self) -> None:
        await self.tick()
        self._since_gauge += self.ticker.interval
        if self._since_gauge >= self.gauge_every:
            self._since_gauge = 0.0
            await self.matches.refresh_live_gauge()
