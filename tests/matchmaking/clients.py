"""Test clients of the matchmaking service (real gRPC, blocking) and the platform they talk to."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import grpc

from apps.platform import Deps, create_server
from services.kit.config import Config
from services.matchmaking.model import RatingRecord
from sizzle.auth.v1 import auth_service_pb2 as apb
from sizzle.auth.v1 import auth_service_pb2_grpc
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb
from sizzle.matchmaking.v1 import matchmaking_service_pb2_grpc
from tests.conftest import random_bot_factory
from tests.servers import ServerThread

SERVICES = ("rules", "match", "matchmaking")
WAITING, ASSIGNED = mmpb.TICKET_STATUS_WAITING, mmpb.TICKET_STATUS_ASSIGNED
CANCELLED, EXPIRED = mmpb.TICKET_STATUS_CANCELLED, mmpb.TICKET_STATUS_EXPIRED
# Fast loops for tests: a cycle every 30 ms, windows that do not grow unless a test says so.
FAST = {"matchmaking_interval_ms": 30, "matchmaking_window_base": 2.0, "matchmaking_window_growth": 0.0,
        "matchmaking_lease_ms": 1000}


def auth(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


def start_platform(backend: str, redis_url: str, prefix: str, **overrides: Any) -> ServerThread:
    """The whole platform (rules, match, matchmaking) in one server, on the given matchmaking backend."""
    config = Config(addr="127.0.0.1:0", redis_prefix=prefix, **{**FAST, **overrides})  # type: ignore[arg-type]
    if backend == "redis":
        config = config.with_overrides(redis_url=redis_url)
    # The match store stays in-process either way (the match service's own suite covers Redis).
    deps = Deps(services=SERVICES, bot_factory=random_bot_factory)
    return ServerThread(lambda: create_server(config, deps))


def mm_store(server: ServerThread) -> Any:
    return server.running.matchmaking.store


def seed_rating(server: ServerThread, game_id: str, player: Client, mu: float, sigma: float = 2.0) -> None:
    server.call(mm_store(server).put_rating(game_id, player.player_id, RatingRecord(mu, sigma, 1, player.name)))


@dataclass
class Client:
    channel: grpc.Channel
    name: str
    player_id: str
    token: str

    @staticmethod
    def guest(channel: grpc.Channel, name: str) -> Client:
        made = auth_service_pb2_grpc.AuthServiceStub(channel).CreateGuest(apb.CreateGuestRequest(display_name=name),
                                                                           timeout=5)
        return Client(channel, name, made.player_id, made.token)

    @property
    def mm(self) -> matchmaking_service_pb2_grpc.MatchmakingServiceStub:
        return matchmaking_service_pb2_grpc.MatchmakingServiceStub(self.channel)

    @property
    def matches(self) -> match_service_pb2_grpc.MatchServiceStub:
        return match_service_pb2_grpc.MatchServiceStub(self.channel)

    def ticket(self, game_id: str, counts: tuple[int, ...] = (2,), bots: bool = False, wait: int = 30) -> mmpb.Ticket:
        request = mmpb.CreateTicketRequest(game_id=game_id, player_counts=counts, allow_bots=bots,
                                           max_wait_seconds=wait)
        return self.mm.CreateTicket(request, metadata=auth(self.token), timeout=5).ticket

    def get(self, ticket_id: str) -> mmpb.Ticket:
        return self.mm.GetTicket(mmpb.GetTicketRequest(ticket_id=ticket_id), metadata=auth(self.token),
                                 timeout=5).ticket

    def cancel(self, ticket_id: str) -> mmpb.Ticket:
        return self.mm.CancelTicket(mmpb.CancelTicketRequest(ticket_id=ticket_id), metadata=auth(self.token),
                                    timeout=5).ticket

    def watch(self, ticket_id: str, timeout: float = 20) -> Iterator[mmpb.Ticket]:
        for update in self.mm.WatchTicket(mmpb.WatchTicketRequest(ticket_id=ticket_id), metadata=auth(self.token),
                                          timeout=timeout):
            yield update.ticket

    def final(self, ticket_id: str, timeout: float = 20) -> mmpb.Ticket:
        """The last update of WatchTicket (the stream ends with it)."""
        return list(self.watch(ticket_id, timeout))[-1]

    def rating(self, game_id: str, player_id: str = "") -> mmpb.Rating:
        return self.mm.GetRating(mmpb.GetRatingRequest(game_id=game_id, player_id=player_id),
                                 metadata=auth(self.token), timeout=5).rating

    def seated(self, ticket: mmpb.Ticket) -> mpb.GetMatchResponse:
        """The match of an assigned ticket, as its seat token sees it."""
        a = ticket.assignment
        return self.matches.GetMatch(mpb.GetMatchRequest(match_id=a.match_id), metadata=auth(a.seat_token), timeout=5)
