"""How Sizzle's terminal client talks to the platform: taking a seat (a guest token, then a new match
or a joined one), following a match with WatchMatch that resumes by itself from the last version it
saw after a dropped connection, and submits retried with the same request id so that a retry never
plays twice. Every channel is opened by services.kit.tls: over TLS when given a ClientTLS (the CA
that signs the server), plaintext otherwise.

Seating is blocking (it runs before the screen opens); following and submitting are asyncio (they
run on the screen's event loop).
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc

from services.kit.errors import error_info
from services.kit.tls import ClientTLS, open_aio_channel, open_channel
from sizzle.auth.v1 import auth_service_pb2 as apb
from sizzle.auth.v1 import auth_service_pb2_grpc
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc

T = TypeVar("T")
DEFAULT_ADDR = "127.0.0.1:50051"
CALL_TIMEOUT = 5.0
DIFFICULTIES = {"easy": mpb.DIFFICULTY_EASY, "medium": mpb.DIFFICULTY_MEDIUM, "hard": mpb.DIFFICULTY_HARD}
# Reconnect quickly: the default channel backoff grows to two minutes.
CHANNEL_OPTIONS: list[tuple[str, Any]] = [
    ("grpc.initial_reconnect_backoff_ms", 300),
    ("grpc.min_reconnect_backoff_ms", 300),
    ("grpc.max_reconnect_backoff_ms", 3000),
]
# Codes of calls that never reached a decision of the server: the connection dropped, the server
# restarted or was draining. Refusals carry an ErrorInfo reason instead and are not retried (but for
# STORE_UNAVAILABLE, which asks for a retry).
TRANSIENT_CODES = frozenset({
    grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.INTERNAL,
    grpc.StatusCode.UNKNOWN, grpc.StatusCode.CANCELLED, grpc.StatusCode.RESOURCE_EXHAUSTED,
})


def default_server() -> str:
    return os.environ.get("SIZZLE_ADDR") or DEFAULT_ADDR


def auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),) if token else ()


def reason(error: grpc.RpcError) -> str:
    """The ErrorInfo reason of a refusal ("ILLEGAL_ACTION"), or "" when the call carried none."""
    info = error_info(error)
    return info.reason if info is not None else ""


def is_transient(error: grpc.RpcError) -> bool:
    """Whether a failed call may simply be made again."""
    why = reason(error)
    if why:
        return why == "STORE_UNAVAILABLE"
    return error.code() in TRANSIENT_CODES


def explain(error: grpc.RpcError) -> str:
    """A refusal in words for people: the server's message and its reason."""
    why = reason(error)
    details = error.details() or error.code().name  # type: ignore[attr-defined]
    return f"{details} ({why})" if why else f"{details} ({error.code().name})"


class ClientError(Exception):
    """A failure to show a person (no traceback): the message says what went wrong."""


@dataclass(frozen=True)
class Seating:
    """A seat taken in a match, and what acts for it."""

    target: str
    match_id: str
    game_id: str
    seat: int
    seat_token: str
    player_token: str
    display_name: str
    match: mpb.Match

    @property
    def open_seats(self) -> int:
        return sum(1 for s in self.match.seats if s.kind == mpb.SEAT_KIND_HUMAN and not s.player_id)


def create_guest(channel: grpc.Channel, name: str) -> apb.CreateGuestResponse:
    stub = auth_service_pb2_grpc.AuthServiceStub(channel)
    response: apb.CreateGuestResponse = stub.CreateGuest(apb.CreateGuestRequest(display_name=name),
                                                         timeout=CALL_TIMEOUT)
    return response


def blocking_call(call: Callable[[], T], what: str) -> T:
    try:
        return call()
    except grpc.RpcError as error:
        if error.code() == grpc.StatusCode.UNAVAILABLE and not reason(error):
            raise ClientError(f"cannot reach the server while trying to {what}: {error.details()}") from error
        raise ClientError(f"could not {what}: {explain(error)}") from error


def _seat(target: str, guest: apb.CreateGuestResponse, name: str, match_id: str,
          channel: grpc.Channel, accept_fixed_seed: bool = False) -> Seating:
    stub = match_service_pb2_grpc.MatchServiceStub(channel)
    request = mpb.JoinMatchRequest(match_id=match_id, accept_fixed_seed=accept_fixed_seed)
    joined = blocking_call(lambda: stub.JoinMatch(request, metadata=auth(guest.token), timeout=CALL_TIMEOUT),
                           f"join match {match_id}")
    return Seating(target, match_id, joined.match.game_id, joined.seat, joined.seat_token, guest.token, name,
                   joined.match)


def new_match(target: str, game_id: str, *, name: str, bots: int, humans: int = 1, difficulty: str = "medium",
              turn_seconds: int = 0, options: Mapping[str, str] | None = None, seed: int = 0,
              tls: ClientTLS | None = None) -> Seating:
    """A guest creates a match of `humans` human seats (its own is the first) and `bots` bot seats and
    takes its seat. With more than one human seat the match waits for the others to join."""
    if humans < 1 or bots < 0:
        raise ClientError("a match needs at least your own seat, and no negative number of bots")
    seats = [mpb.SeatSpec(kind=mpb.SEAT_KIND_HUMAN)] * humans + [
        mpb.SeatSpec(kind=mpb.SEAT_KIND_BOT, difficulty=DIFFICULTIES[difficulty])] * bots
    request = mpb.CreateMatchRequest(game_id=game_id, seats=seats, turn_seconds=turn_seconds,
                                     options=dict(options or {}), seed=seed)
    with open_channel(target, tls) as channel:
        guest = blocking_call(lambda: create_guest(channel, name), "create a guest player")
        stub = match_service_pb2_grpc.MatchServiceStub(channel)
        created = blocking_call(lambda: stub.CreateMatch(request, metadata=auth(guest.token), timeout=CALL_TIMEOUT),
                            f"create a {game_id} match")
        return _seat(target, guest, name, created.match.match_id, channel)


def join_match(target: str, match_id: str, *, name: str, tls: ClientTLS | None = None,
               accept_fixed_seed: bool = False) -> Seating:
    """A guest takes an open seat of a waiting match (one whose creator chose the seed only with
    `accept_fixed_seed`: the creator can compute every hidden card)."""
    with open_channel(target, tls) as channel:
        guest = blocking_call(lambda: create_guest(channel, name), "create a guest player")
        return _seat(target, guest, name, match_id, channel, accept_fixed_seed)


class MatchLink:
    """An asyncio connection to one match, for a seat (with its seat token) or a spectator (no token).

    `updates()` follows the match to its end: when the stream breaks it waits a little and watches
    again from the last version it saw, so nothing is missed or shown twice. `submit()` retries a
    transient failure with the same request id: the server answers a repeated id with its first answer.
    """

    def __init__(self, target: str, match_id: str, token: str = "", *, tls: ClientTLS | None = None,
                 on_connection: Callable[[str], None] | None = None,
                 first_delay: float = 0.2, max_delay: float = 3.0, patience: float = 600.0) -> None:
        self.target = target
        self.match_id = match_id
        self.token = token
        self.tls = tls
        self.on_connection = on_connection or (lambda text: None)
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.patience = patience  # seconds a submit keeps retrying through an outage
        self.last_version = -1
        self.reconnects = 0
        self._channel: grpc.aio.Channel | None = None

    @property
    def stub(self) -> match_service_pb2_grpc.MatchServiceStub:
        if self._channel is None:
            self._channel = open_aio_channel(self.target, self.tls, CHANNEL_OPTIONS)
        return match_service_pb2_grpc.MatchServiceStub(self._channel)

    async def close(self) -> None:
        if self._channel is not None:
            await self._channel.close()
            self._channel = None

    async def updates(self, from_version: int = -1) -> AsyncIterator[mpb.WatchMatchResponse]:
        """Every update of the match from `from_version` on (-1: the whole log first), until it ends."""
        self.last_version = from_version
        delay = self.first_delay
        lost = False
        while True:
            call = self.stub.WatchMatch(mpb.WatchMatchRequest(match_id=self.match_id, from_version=self.last_version),
                                        metadata=auth(self.token))
            finished = False
            try:
                async for update in call:
                    if lost:
                        self.on_connection("")
                        lost = False
                    delay = self.first_delay
                    self.last_version = max(self.last_version, update.match.version)
                    finished = update.match.status == mpb.MATCH_STATUS_FINISHED
                    yield update
                if finished:
                    return
                # The stream ended before the match did (a server going away): watch again.
            except grpc.aio.AioRpcError as error:
                if not is_transient(error):
                    raise
                lost = True
                self.on_connection(f"connection lost ({error.code().name}); reconnecting from version "
                                   f"{self.last_version}")
            finally:
                call.cancel()
            self.reconnects += 1
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.max_delay)

    async def _retrying(self, what: Callable[[], Awaitable[T]]) -> T:
        delay = self.first_delay
        deadline = asyncio.get_running_loop().time() + self.patience
        while True:
            try:
                return await what()
            except grpc.aio.AioRpcError as error:
                if not is_transient(error) or asyncio.get_running_loop().time() + delay > deadline:
                    raise
                self.on_connection(f"call failed ({error.code().name}); retrying")
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.max_delay)

    async def submit(self, action_id: int, expected_version: int, request_id: str = "") -> mpb.SubmitActionResponse:
        """Plays an action for the seat; one request id for every retry, so it is applied once."""
        request = mpb.SubmitActionRequest(match_id=self.match_id, action_id=action_id,
                                          expected_version=expected_version,
                                          request_id=request_id or uuid.uuid4().hex)
        response: mpb.SubmitActionResponse = await self._retrying(
            lambda: self.stub.SubmitAction(request, metadata=auth(self.token), timeout=CALL_TIMEOUT))
        self.on_connection("")
        return response

    async def get(self) -> mpb.GetMatchResponse:
        request = mpb.GetMatchRequest(match_id=self.match_id)
        response: mpb.GetMatchResponse = await self._retrying(
            lambda: self.stub.GetMatch(request, metadata=auth(self.token), timeout=CALL_TIMEOUT))
        return response

    async def leave(self) -> mpb.LeaveMatchResponse:
        request = mpb.LeaveMatchRequest(match_id=self.match_id)
        response: mpb.LeaveMatchResponse = await self._retrying(
            lambda: self.stub.LeaveMatch(request, metadata=auth(self.token), timeout=CALL_TIMEOUT))
        return response

    async def replay(self) -> mpb.GetReplayResponse:
        request = mpb.GetReplayRequest(match_id=self.match_id)
        response: mpb.GetReplayResponse = await self._retrying(
            lambda: self.stub.GetReplay(request, metadata=auth(self.token), timeout=CALL_TIMEOUT))
        return response


def peek_match(target: str, match_id: str, tls: ClientTLS | None = None) -> mpb.Match:
    """The match as anyone may see it (its game, seats and status)."""
    with open_channel(target, tls) as channel:
        stub = match_service_pb2_grpc.MatchServiceStub(channel)
        response = blocking_call(lambda: stub.GetMatch(mpb.GetMatchRequest(match_id=match_id), timeout=CALL_TIMEOUT),
                             f"find match {match_id}")
        return response.match
