"""The records writer every match replica runs: finished matches, from the live store to the records.

The commit that finishes a match queues it in the live store (never a write to the records on
SubmitAction's path). Each round, a writer claims due matches from that queue with a lease, reads
each match and its log from the live store, inserts it into the records (idempotent: keyed by the
match id) and drops it from the queue. A replica that dies mid-write leaves its claims to lapse; a
writer of another replica claims them again, and the insert it repeats does nothing twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from services.kit import metrics
from services.kit.config import Config
from services.kit.loops import Ticker, carry_on
from services.match.store import MatchStore
from services.records.store import FinishedMatch, RecordsStore
from services.rules.engine import Engine
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_store_pb2 as spb

log = logging.getLogger("sizzle.records.writer")
BATCH = 50  # matches claimed per round


class RecordWriter:
    def __init__(self, config: Config, live: MatchStore, records: RecordsStore, engines: Callable[[str], Engine],
                 clock: Callable[[], int]) -> None:
        self.live = live
        self.records = records
        self.engines = engines
        self.clock = clock
        self.lease_ms = config.records_lease_ms
        self.pause_ms = config.records_pause_before_write_ms
        self.ticker = Ticker("records writer", self.tick, config.records_interval_ms / 1000)
        self.written = 0  # records this writer inserted (others it found there already)

    def start(self) -> None:
        self.ticker.start()

    async def stop(self) -> None:
        await self.ticker.stop()

    async def tick(self) -> int:
        """One round: claims what is due and records it; returns how many it claimed."""
        now = self.clock()
        until = now + self.lease_ms
        claimed = await self.live.claim_finished(now, until, BATCH)
        if claimed and self.pause_ms:  # test-only: a window in which to kill this replica
            await asyncio.sleep(self.pause_ms / 1000)
        await asyncio.gather(*(self._record_or_log(match_id, until) for match_id in claimed))
        metrics.RECORDS_PENDING.set(await self.live.finished_pending())  # the backlog an operator watches
        return len(claimed)

    async def _record_or_log(self, match_id: str, until: int) -> None:
        with carry_on(log, "recording the finished match %s", match_id):  # its claim lapses; tried again
            await self._record(match_id, until)

    async def _record(self, match_id: str, until: int) -> None:
        record = await self.live.load(match_id)
        if record is None:
            log.error("finished match %s expired from the live store before it was recorded", match_id)
        elif record.match.status == mpb.MATCH_STATUS_FINISHED:
            entries = await self.live.log(match_id, -1)
            if await self.records.put_match(FinishedMatch.of(record, entries, self._seed(record))):
                self.written += 1
                metrics.RECORDS_WRITTEN.inc()
        # else: queued by a commit that lost its race (a cluster queues first); the finishing commit queues it again
        await self.live.drop_finished(match_id, until)

    def _seed(self, record: spb.StoredMatch) -> int:
        """The seed in the final state's core (field 1 of every game's State)."""
        try:
            return int(self.engines(record.match.game_id).State.FromString(record.state).core.seed)
        except Exception:  # rules this replica lacks: the seed stays in the recorded state
            return 0
