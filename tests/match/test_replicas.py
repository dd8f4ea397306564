"""Several match-service replicas over one Redis, as real processes: a watcher on one replica sees
actions submitted through another; a replica killed with SIGKILL mid-game loses nothing; turn
deadlines survive a restart."""

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

from services.rules import registry
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc
from tests.kit.test_graceful_shutdown import free_port
from tests.match.players import HUMAN, Player, play_out

KEY = "sizzle-replica-test-key-0123456789"


class Replica:
    def __init__(self, redis_url: str, prefix: str) -> None:
        self.port = free_port()
        self.log = open(f"/tmp/sizzle-replica-{self.port}.log", "w")  # noqa: SIM115
        env = {**os.environ, "SIZZLE_ADDR": f"127.0.0.1:{self.port}", "SIZZLE_REDIS_URL": redis_url,
               "SIZZLE_REDIS_PREFIX": prefix, "SIZZLE_TOKEN_KEY": KEY, "SIZZLE_GRACE_SECONDS": "0.5"}
        self.proc = subprocess.Popen([sys.executable, "-m", "apps.cli", "serve", "--services", "match"],
                                     env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self.channel = grpc.insecure_channel(f"127.0.0.1:{self.port}")
        grpc.channel_ready_future(self.channel).result(timeout=30)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.channel.close()

    def stop(self) -> None:
        """SIGTERM, and the replica exits cleanly; if it does not, its log is the failure message."""
        self.channel.close()
        if self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            code = self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
            code = None
        self.log.flush()
        with open(self.log.name) as log:
            assert code == 0, f"the replica did not stop cleanly on SIGTERM (exit {code}); its log:\n{log.read()}"


@pytest.fixture()
def prefix(redis_url: str) -> Iterator[str]:
    name = f"sizzle-test-{uuid.uuid4().hex[:12]}"
    yield name
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{name}:*", count=1000))
    if keys:
        client.delete(*keys)


def test_replica_killed_mid_game_loses_nothing(redis_url: str, prefix: str) -> None:
    first, second = Replica(redis_url, prefix), Replica(redis_url, prefix)
    try:
        alice = Player.guest(first.channel, "alice", seed=1)
        bob = Player.guest(second.channel, "bob", seed=2)
        match = alice.create("grill_party", [HUMAN, HUMAN], seed=5)
        alice.join(match.match_id)
        bob.join(match.match_id)
        watcher = match_service_pb2_grpc.MatchServiceStub(second.channel).WatchMatch(
            mpb.WatchMatchRequest(match_id=match.match_id, from_version=-1), timeout=60)
        watched = next(watcher).match.version
        for _ in range(40):  # alice plays through the first replica, bob through the second
            alice.play_if_my_turn() or bob.play_if_my_turn()
        version = alice.get().match.version
        while watched < version:  # the watcher on the second replica sees the first one's actions
            watched = next(watcher).match.version
        watcher.cancel()
        first.kill()
        alice.channel = second.channel  # alice reconnects to the surviving replica with her tokens
        finished = play_out([alice, bob])
        assert finished.status == mpb.MATCH_STATUS_FINISHED and finished.version > version
        replay = bob.stub.GetReplay(mpb.GetReplayRequest(match_id=match.match_id), timeout=5)
        assert [s.version for s in replay.steps] == list(range(finished.version + 1))
        engine = registry.get_engine("grill_party")
        state = engine.new_game(2, dict(finished.options), replay.seed)
        for step in replay.steps:
            if step.action.type_url:
                action = engine.Action()
                step.action.Unpack(action)
                engine.apply(state, step.seat, action)
        assert engine.outcome(state) == finished.outcome
    finally:
        first.stop()
        second.stop()


def test_turn_deadline_survives_a_restart(redis_url: str, prefix: str) -> None:
    replica = Replica(redis_url, prefix)
    alice = Player.guest(replica.channel, "alice")
    bob = Player.guest(replica.channel, "bob")
    match = alice.create("grill_party", [HUMAN, HUMAN], turn_seconds=2)
    alice.join(match.match_id)
    bob.join(match.match_id)
    replica.kill()  # the deadline is due while no replica runs
    time.sleep(2.5)
    restarted = Replica(redis_url, prefix)
    try:
        stub = match_service_pb2_grpc.MatchServiceStub(restarted.channel)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            current = stub.GetMatch(mpb.GetMatchRequest(match_id=match.match_id), timeout=5).match
            if current.seats[0].taken_over:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the deadline did not fire after the restart")
    finally:
        restarted.stop()
