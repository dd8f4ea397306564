"""The live store's queue of finished matches whose record is pending, on both match stores (and the
Redis one again on a three-node Redis Cluster, where the queue lives on another node than the match):
the commit that finishes a match queues it, a writer claims it with a lease, a lapsed claim is claimed
again, and only the claim that wrote it drops it."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Iterator

import pytest

from services.kit.config import Config
from services.match.redis_store import RedisStore
from services.match.store import MatchStore, MemoryStore
from services.records.writer import RecordWriter
from services.rules import registry
from tests.match.redis_cluster import RedisCluster
from tests.match.store_suite import entry, record
from tests.records.databases import RecordsDatabase

RUNNING, FINISHED = 2, 3


async def queue_claim_and_drop(store: MatchStore) -> None:
    await store.create(record("m1"), entry(0))
    assert (await store.commit(record("m1", 1), 0, entry(1), previous_status=RUNNING)).committed
    assert await store.finished_pending() == 0 and await store.claim_finished(10**13, 10**13, 10) == []
    done = record("m1", 2, status=FINISHED)
    assert (await store.commit(done, 1, entry(2), previous_status=RUNNING)).committed
    assert await store.finished_pending() == 1
    assert await store.claim_finished(1_000, 5_000, 10) == ["m1"]
    assert await store.claim_finished(2_000, 6_000, 10) == []  # claimed until 5,000
    assert await store.claim_finished(5_001, 9_000, 10) == ["m1"]  # the claim lapsed: another writer's now
    await store.drop_finished("m1", 5_000)  # the first writer, late: not its claim any more
    assert await store.finished_pending() == 1
    await store.drop_finished("m1", 9_000)
    assert await store.finished_pending() == 0 and await store.claim_finished(10**13, 10**13, 10) == []


def run(make: Callable[[], MatchStore]) -> None:
    async def main() -> None:
        store = make()
        try:
            await queue_claim_and_drop(store)
        finally:
            if isinstance(store, RedisStore):  # test clean-up
                keys = [k async for k in store.client.scan_iter(match=f"{store.prefix}:*", count=1000)]
                if keys:
                    for key in keys:
                        await store.client.delete(key)
            await store.close()

    asyncio.run(main())


@pytest.fixture(scope="module")
def redis_cluster() -> Iterator[RedisCluster]:
    cluster = RedisCluster(3)
    yield cluster
    cluster.stop()


def test_on_the_memory_store() -> None:
    run(MemoryStore)


def test_on_redis(redis_url: str, redis_prefix: str) -> None:
    run(lambda: RedisStore(redis_url, redis_prefix, 3600))


def test_on_a_redis_cluster(redis_cluster: RedisCluster) -> None:
    run(lambda: RedisStore(redis_cluster.url, f"sizzle-test-{uuid.uuid4().hex[:8]}", 3600, cluster=True))


def test_a_writer_drops_a_queued_match_that_is_not_finished(records_db: RecordsDatabase, redis_url: str,
                                                            redis_prefix: str) -> None:
    """A cluster queues before the commit: a commit that then loses its race leaves an entry for a match
    that is not finished. The writer writes nothing of it and drops it (the finishing commit queues again)."""
    async def main() -> None:
        live = RedisStore(redis_url, redis_prefix, 3600)
        records = records_db.store()
        try:
            await live.create(record("m_live", game="a_la_carte_cards"), entry(0))
            await live.client.zadd(live._pending_key, {"m_live": 0, "m_gone": 0})  # and one Redis no longer has
            writer = RecordWriter(Config(), live, records, registry.get_engine, lambda: 1_000)
            assert await writer.tick() == 2 and writer.written == 0
            assert await live.finished_pending() == 0
            assert await records.get_match("m_live") is None
        finally:
            await live.close()
            await records.close()

    asyncio.run(main())
