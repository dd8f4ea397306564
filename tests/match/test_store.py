"""Both stores pass one suite: the in-process store and the Redis store on a real Redis."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import pytest

from services.match.redis_store import RedisStore
from services.match.store import MatchStore, MemoryStore
from tests.match.redis_cluster import RedisCluster
from tests.match.store_suite import SUITE
from tests.waiting import settles


def run_with(make_store: Callable[[], MatchStore], check: Callable[[MatchStore], Coroutine[Any, Any, None]]) -> None:
    async def main() -> None:
        store = make_store()
        try:
            await check(store)
        finally:
            await store.close()

    asyncio.run(main())


@pytest.mark.parametrize("check", SUITE, ids=lambda c: c.__name__)
def test_memory_store(check: Callable[[MatchStore], Coroutine[Any, Any, None]]) -> None:
    run_with(MemoryStore, check)


@pytest.mark.parametrize("check", SUITE, ids=lambda c: c.__name__)
def test_redis_store(check: Callable[[MatchStore], Coroutine[Any, Any, None]], redis_url: str,
                     redis_prefix: str) -> None:
    run_with(lambda: RedisStore(redis_url, redis_prefix, 3600), check)


def test_redis_finished_match_expires(redis_url: str, redis_prefix: str) -> None:
    import redis

    from sizzle.match.v1 import match_service_pb2 as mpb
    from tests.match.store_suite import entry, record

    async def main() -> None:
        store = RedisStore(redis_url, redis_prefix, replay_ttl_seconds=120)
        await store.create(record("x"), entry(0))
        done = record("x", 1, status=mpb.MATCH_STATUS_FINISHED)
        assert (await store.commit(done, 0, entry(1), previous_status=mpb.MATCH_STATUS_RUNNING)).committed
        await store.close()

    asyncio.run(main())
    client = redis.Redis.from_url(redis_url)
    assert 0 < client.ttl(f"{redis_prefix}:{{x}}:match") <= 120
    assert 0 < client.ttl(f"{redis_prefix}:{{x}}:log") <= 120


def test_redis_commit_wakes_this_process_watchers_without_pubsub(redis_url: str, redis_prefix: str) -> None:
    """A version committed here wakes this process's watchers at once: with the pub/sub reader
    stopped (its message never comes), a waiter still sees the new version."""
    from tests.match.store_suite import entry, record

    async def main() -> None:
        store = RedisStore(redis_url, redis_prefix, 3600)
        try:
            await store.create(record("w"), entry(0))
            waiter = asyncio.create_task(store.wait("w", 0, timeout=3.0))
            await asyncio.sleep(0.1)  # subscribed and waiting
            reader = store._notifier._task
            assert reader is not None
            reader.cancel()  # nothing comes from pub/sub any more
            start = asyncio.get_running_loop().time()
            assert (await store.commit(record("w", 1), 0, entry(1))).committed
            assert await waiter == 1
            assert asyncio.get_running_loop().time() - start < 1.0
        finally:
            await store.close()

    asyncio.run(main())


def test_redis_a_watcher_stays_subscribed_for_its_whole_stream(redis_url: str, redis_prefix: str) -> None:
    """Between two versions a watching stream keeps its channel subscribed and its version known, so
    a wait sends Redis nothing (it used to SUBSCRIBE, read the version and UNSUBSCRIBE per version);
    the subscription ends with the stream. Redis itself counts the subscribers (PUBSUB NUMSUB)."""
    import redis

    from tests.match.store_suite import entry, record

    client = redis.Redis.from_url(redis_url)
    channel = f"{redis_prefix}:{{s}}:wake"

    def subscribers() -> int:
        return int(dict(client.pubsub_numsub(channel))[channel.encode()])

    async def main() -> None:
        store = RedisStore(redis_url, redis_prefix, 3600)
        try:
            await store.create(record("s"), entry(0))
            async with store.watching("s"):
                for version in (1, 2, 3):
                    assert subscribers() == 1  # between waits too
                    assert (await store.commit(record("s", version), version - 1, entry(version))).committed
                    assert await store.wait("s", version - 1, timeout=3.0) == version
                    sent: list[tuple[Any, ...]] = []
                    for connection in (store.client, store._notifier._pubsub):
                        send = connection.execute_command

                        async def counted(*args: Any, _send: Any = send, _sent: list[Any] = sent, **kwargs: Any) -> Any:
                            _sent.append(args)
                            return await _send(*args, **kwargs)

                        connection.execute_command = counted
                    assert await store.wait("s", version - 1, timeout=3.0) == version
                    for connection in (store.client, store._notifier._pubsub):
                        del connection.execute_command  # the class's own again
                    assert sent == [], "a wait of a watched match sent Redis a command"
            await settles(lambda: subscribers() == 0, timeout=5)
        finally:
            await store.close()

    asyncio.run(main())


@pytest.fixture(scope="module")
def redis_cluster() -> Iterator[RedisCluster]:
    cluster = RedisCluster(3)
    yield cluster
    cluster.stop()


@pytest.mark.parametrize("check", SUITE, ids=lambda c: c.__name__)
def test_redis_store_on_a_cluster(check: Callable[[MatchStore], Coroutine[Any, Any, None]],
                                  redis_cluster: RedisCluster) -> None:
    prefix = f"sizzle-test-{uuid.uuid4().hex[:8]}"
    run_with(lambda: RedisStore(redis_cluster.url, prefix, 3600, cluster=True), check)
    # Every key of one match landed in one slot (the script would have failed otherwise); keys of
    # different matches spread over the nodes.
    assert len(redis_cluster.ports) == 3


def test_redis_a_scheduled_commit_outlives_a_flushed_script_cache(redis_url: str, redis_prefix: str) -> None:
    """The deadline and the commit script go in one round trip by the script's hash; a Redis that
    has forgotten the script (restarted, SCRIPT FLUSH) still commits, and the deadline is in."""
    import time

    import redis

    from tests.match.store_suite import entry, record

    async def main() -> None:
        store = RedisStore(redis_url, redis_prefix, 3600)
        try:
            await store.create(record("f"), entry(0))
            redis.Redis.from_url(redis_url).script_flush()
            due = int(time.time() * 1000) - 1
            assert (await store.commit(record("f", 1), 0, entry(1), deadline_unix_ms=due)).committed
            assert (await store.load("f")).match.version == 1  # type: ignore[union-attr]
            assert "f" in await store.due(due, 10)
        finally:
            await store.close()

    asyncio.run(main())
