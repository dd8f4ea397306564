"""The deadline loop every match-service replica runs: turn time limits, bot turns that were never
played, and game clocks. Deadlines live in the store, so they survive a restart; replicas racing on
one deadline are settled by the store's compare-and-set."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from services.kit.errors import GameError
from services.match.core import Matches, now_ms

log = logging.getLogger("sizzle.deadlines")


class DeadlineLoop:
    def __init__(self, matches: Matches, interval: float = 0.2, gauge_every: float = 5.0) -> None:
        self.matches = matches
        self.interval = interval
        self.gauge_every = gauge_every
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def tick(self) -> int:
        due = await self.matches.store.due(now_ms(), 100)
        for match_id in due:
            try:
                await self.matches.on_deadline(match_id)
            except GameError as error:
                log.warning("deadline of %s: %s", match_id, error.message)
        return len(due)

    async def _run(self) -> None:
        since_gauge = self.gauge_every
        while True:
            try:
                await self.tick()
                since_gauge += self.interval
                if since_gauge >= self.gauge_every:
                    since_gauge = 0.0
                    await self.matches.refresh_live_gauge()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("deadline loop")
            await asyncio.sleep(self.interval)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
