"""The matchmaking store's ratings are a cache of the records', on Redis and in process: a rebuild
replaces them with the records' (a rating the records do not have leaves the cache and the
leaderboard), and a deployment whose Redis held ratings before it kept records has them imported into
the records at the first rebuild, never wiped."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from services.matchmaking.model import RatingRecord
from services.matchmaking.ratings import rebuild_rating_cache
from services.matchmaking.redis_store import RedisMatchmakingStore
from services.matchmaking.store import MatchmakingStore, MemoryMatchmakingStore
from services.records.store import RatingUpdate
from tests.records.databases import RecordsDatabase

GAME = "hibachi"


@pytest.fixture(params=["memory", "redis"])
def make_cache(request: pytest.FixtureRequest) -> Callable[[], MatchmakingStore]:
    if request.param == "memory":
        return MemoryMatchmakingStore
    url, prefix = request.getfixturevalue("redis_url"), request.getfixturevalue("redis_prefix")
    return lambda: RedisMatchmakingStore(url, prefix)


def test_a_rebuild_replaces_the_cache_with_the_records(records_db: RecordsDatabase,
                                                       make_cache: Callable[[], MatchmakingStore]) -> None:
    async def main() -> None:
        records, cache = records_db.store(), make_cache()
        try:
            for n, (player, mu) in enumerate((("p_a", 30.0), ("p_b", 20.0), ("bot-easy", 18.0))):
                assert await records.apply_ratings(GAME, f"m_{n}", [RatingUpdate(player, 0, mu, 5.0, 1, player)],
                                                   1_000) == "applied"
            await cache.put_rating(GAME, "p_stale", RatingRecord(40.0, 1.0, 9, "gone"))  # not in the records
            await cache.put_rating(GAME, "p_a", RatingRecord(10.0, 9.0, 1, "old"))  # behind them
            assert not await cache.ratings_cached()
            assert await rebuild_rating_cache(records, cache, [GAME, "grill_party"]) == 3
            assert await cache.ratings_cached()
            board = await cache.leaderboard(GAME, 0, 10)
            assert [p for p, _ in board] == ["p_a", "p_b"]  # people only, best first; the stale one gone
            assert RatingRecord.decode(board[0][1]).mu == 30.0
            assert set(await cache.get_ratings(GAME, ["p_a", "p_b", "bot-easy", "p_stale"])) == {
                "p_a", "p_b", "bot-easy"}
            assert await cache.board_size("grill_party") == 0
        finally:
            await cache.close()
            await records.close()

    asyncio.run(main())


def test_ratings_kept_before_the_records_are_imported_not_wiped(records_db: RecordsDatabase,
                                                                make_cache: Callable[[], MatchmakingStore]) -> None:
    async def main() -> None:
        records, cache = records_db.store(), make_cache()
        try:
            await cache.put_rating(GAME, "p_old", RatingRecord(31.0, 4.0, 12, "veteran"))
            await cache.put_rating(GAME, "bot-hard", RatingRecord(32.0, 4.0, 50, "hard bot"))
            assert await rebuild_rating_cache(records, cache, [GAME]) == 2
            kept = await records.get_ratings(GAME, ["p_old", "bot-hard"])
            assert (kept["p_old"].mu, kept["p_old"].matches, kept["p_old"].name) == (31.0, 12, "veteran")
            assert [p for p, _ in await cache.leaderboard(GAME, 0, 10)] == ["p_old"]
            # From now on the records are the home: a match rated there moves the rating on from it.
            update = RatingUpdate("p_old", kept["p_old"].version, 32.0, 3.9, 13, "veteran")
            assert await records.apply_ratings(GAME, "m_next", [update], 2_000) == "applied"
        finally:
            await cache.close()
            await records.close()

    asyncio.run(main())
