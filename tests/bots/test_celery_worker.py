"""Bot turns through real Celery workers on Redis: a match of bots plays to the end; a worker killed
with SIGKILL mid-turn loses no turn and plays none twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator

import grpc
import pytest
import redis

from apps.platform import Deps, create_server
from services.kit.config import Config
from services.match.redis_store import RedisStore
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc
from tests.match.players import Player
from tests.servers import ServerThread

KEY = "sizzle-celery-test-key-0123456789"
BROKER_DB = 12


class Worker:
    def __init__(self, env: dict[str, str], concurrency: int = 1) -> None:
        self.log = open(f"/tmp/sizzle-worker-{uuid.uuid4().hex[:6]}.log", "w")  # noqa: SIM115
        self.proc = subprocess.Popen([sys.executable, "-m", "apps.cli", "worker", "--concurrency",
                                      str(concurrency)], env={**os.environ, **env}, stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)

    def kill(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)


@pytest.fixture()
def stack(redis_url: str) -> Iterator[tuple[ServerThread, dict[str, str]]]:
    run = uuid.uuid4().hex[:10]
    broker = redis_url.rsplit("/", 1)[0] + f"/{BROKER_DB}"
    prefix, queue = f"sizzle-test-{run}", f"bots-test-{run}"
    config = Config(addr="127.0.0.1:0", token_key=KEY, redis_url=redis_url, redis_prefix=prefix, broker_url=broker,
                    bot_queue=queue, bot_turn_timeout_seconds=3.0)
    server = ServerThread(lambda: create_server(config, Deps(store=RedisStore(redis_url, prefix, 3600))))
    env = {"SIZZLE_BROKER_URL": broker, "SIZZLE_BOT_QUEUE": queue, "SIZZLE_MATCH_ADDR": server.target,
           "SIZZLE_TOKEN_KEY": KEY}
    yield server, env
    server.stop()
    for url, pattern in ((redis_url, f"{prefix}:*"), (broker, f"*{queue}*")):
        client = redis.Redis.from_url(url)
        keys = list(client.scan_iter(match=pattern, count=1000))
        if keys:
            client.delete(*keys)


def all_bot_match(target: str, game: str, seats: int) -> tuple[grpc.Channel, mpb.Match]:
    channel = grpc.insecure_channel(target)
    host = Player.guest(channel, "host")
    bots = [mpb.SeatSpec(kind=mpb.SEAT_KIND_BOT, difficulty=mpb.DIFFICULTY_HARD)] * seats
    return channel, host.create(game, bots)


def wait_finished(channel: grpc.Channel, match_id: str, timeout: float) -> mpb.Match:
    stub = match_service_pb2_grpc.MatchServiceStub(channel)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match = stub.GetMatch(mpb.GetMatchRequest(match_id=match_id), timeout=5).match
        if match.status == mpb.MATCH_STATUS_FINISHED:
            return match
        time.sleep(0.2)
    raise AssertionError(f"match {match_id} did not finish; at version {match.version}")


def assert_each_turn_once(channel: grpc.Channel, match: mpb.Match) -> None:
    replay = match_service_pb2_grpc.MatchServiceStub(channel).GetReplay(
        mpb.GetReplayRequest(match_id=match.match_id), timeout=5)
    assert [s.version for s in replay.steps] == list(range(match.version + 1))
    from services.rules import registry

    engine = registry.get_engine(match.game_id)
    state = engine.new_game(replay.num_players, dict(match.options), replay.seed, keyed=replay.keyed_draws)
    for step in replay.steps[1:]:
        action = engine.Action()
        step.action.Unpack(action)
        engine.apply(state, step.seat, action)  # every logged turn was legal when played, once
    assert engine.outcome(state) == match.outcome


def test_bot_match_plays_to_the_end_through_celery(stack: tuple[ServerThread, dict[str, str]]) -> None:
    server, env = stack
    worker = Worker(env, concurrency=2)
    try:
        channel, match = all_bot_match(server.target, "grill_party", 3)
        finished = wait_finished(channel, match.match_id, timeout=240)
        assert_each_turn_once(channel, finished)
    finally:
        worker.stop()


def test_worker_killed_mid_turn_loses_no_turn(stack: tuple[ServerThread, dict[str, str]]) -> None:
    server, env = stack
    slow = Worker({**env, "SIZZLE_BOT_THINK_SECONDS": "1.5"})
    channel, match = all_bot_match(server.target, "a_la_carte_cards", 2)
    stub = match_service_pb2_grpc.MatchServiceStub(channel)
    deadline = time.monotonic() + 60
    while stub.GetMatch(mpb.GetMatchRequest(match_id=match.match_id), timeout=5).match.version < 2:
        assert time.monotonic() < deadline, "the slow worker never played"
        time.sleep(0.1)
    time.sleep(0.5)  # it is thinking about its next turn now
    slow.kill()
    fast = Worker(env, concurrency=2)
    try:
        finished = wait_finished(channel, match.match_id, timeout=240)
        assert_each_turn_once(channel, finished)
    finally:
        fast.stop()
