"""Every finished match is recorded exactly once: the commit that finishes it queues it in the live
store, a records writer claims it with a lease and writes it. A replica killed (SIGKILL) between the
end of a match and its write leaves it to another replica; two writers racing on one match write one
record."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time

import grpc
from prometheus_client import REGISTRY

from services.kit.config import Config
from services.match.redis_store import RedisStore
from services.records.writer import RecordWriter
from services.rules import registry
from tests.kit.test_graceful_shutdown import free_port
from tests.match.players import BOT, HUMAN, Player, play_out
from tests.records.databases import RecordsDatabase
from tests.records.platforms import KEY, history
from tests.waiting import eventually

GAME = "a_la_carte_cards"


class Replica:
    """`sizzle serve --services match` on Redis and the test's records database, in its own process."""

    def __init__(self, redis_url: str, prefix: str, database: RecordsDatabase, **settings: str) -> None:
        self.port = free_port()
        self.log = open(f"/tmp/sizzle-records-replica-{self.port}.log", "w")  # noqa: SIM115
        env = {**os.environ, **database.env(), "SIZZLE_ADDR": f"127.0.0.1:{self.port}", "SIZZLE_REDIS_URL": redis_url,
               "SIZZLE_REDIS_PREFIX": prefix, "SIZZLE_TOKEN_KEY": KEY, "SIZZLE_GRACE_SECONDS": "0.5",
               "SIZZLE_RECORDS_INTERVAL_MS": "50", "SIZZLE_RECORDS_LEASE_MS": "1500", **settings}
        self.proc = subprocess.Popen([sys.executable, "-m", "apps.cli", "serve", "--services", "match"], env=env,
                                     stdout=self.log, stderr=subprocess.STDOUT)
        self.channel = grpc.insecure_channel(f"127.0.0.1:{self.port}")
        grpc.channel_ready_future(self.channel).result(timeout=30)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.channel.close()

    def stop(self) -> None:
        self.channel.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


async def _recorded(database: RecordsDatabase, match_id: str) -> bool:
    store = database.store()
    try:
        return await store.get_match(match_id) is not None
    finally:
        await store.close()


def _pending(redis_url: str, prefix: str) -> dict[str, float]:
    import redis

    return {m.decode(): s for m, s in redis.Redis.from_url(redis_url).zrange(f"{prefix}:records:pending", 0, -1,
                                                                              withscores=True)}


def test_a_replica_killed_before_the_write_leaves_it_to_another(postgres_db: RecordsDatabase, redis_url: str,
                                                                redis_prefix: str) -> None:
    postgres_db.migrate()
    # The first replica claims finished matches, then pauses a minute before writing them.
    first = Replica(redis_url, redis_prefix, postgres_db, SIZZLE_RECORDS_PAUSE_BEFORE_WRITE_MS="60000")
    second = None
    try:
        player = Player.guest(first.channel, "gina", seed=3)
        match = player.create(GAME, [HUMAN, BOT], seed=21)
        player.join(match.match_id)
        finished = play_out([player])
        assert finished.status == 3
        # Queued by the commit that finished it, then claimed by the first replica's writer (a lease).
        eventually(lambda: _pending(redis_url, redis_prefix).get(match.match_id, 0) > 0, timeout=10)
        first.kill()  # between the end of the match and its write
        assert not asyncio.run(_recorded(postgres_db, match.match_id))
        second = Replica(redis_url, redis_prefix, postgres_db)  # claims it once the dead one's lease lapses
        entries = eventually(lambda: history(second.channel, player.token).entries, timeout=20)
        assert [e.match.match_id for e in entries] == [match.match_id]
        assert entries[0].match.outcome == finished.outcome
        eventually(lambda: match.match_id not in _pending(redis_url, redis_prefix), timeout=10)
    finally:
        first.stop()
        if second is not None:
            second.stop()


def test_two_writers_racing_on_a_match_write_one_record(postgres_db: RecordsDatabase, redis_url: str,
                                                        redis_prefix: str) -> None:
    postgres_db.migrate()

    async def main() -> None:
        from tests.match.store_suite import entry, record

        live = RedisStore(redis_url, redis_prefix, 3600)
        records = postgres_db.store()
        clock = [1_000_000]
        # Both writers pause after claiming, with a lease shorter than the pause: the second claims what
        # the first still holds, and both write it.
        config = Config(records_lease_ms=100, records_pause_before_write_ms=300)
        writers = [RecordWriter(config, live, records, registry.get_engine, lambda: clock[0]) for _ in range(2)]
        try:
            running = record("m_race", game=GAME)
            running.match.seats.add(seat=0, kind=1, player_id="p_hal", display_name="hal")
            running.match.seats.add(seat=1, kind=2)
            await live.create(running, entry(0))
            done = record("m_race", 1, game=GAME, status=3)
            done.match.CopyFrom(running.match)
            done.match.version, done.match.status = 1, 3
            assert (await live.commit(done, 0, entry(1), previous_status=2)).committed
            assert await live.finished_pending() == 1

            first = asyncio.create_task(writers[0].tick())
            await asyncio.sleep(0.1)  # the first has claimed it and pauses
            clock[0] += 200  # its lease lapses
            claimed = await asyncio.gather(first, writers[1].tick())
            assert claimed == [1, 1]  # both claimed the one match ...
            assert writers[0].written + writers[1].written == 1  # ... and one record was written
            page = await records.history("p_hal", "", "", 10)
            assert [e.match.match_id for e in page.entries] == ["m_race"]
            assert await live.finished_pending() == 0
            assert REGISTRY.get_sample_value("sizzle_records_pending_matches") == 0  # the backlog, as last read
        finally:
            await live.close()
            await records.close()

    asyncio.run(main())


def test_a_match_finished_while_no_writer_runs_is_recorded_later(postgres_db: RecordsDatabase, redis_url: str,
                                                                 redis_prefix: str) -> None:
    """The queue is in the live store: nothing is lost while every replica is down."""
    postgres_db.migrate()
    first = Replica(redis_url, redis_prefix, postgres_db, SIZZLE_RECORDS_INTERVAL_MS="3600000")
    try:
        time.sleep(0.2)  # its writer's first (immediate) round has passed; the next is an hour away
        player = Player.guest(first.channel, "ivy", seed=5)
        match = player.create(GAME, [HUMAN, BOT], seed=8)
        player.join(match.match_id)
        play_out([player])
        assert match.match_id in _pending(redis_url, redis_prefix)
    finally:
        first.kill()
    second = Replica(redis_url, redis_prefix, postgres_db)
    try:
        entries = eventually(lambda: history(second.channel, player.token).entries, timeout=20)
        assert [e.match.match_id for e in entries] == [match.match_id]
    finally:
        second.stop()
