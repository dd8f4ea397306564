"""The one test suite both match stores pass (and the Redis store again on a Redis Cluster)."""

from __future__ import annotations

import asyncio
import time

from services.match.store import MatchStore
from sizzle.common.v1 import common_pb2
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_store_pb2 as spb


def record(match_id: str, version: int = 0, game: str = "grill_party",
           status: int = mpb.MATCH_STATUS_RUNNING, created: int = 0) -> spb.StoredMatch:
    match = mpb.Match(match_id=match_id, game_id=game, version=version, status=status,
                      created_unix_ms=created or int(time.time() * 1000))
    return spb.StoredMatch(match=match, state=f"state-{version}".encode())


def entry(version: int, text: str = "") -> spb.LogEntry:
    return spb.LogEntry(version=version, seat=0, events=[common_pb2.Event(text=text or f"v{version}")])


async def create_load_commit(store: MatchStore) -> None:
    await store.create(record("m1"), entry(0))
    loaded = await store.load("m1")
    assert loaded is not None and loaded.match.version == 0 and loaded.state == b"state-0"
    assert await store.load("nope") is None
    result = await store.commit(record("m1", 1), 0, entry(1))
    assert result.committed and result.current_version == 1
    loaded = await store.load("m1")
    assert loaded is not None and loaded.state == b"state-1"
    assert [e.version for e in await store.log("m1", -1)] == [0, 1]
    assert [e.version for e in await store.log("m1", 0)] == [1]
    assert await store.log("m1", 1) == []


async def stale_version_is_refused(store: MatchStore) -> None:
    await store.create(record("m2"), entry(0))
    assert (await store.commit(record("m2", 1), 0, entry(1))).committed
    result = await store.commit(record("m2", 1), 0, entry(1, "late"))
    assert not result.committed and result.current_version == 1
    assert [e.events[0].text for e in await store.log("m2", -1)] == ["v0", "v1"]
    missing = await store.commit(record("gone", 1), 0, entry(1))
    assert not missing.committed and missing.missing


async def request_ids_answer_once(store: MatchStore) -> None:
    await store.create(record("m3"), entry(0))
    first = entry(1)
    first.request_key, first.request_hash = b"r1", b"h"
    assert (await store.commit(record("m3", 1), 0, first)).committed
    retry = entry(1, "again")
    retry.request_key, retry.request_hash = b"r1", b"h"
    again = await store.commit(record("m3", 1), 0, retry)  # the retry loses the compare-and-set ...
    assert not again.committed and again.current_version == 1
    prior = await store.answer("m3", b"r1", 1)  # ... and finds its first answer at its version
    assert prior is not None and prior.request_hash == b"h" and prior.events[0].text == "v1"
    assert await store.answer("m3", b"r2", 1) is None
    assert await store.answer("m3", b"r1", 2) is None and await store.answer("m3", b"r1", 0) is None
    assert await store.answer("gone", b"r1", 1) is None
    assert len(await store.log("m3", -1)) == 2


async def concurrent_commits_one_wins(store: MatchStore) -> None:
    await store.create(record("m4"), entry(0))
    results = await asyncio.gather(*(store.commit(record("m4", 1), 0, entry(1, f"w{i}")) for i in range(50)))
    assert sum(r.committed for r in results) == 1
    assert len(await store.log("m4", -1)) == 2


async def watchers_wake(store: MatchStore) -> None:
    await store.create(record("m5"), entry(0))
    start = time.monotonic()
    assert await store.wait("m5", 0, timeout=0.3) == 0
    assert time.monotonic() - start >= 0.25

    async def later() -> None:
        await asyncio.sleep(0.2)
        await store.commit(record("m5", 1), 0, entry(1))

    task = asyncio.create_task(later())
    start = time.monotonic()
    assert await store.wait("m5", 0, timeout=5) == 1
    assert time.monotonic() - start < 2
    await task
    assert await store.wait("m5", 0, timeout=5) == 1  # already past: returns at once


async def listing_pages(store: MatchStore) -> None:
    base = int(time.time() * 1000)
    for i in range(25):
        game = "grill_party" if i % 2 else "hibachi"
        status = mpb.MATCH_STATUS_FINISHED if i % 5 == 0 else mpb.MATCH_STATUS_RUNNING
        await store.create(record(f"L{i:02d}", game=game, status=status, created=base + i), entry(0))
    seen: list[str] = []
    cursor = ""
    while True:
        page = await store.list_matches("", mpb.MATCH_STATUS_RUNNING, cursor, 7)
        seen.extend(r.match.match_id for r in page.records)
        cursor = page.next_cursor
        if not cursor:
            break
    expected = [f"L{i:02d}" for i in reversed(range(25)) if i % 5]
    assert seen == expected
    only = await store.list_matches("grill_party", mpb.MATCH_STATUS_RUNNING, "", 100)
    assert [r.match.match_id for r in only.records] == [m for m in expected if int(m[1:]) % 2]
    assert await store.count("grill_party", mpb.MATCH_STATUS_RUNNING) == len(only.records)
    every = await store.list_matches("", mpb.MATCH_STATUS_UNSPECIFIED, "", 100)
    assert len(every.records) == 25
    # A status change moves the match between indexes.
    moved = record("L01", 1, game="grill_party", status=mpb.MATCH_STATUS_FINISHED, created=base + 1)
    assert (await store.commit(moved, 0, entry(1), previous_status=mpb.MATCH_STATUS_RUNNING)).committed
    running = await store.list_matches("grill_party", mpb.MATCH_STATUS_RUNNING, "", 100)
    assert "L01" not in [r.match.match_id for r in running.records]
    finished = await store.list_matches("grill_party", mpb.MATCH_STATUS_FINISHED, "", 100)
    assert "L01" in [r.match.match_id for r in finished.records]


async def deadlines_come_due(store: MatchStore) -> None:
    now = int(time.time() * 1000)
    await store.schedule("d1", now - 10)
    await store.schedule("d2", now + 60_000)
    await store.schedule("d3", now - 5)
    assert sorted(await store.due(now, 10)) == ["d1", "d3"]
    await store.schedule("d1", 0)
    assert await store.due(now, 10) == ["d3"]


async def a_commit_schedules_its_deadline_first(store: MatchStore) -> None:
    await store.create(record("d4"), entry(0))
    now = int(time.time() * 1000)
    assert (await store.commit(record("d4", 1), 0, entry(1), deadline_unix_ms=now - 10)).committed
    assert "d4" in await store.due(now, 100)
    # A commit that loses its race still leaves its deadline (the deadline loop drops a stale one).
    assert not (await store.commit(record("d4", 1), 0, entry(1), deadline_unix_ms=now - 5)).committed
    assert "d4" in await store.due(now, 100)
    await store.schedule("d4", 0)
    assert (await store.commit(record("d4", 2), 1, entry(2))).committed  # no deadline: none scheduled
    assert "d4" not in await store.due(now, 100)


SUITE = [create_load_commit, stale_version_is_refused, request_ids_answer_once, concurrent_commits_one_wins,
         watchers_wake, listing_pages, deadlines_come_due, a_commit_schedules_its_deadline_first]
