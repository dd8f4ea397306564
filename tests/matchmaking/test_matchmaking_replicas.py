"""Matchmaker replicas as real processes (`sizzle serve --services matchmaking`) over one Redis, seating
people at matches of one match server: two replicas never place a ticket twice, and one killed with
SIGKILL in the middle of a cycle loses no ticket (the survivor takes its pools over)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator

import grpc
import pytest
import redis

from apps.bench.harness import free_port
from apps.platform import Deps, create_server
from services.kit.config import Config
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc
from tests.conftest import random_bot_factory
from tests.matchmaking.clients import ASSIGNED, Client
from tests.servers import ServerThread
from tests.waiting import eventually

KEY = "sizzle-matchmaking-replica-test-key"


class Replica:
    """A matchmaking-only server process."""

    def __init__(self, redis_url: str, prefix: str, match_target: str, **env: str) -> None:
        self.port = free_port()
        self.log_path = f"/tmp/sizzle-mm-replica-{self.port}.log"
        self.log = open(self.log_path, "w")  # noqa: SIM115
        full_env = {**os.environ, "SIZZLE_ADDR": f"127.0.0.1:{self.port}", "SIZZLE_REDIS_URL": redis_url,
                    "SIZZLE_REDIS_PREFIX": prefix, "SIZZLE_TOKEN_KEY": KEY, "SIZZLE_MATCH_ADDR": match_target,
                    "SIZZLE_GRACE_SECONDS": "0.3", "SIZZLE_MATCHMAKING_INTERVAL_MS": "30",
                    "SIZZLE_MATCHMAKING_LEASE_MS": "1000", **env}
        self.proc = subprocess.Popen([sys.executable, "-m", "apps.cli", "serve", "--services", "matchmaking"],
                                     env=full_env, stdout=self.log, stderr=subprocess.STDOUT)
        self.channel = grpc.insecure_channel(f"127.0.0.1:{self.port}")

    def ready(self) -> Replica:
        grpc.channel_ready_future(self.channel).result(timeout=30)
        return self

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.channel.close()
        self.log.close()


@pytest.fixture()
def match_server() -> Iterator[ServerThread]:
    config = Config(addr="127.0.0.1:0", token_key=KEY)
    server = ServerThread(lambda: create_server(config, Deps(services=("rules", "match"),
                                                             bot_factory=random_bot_factory)))
    yield server
    server.stop()


def players(channel: grpc.Channel, count: int, prefix: str = "p") -> list[Client]:
    return [Client.guest(channel, f"{prefix}{i}") for i in range(count)]


def matches_of(channel: grpc.Channel, game_id: str) -> list[mpb.Match]:
    stub = match_service_pb2_grpc.MatchServiceStub(channel)
    return list(stub.ListMatches(mpb.ListMatchesRequest(game_id=game_id, page_size=100), timeout=5).matches)


def test_two_replicas_never_place_a_ticket_twice(match_server: ServerThread, redis_url: str,
                                                 redis_prefix: str) -> None:
    replicas = [Replica(redis_url, redis_prefix, match_server.target) for _ in range(2)]  # started together
    try:
        for replica in replicas:
            replica.ready()
        with grpc.insecure_channel(match_server.target) as match_channel:
            people = players(match_channel, 36)
            games = ["hibachi", "grill_party", "a_la_carte"]
            tickets = []
            for i, person in enumerate(people):
                person.channel = replicas[i % 2].channel  # each person talks to one replica
                tickets.append((person, person.ticket(games[i % 3], counts=(2,))))
            seated: dict[str, list[tuple[str, int]]] = {}
            for person, ticket in tickets:
                final = person.final(ticket.ticket_id)
                assert final.status == ASSIGNED
                seated.setdefault(final.assignment.match_id, []).append((person.player_id, final.assignment.seat))
            assert len(seated) == 18 and all(len(s) == 2 for s in seated.values())
            for game in games:  # every match created was handed to the people it was created for
                for match in matches_of(match_channel, game):
                    holders = sorted((s.player_id, s.seat) for s in match.seats)
                    assert holders == sorted(seated.pop(match.match_id))
            assert seated == {}
    finally:
        for replica in replicas:
            replica.stop()


def test_a_replica_killed_mid_cycle_loses_no_ticket(match_server: ServerThread, redis_url: str,
                                                     redis_prefix: str) -> None:
    client = redis.Redis.from_url(redis_url)
    lease = f"{redis_prefix}:mm:{{mm:hibachi}}:lease"
    forming = f"{redis_prefix}:mm:{{mm:hibachi}}:forming"
    # The first replica pauses between claiming a group and creating its match: it dies right there.
    doomed = Replica(redis_url, redis_prefix, match_server.target, SIZZLE_MATCHMAKING_PAUSE_AFTER_CLAIM_MS="5000")
    survivor = None
    try:
        doomed.ready()
        holder = eventually(lambda: client.get(lease), timeout=10)
        survivor = Replica(redis_url, redis_prefix, match_server.target).ready()
        with grpc.insecure_channel(match_server.target) as match_channel:
            alice, bob, carol, dave = players(match_channel, 4)
            for person in (alice, bob, carol, dave):
                person.channel = survivor.channel
            ta, tb = alice.ticket("hibachi"), bob.ticket("hibachi")
            eventually(lambda: client.hlen(forming), timeout=10, every=0.01)  # claimed, match not yet made
            assert client.get(lease) == holder
            doomed.kill()
            a, b = alice.final(ta.ticket_id), bob.final(tb.ticket_id)
            assert a.status == b.status == ASSIGNED and a.assignment.match_id == b.assignment.match_id
            assert {a.assignment.seat, b.assignment.seat} == {0, 1}
            assert client.get(lease) != holder and client.hlen(forming) == 0
            tc, td = carol.ticket("hibachi"), dave.ticket("hibachi")  # the survivor goes on seating
            c, d = carol.final(tc.ticket_id), dave.final(td.ticket_id)
            assert c.assignment.match_id == d.assignment.match_id != a.assignment.match_id
            assert len(matches_of(match_channel, "hibachi")) == 2  # nothing made twice, nothing orphaned
    finally:
        doomed.stop()
        if survivor is not None:
            survivor.stop()
