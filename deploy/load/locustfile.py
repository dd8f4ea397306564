"""Locust load test for a deployed Sizzle (the `load` extra): the same scenario as `make loadtest`.

Simulated players create a guest, create or join a match with bots in some seats, and play it turn
by turn with thinking time. Every gRPC call is reported to Locust with its latency and status code.

  locust -f deploy/load/locustfile.py --headless -u 200 -r 20 -t 10m --host dns:///sizzle-match-headless:50051

The host (or $SIZZLE_MATCH_ADDR) is the match service; `dns:///` with round robin spreads the calls
over every replica behind a headless Service. deploy/k8s/jobs/loadtest runs this as a Job. With
SIZZLE_TLS_CA (and SIZZLE_TLS_CLIENT_CERT/KEY for mTLS) the calls go over TLS, as every client's do.
"""

from __future__ import annotations

import os
import random
import time
import uuid
from typing import Any

import grpc
import grpc.experimental.gevent as grpc_gevent
from locust import User, between, events, task

from services.kit.config import Config
from services.kit.tls import client_tls, open_channel
from sizzle.auth.v1 import auth_service_pb2 as apb
from sizzle.auth.v1 import auth_service_pb2_grpc
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc

grpc_gevent.init_gevent()

GAMES = os.environ.get("SIZZLE_LOAD_GAMES", "grill_party,a_la_carte_cards,hibachi,a_la_carte").split(",")
TLS = client_tls(Config.from_env())  # read once; None: plaintext
PLAYERS = {"grill_party": (2, 5), "a_la_carte_cards": (2, 6), "hibachi": (2, 4), "a_la_carte": (2, 4),
           "license_to_grill": (3, 5)}


class ReportingInterceptor(grpc.UnaryUnaryClientInterceptor):
    """Reports every unary call to Locust: name, latency, failure with its status code."""

    def intercept_unary_unary(self, continuation: Any, client_call_details: Any, request: Any) -> Any:
        start = time.perf_counter()
        response = continuation(client_call_details, request)
        exception = response.exception()
        name = client_call_details.method.rsplit("/", 1)[-1]
        events.request.fire(request_type="grpc", name=name, response_time=(time.perf_counter() - start) * 1000,
                            response_length=0, exception=exception, context={})
        return response


class SizzlePlayer(User):
    wait_time = between(0.2, 1.0)  # thinking time between turns

    def on_start(self) -> None:
        target = os.environ.get("SIZZLE_MATCH_ADDR") or self.host or "127.0.0.1:50051"
        channel = open_channel(target, TLS, [("grpc.lb_policy_name", "round_robin")])
        channel = grpc.intercept_channel(channel, ReportingInterceptor())
        self.match = match_service_pb2_grpc.MatchServiceStub(channel)
        guest = auth_service_pb2_grpc.AuthServiceStub(channel).CreateGuest(
            apb.CreateGuestRequest(display_name=f"locust-{uuid.uuid4().hex[:6]}"), timeout=10)
        self.token = guest.token
        self.match_id = ""
        self.seat_token = ""

    def auth(self, token: str) -> list[tuple[str, str]]:
        return [("authorization", f"Bearer {token}")]

    def new_match(self) -> None:
        game = random.choice(GAMES)
        low, high = PLAYERS.get(game, (2, 4))
        seats = [mpb.SeatSpec(kind=mpb.SEAT_KIND_HUMAN)] + [
            mpb.SeatSpec(kind=mpb.SEAT_KIND_BOT, difficulty=mpb.DIFFICULTY_EASY)] * (random.randint(low, high) - 1)
        created = self.match.CreateMatch(mpb.CreateMatchRequest(game_id=game, seats=seats, turn_seconds=30),
                                         metadata=self.auth(self.token), timeout=10)
        joined = self.match.JoinMatch(mpb.JoinMatchRequest(match_id=created.match.match_id),
                                      metadata=self.auth(self.token), timeout=10)
        self.match_id, self.seat_token = created.match.match_id, joined.seat_token

    @task
    def take_a_turn(self) -> None:
        try:
            if not self.match_id:
                self.new_match()
            current = self.match.GetMatch(mpb.GetMatchRequest(match_id=self.match_id),
                                          metadata=self.auth(self.seat_token), timeout=10)
            if current.match.status == mpb.MATCH_STATUS_FINISHED:
                self.match_id = ""
                return
            if current.legal_actions:
                choice = random.choice(current.legal_actions)
                self.match.SubmitAction(mpb.SubmitActionRequest(
                    match_id=self.match_id, action_id=choice.action_id, expected_version=current.match.version,
                    request_id=uuid.uuid4().hex), metadata=self.auth(self.seat_token), timeout=10)
        except grpc.RpcError:
            pass  # reported by the interceptor; a stale version just means the bots moved first
