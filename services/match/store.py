"""The match store: one interface, two implementations that pass one shared test suite.

A match is one record (its Match resource and serialized game state) with a version, written only
through a compare-and-set that also appends the change to the match's event log and wakes the
match's watchers. The log entry of a submitted action carries digests of its request id and of the request: a
retry carries the same expected version, so its first answer is the entry at that version plus one
(no separate idempotency records, and they live exactly as long as the match). The commit that finishes
a match also queues it for the records writer (services/records/writer.py), which claims it with a
lease, writes it to the durable records and drops it: no finished match is forgotten. The in-process
store here is the embedded default of `make run`; services/match/redis_store.py is the real deployment.
"""

from __future__ import annotations

import asyncio
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from services.kit import metrics
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_store_pb2 as spb

STATUS_NAMES = {
    mpb.MATCH_STATUS_WAITING: "waiting",
    mpb.MATCH_STATUS_RUNNING: "running",
    mpb.MATCH_STATUS_FINISHED: "finished",
    mpb.MATCH_STATUS_UNSPECIFIED: "any",
}


@dataclass(frozen=True)
class CommitResult:
    """What a compare-and-set did: committed, lost to a newer version, or found no match."""

    committed: bool
    current_version: int = -1
    missing: bool = False


@dataclass(frozen=True)
class Page:
    records: list[spb.StoredMatch]
    next_cursor: str = ""


def index_score(match: mpb.Match) -> float:
    """Newest first, unique per match: creation time in microseconds-ish plus a tie breaker."""
    return float(match.created_unix_ms * 1000 + (hash(match.match_id) % 1000))


class MatchStore(ABC):
    kind: str = "abstract"

    @asynccontextmanager
    async def timed(self, operation: str) -> AsyncIterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            metrics.STORE_OPERATION.labels(self.kind, operation).observe(time.perf_counter() - start)

    @abstractmethod
    async def create(self, record: spb.StoredMatch, entry: spb.LogEntry) -> None:
        """Stores a new match at record.match.version (0) with its first log entry."""

    @abstractmethod
    async def load(self, match_id: str) -> spb.StoredMatch | None: ...

    @abstractmethod
    async def commit(
        self,
        record: spb.StoredMatch,
        expected_version: int,
        entry: spb.LogEntry,
        previous_status: int = 0,
        deadline_unix_ms: int = 0,
    ) -> CommitResult:
        """Writes `record` (whose match.version is expected_version + 1) if the stored version is
        still `expected_version`, appends `entry`, wakes watchers. A `deadline_unix_ms` is scheduled
        first (as `schedule` does), whether or not the commit wins, so that a crash right after the
        commit still leaves it; a store may send both in one round trip."""

    @abstractmethod
    async def answer(self, match_id: str, request_key: bytes, version: int) -> spb.LogEntry | None:
        """The log entry at `version` when the request id whose key is `request_key` made it, else None."""

    @abstractmethod
    async def log(self, match_id: str, after_version: int) -> list[spb.LogEntry]:
        """Log entries with versions greater than `after_version`, in order."""

    @abstractmethod
    async def wait(self, match_id: str, after_version: int, timeout: float) -> int:
        """Returns the current version as soon as it exceeds `after_version`, or at the timeout."""

    @asynccontextmanager
    async def watching(self, match_id: str) -> AsyncIterator[None]:
        """Held by a watcher for the whole of its stream, around its `wait`s: a store that hears of
        new versions through a subscription (Redis pub/sub) subscribes once per stream instead of once
        per version. This store needs nothing."""
        yield

    @abstractmethod
    async def list_matches(self, game_id: str, status: int, cursor: str, limit: int) -> Page:
        """Matches of a game ('' any) and status, newest first."""

    @abstractmethod
    async def schedule(self, match_id: str, deadline_unix_ms: int) -> None:
        """Remembers that the match has a deadline (turn or clock) at that time; 0 forgets it."""

    @abstractmethod
    async def due(self, now_unix_ms: int, limit: int) -> list[str]:
        """Matches whose scheduled deadline has passed."""

    @abstractmethod
    async def count(self, game_id: str, status: int) -> int:
        """How many matches of the game have the status."""

    # The queue of finished matches whose durable record is pending: `commit` adds a match when the
    # record it writes is FINISHED (due at once, in the commit itself where the store can).
    @abstractmethod
    async def claim_finished(self, now_ms: int, until_ms: int, limit: int) -> list[str]:
        """Queued matches that are due (never claimed, or their claim lapsed), claimed until `until_ms`."""

    @abstractmethod
    async def drop_finished(self, match_id: str, claimed_until_ms: int) -> None:
        """Takes a match off the queue once its record is written, unless it was queued again since
        the claim that ran until `claimed_until_ms`."""

    @abstractmethod
    async def finished_pending(self) -> int:
        """How many finished matches wait for their record."""

    async def close(self) -> None:
        return None


@dataclass
class _MemoryMatch:
    record: bytes
    version: int
    log: list[bytes] = field(default_factory=list)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)


class MemoryStore(MatchStore):
    """The embedded in-process store: same semantics, one process (no replicas), nothing persisted."""

    kind = "memory"

    def __init__(self) -> None:
        self._matches: dict[str, _MemoryMatch] = {}
        self._deadlines: dict[str, int] = {}
        self._index: dict[tuple[str, int], dict[str, float]] = {}
        self._finished: dict[str, int] = {}  # match id -> claimed until (0: due)

    def _index_put(self, match: mpb.Match, previous_status: int) -> None:
        if previous_status == match.status:
            return  # the indexes only change with the status
        score = index_score(match)
        # Each match is in its status's index and in the any-status (0) index, per game and for all.
        for game in (match.game_id, ""):
            if previous_status and previous_status != match.status:
                self._index.get((game, previous_status), {}).pop(match.match_id, None)
            for status in (match.status, 0):
                self._index.setdefault((game, status), {})[match.match_id] = score

    async def create(self, record: spb.StoredMatch, entry: spb.LogEntry) -> None:
        async with self.timed("create"):
            match = record.match
            self._matches[match.match_id] = _MemoryMatch(record.SerializeToString(), match.version,
                                                         [entry.SerializeToString()])
            self._index_put(match, 0)

    async def load(self, match_id: str) -> spb.StoredMatch | None:
        async with self.timed("load"):
            stored = self._matches.get(match_id)
            return None if stored is None else spb.StoredMatch.FromString(stored.record)

    async def commit(self, record, expected_version, entry, previous_status=0,  # type: ignore[no-untyped-def]
                     deadline_unix_ms=0):
        if deadline_unix_ms:
            await self.schedule(record.match.match_id, deadline_unix_ms)
        async with self.timed("commit"):
            stored = self._matches.get(record.match.match_id)
            if stored is None:
                return CommitResult(False, missing=True)
            if stored.version != expected_version:
                return CommitResult(False, stored.version)
            stored.record = record.SerializeToString()
            stored.version = expected_version + 1
            stored.log.append(entry.SerializeToString())
            self._index_put(record.match, previous_status)
            if record.match.status == mpb.MATCH_STATUS_FINISHED:
                self._finished[record.match.match_id] = 0
            async with stored.changed:
                stored.changed.notify_all()
            return CommitResult(True, stored.version)

    async def answer(self, match_id: str, request_key: bytes, version: int) -> spb.LogEntry | None:
        stored = self._matches.get(match_id)
        if stored is None or not request_key or not 0 < version < len(stored.log):
            return None
        entry = spb.LogEntry.FromString(stored.log[version])  # version v's entry sits at index v
        return entry if entry.request_key == request_key else None

    async def log(self, match_id: str, after_version: int) -> list[spb.LogEntry]:
        async with self.timed("log"):
            stored = self._matches.get(match_id)
            if stored is None:
                return []
            # Version v's entry sits at index v (version 0 is the creation entry).
            return [spb.LogEntry.FromString(b) for b in stored.log[max(after_version + 1, 0):]]

    async def wait(self, match_id: str, after_version: int, timeout: float) -> int:
        stored = self._matches.get(match_id)
        if stored is None:
            return -1
        async with stored.changed:
            try:
                await asyncio.wait_for(stored.changed.wait_for(lambda: stored.version > after_version), timeout)
            except TimeoutError:
                pass
        return stored.version

    async def list_matches(self, game_id: str, status: int, cursor: str, limit: int) -> Page:
        async with self.timed("list"):
            members = self._index.get((game_id, status), {})
            ordered = sorted(members.items(), key=lambda item: -item[1])
            if cursor:
                bound = float(cursor)
                ordered = [item for item in ordered if item[1] < bound]
            chosen = ordered[:limit]
            records = [spb.StoredMatch.FromString(self._matches[mid].record) for mid, _ in chosen]
            next_cursor = repr(chosen[-1][1]) if len(ordered) > limit else ""
            return Page(records, next_cursor)

    async def schedule(self, match_id: str, deadline_unix_ms: int) -> None:
        if deadline_unix_ms:
            self._deadlines[match_id] = deadline_unix_ms
        else:
            self._deadlines.pop(match_id, None)

    async def due(self, now_unix_ms: int, limit: int) -> list[str]:
        due = sorted((d, m) for m, d in self._deadlines.items() if d <= now_unix_ms)
        return [m for _, m in due[:limit]]

    async def count(self, game_id: str, status: int) -> int:
        return len(self._index.get((game_id, status), {}))

    async def claim_finished(self, now_ms: int, until_ms: int, limit: int) -> list[str]:
        due = [m for m, until in self._finished.items() if until <= now_ms][:limit]
        for match_id in due:
            self._finished[match_id] = until_ms
        return due

    async def drop_finished(self, match_id: str, claimed_until_ms: int) -> None:
        if self._finished.get(match_id) == claimed_until_ms:
            del self._finished[match_id]

    async def finished_pending(self) -> int:
        return len(self._finished)
