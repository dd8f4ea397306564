"""How the matchmaker creates matches: MatchService over gRPC with the service credential (over TLS,
with this process's client certificate, when the config says so), seats reserved for the people, a
deadline on every call. `abandon` hands a match nobody will be told about (its group fell apart while
it was created) to bots, so it ends and expires like any other, in no one's history."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import grpc

from services.auth.tokens import TokenSigner
from services.kit.config import Config
from services.kit.server import channel_options
from services.kit.tls import client_tls, open_aio_channel
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc


@dataclass(frozen=True)
class CreatedMatch:
    match_id: str
    seat_tokens: dict[int, str]


class MatchCreator(Protocol):
    async def create(self, game_id: str, seats: Sequence[mpb.SeatSpec]) -> CreatedMatch: ...

    async def abandon(self, match_id: str, seat_tokens: dict[int, str]) -> None: ...


class GrpcMatchCreator:
    def __init__(self, config: Config, target: str) -> None:
        self.config = config
        self.channel = open_aio_channel(target, client_tls(config), channel_options(config))
        self.stub = match_service_pb2_grpc.MatchServiceStub(self.channel)
        self._signer = TokenSigner.from_config(config)
        self._token = ("", 0.0)

    def _metadata(self) -> list[tuple[str, str]]:
        token, made = self._token
        if not token or time.monotonic() - made > 600:  # fresh long before it expires
            self._token = (self._signer.service_token("matchmaking"), time.monotonic())
        return [("authorization", f"Bearer {self._token[0]}")]

    async def create(self, game_id: str, seats: Sequence[mpb.SeatSpec]) -> CreatedMatch:
        request = mpb.CreateMatchRequest(game_id=game_id, seats=seats,
                                         turn_seconds=self.config.matchmaking_turn_seconds)
        response = await self.stub.CreateMatch(request, metadata=self._metadata(),
                                               timeout=self.config.call_timeout_seconds)
        return CreatedMatch(response.match.match_id, dict(response.seat_tokens))

    async def abandon(self, match_id: str, seat_tokens: dict[int, str]) -> None:
        """Gives up every reserved seat (LeaveMatch with the service credential and the seat): bots
        play them, and the match is in none of the players' histories."""
        for seat in seat_tokens:
            with contextlib.suppress(grpc.aio.AioRpcError):
                await self.stub.LeaveMatch(mpb.LeaveMatchRequest(match_id=match_id, seat=seat),
                                           metadata=self._metadata(), timeout=self.config.call_timeout_seconds)

    async def close(self) -> None:
        await self.channel.close()
