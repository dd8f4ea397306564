"""Locust's driver of the load tests' one scenario (apps/loadtest/scenario.py) for a deployed
Sizzle (the `load` extra); `make loadtest` drives the same scenario against a local topology.

Each locust user is one simulated player: it creates a guest and, game after game, queues through
matchmaking or creates or joins a match by hand, plays it through WatchMatch and SubmitAction with
thinking time, drops and resumes its stream now and then, and leaves when the run ends. Every call is
reported to Locust with its latency and status code (a stream: the wait for its first message).

  locust -f deploy/load/locustfile.py --headless -u 200 -r 20 -t 10m --host dns:///sizzle-match-headless:50051

The host (or $SIZZLE_MATCH_ADDR; default 127.0.0.1:50051) is the match service, which serves
AuthService too; $SIZZLE_LOAD_MATCHMAKING_ADDR is the matchmaking service (default: the same address,
as `sizzle serve` with every service). `dns:///` with round robin spreads the calls over every
replica behind a headless Service; deploy/k8s/jobs/loadtest runs this as a Job. $SIZZLE_LOAD_GAMES
(comma-separated ids; default every registered game) and $SIZZLE_LOAD_QUEUE_SHARE (the share of games
found through matchmaking) change the mix. With SIZZLE_TLS_CA (and SIZZLE_TLS_CLIENT_CERT/KEY for
mTLS) the calls go over TLS, as every client's do. The run stops by itself after --run-time; the exit
code is 1 when nothing was called or more than MOST_FAILURES of the calls failed.
"""

from __future__ import annotations

import itertools
import math
import os
import time
from typing import Any

import grpc
import grpc.experimental.gevent as grpc_gevent
from locust import User, constant, events, task
from locust.env import Environment
from locust.exception import StopUser

from apps.loadtest.scenario import Habits, SimulatedPlayer, Stats, describe_error
from services.kit.config import Config
from services.kit.tls import client_tls, open_channel
from services.rules import registry

grpc_gevent.init_gevent()

GAMES = [game_id for game_id in os.environ.get("SIZZLE_LOAD_GAMES", "").split(",") if game_id] or registry.game_ids()
HABITS = Habits(queue_share=float(os.environ.get("SIZZLE_LOAD_QUEUE_SHARE", Habits.queue_share)))
TLS = client_tls(Config.from_env())  # read once; None: plaintext
ROUND_ROBIN = [("grpc.lb_policy_name", "round_robin")]
# The scenario plays through races a busy server has (a stale version when a bot moved first, a waiting
# match another player filled first); more failures than this share of the calls fail the run.
MOST_FAILURES = 0.05
PLAYER_NUMBERS = itertools.count()
run_ends_at = math.inf  # set when the run starts and has a --run-time


class CallFailed(Exception):
    """A failed call as Locust lists it: its status code and error reason."""


class LocustStats(Stats):
    """Hands every call to Locust's statistics as it happens; keeps no log of the actions (a cluster
    run checks none after it)."""

    def __init__(self, environment: Environment) -> None:
        super().__init__()
        self.environment = environment

    def record_call(self, name: str, seconds: float, error: grpc.RpcError | None) -> None:
        self.environment.events.request.fire(
            request_type="grpc", name=name, response_time=seconds * 1000, response_length=0,
            exception=None if error is None else CallFailed(describe_error(error)), context={})

    def acknowledged(self, match_id: str, version: int, seat: int, action_id: int) -> None:
        pass


@events.test_start.add_listener
def note_when_the_run_ends(environment: Environment, **_: Any) -> None:
    global run_ends_at
    run_time = getattr(environment.parsed_options, "run_time", None)
    run_ends_at = time.monotonic() + run_time if run_time else math.inf


@events.quitting.add_listener
def judge_the_run(environment: Environment, **_: Any) -> None:
    total = environment.stats.total
    crashed = environment.runner is not None and bool(environment.runner.exceptions)
    failed = crashed or total.num_requests == 0 or total.fail_ratio > MOST_FAILURES
    environment.process_exit_code = 1 if failed else 0


class SizzlePlayer(User):
    wait_time = constant(0)  # the scenario thinks between moves itself

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        self.player: SimulatedPlayer | None = None
        self.channels: list[grpc.Channel] = []

    def on_start(self) -> None:
        match_target = os.environ.get("SIZZLE_MATCH_ADDR") or self.host or "127.0.0.1:50051"
        matchmaking_target = os.environ.get("SIZZLE_LOAD_MATCHMAKING_ADDR") or match_target
        match_channel = matchmaking_channel = open_channel(match_target, TLS, ROUND_ROBIN)
        self.channels = [match_channel]
        if matchmaking_target != match_target:
            matchmaking_channel = open_channel(matchmaking_target, TLS, ROUND_ROBIN)
            self.channels.append(matchmaking_channel)
        self.player = SimulatedPlayer(next(PLAYER_NUMBERS), match_channel, LocustStats(self.environment), GAMES,
                                      HABITS, matchmaking_channel)
        self.player.sign_in()

    @task
    def play_a_game(self) -> None:
        assert self.player is not None
        if time.monotonic() >= run_ends_at:
            raise StopUser()  # the run is over: this player leaves (the runner stops it in a moment)
        self.player.play_one_game(run_ends_at)

    def on_stop(self) -> None:
        if self.player is not None:
            self.player.leave()  # a bot finishes the game
        for channel in self.channels:
            channel.close()
