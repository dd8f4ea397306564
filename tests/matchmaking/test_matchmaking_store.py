"""Both matchmaking stores pass one suite: the in-process store, and the Redis store on a real Redis and
on a real three-node Redis Cluster."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import pytest

from services.matchmaking.redis_store import RedisMatchmakingStore
from services.matchmaking.store import MatchmakingStore, MemoryMatchmakingStore
from tests.match.redis_cluster import RedisCluster
from tests.matchmaking.store_suite import SUITE


def run_with(make_store: Callable[[], MatchmakingStore],
             check: Callable[[MatchmakingStore], Coroutine[Any, Any, None]]) -> None:
    async def main() -> None:
        store = make_store()
        try:
            await check(store)
        finally:
            await store.close()

    asyncio.run(main())


@pytest.mark.parametrize("check", SUITE, ids=lambda c: c.__name__)
def test_memory_store(check: Callable[[MatchmakingStore], Coroutine[Any, Any, None]]) -> None:
    run_with(MemoryMatchmakingStore, check)


@pytest.mark.parametrize("check", SUITE, ids=lambda c: c.__name__)
def test_redis_store(check: Callable[[MatchmakingStore], Coroutine[Any, Any, None]], redis_url: str,
                     redis_prefix: str) -> None:
    run_with(lambda: RedisMatchmakingStore(redis_url, redis_prefix), check)


@pytest.fixture(scope="module")
def redis_cluster() -> Iterator[RedisCluster]:
    cluster = RedisCluster(3)
    yield cluster
    cluster.stop()


@pytest.mark.parametrize("check", SUITE, ids=lambda c: c.__name__)
def test_redis_store_on_a_cluster(check: Callable[[MatchmakingStore], Coroutine[Any, Any, None]],
                                  redis_cluster: RedisCluster) -> None:
    # Every script touches one pool's slot (the {mm:<game>} tag) or one game's ratings ({rt:<game>}).
    prefix = f"sizzle-test-{uuid.uuid4().hex[:8]}"
    run_with(lambda: RedisMatchmakingStore(redis_cluster.url, prefix, cluster=True), check)
