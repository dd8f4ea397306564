"""sizzle.match.v1.MatchService and sizzle.auth.v1.AuthService: thin servicers that authenticate,
validate and call services.match.core."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from services.auth.accounts import Accounts, check_display_name
from services.kit.config import Config
from services.kit.errors import GameError
from services.kit.quotas import MemoryQuotaStore, Quotas, subject_of
from services.match.core import Matches
from services.match.tokens import Identity, TokenSigner, bearer
from sizzle.auth.v1 import auth_service_pb2 as apb
from sizzle.auth.v1 import auth_service_pb2_grpc
from sizzle.common.v1 import common_pb2
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc

R = common_pb2.ErrorReason
MATCH_SERVICE = mpb.DESCRIPTOR.services_by_name["MatchService"].full_name
AUTH_SERVICE = apb.DESCRIPTOR.services_by_name["AuthService"].full_name


def caller(signer: TokenSigner, context: Any, required: bool = True) -> Identity | None:
    token = bearer(context.invocation_metadata())
    if token is None:
        if required:
            raise GameError(R.ERROR_REASON_INVALID_TOKEN, "this call needs `authorization: Bearer <token>`")
        return None
    return signer.verify(token)


class AuthServicer(auth_service_pb2_grpc.AuthServiceServicer):
    def __init__(self, signer: TokenSigner, accounts: Accounts | None = None) -> None:
        self.signer = signer
        self.accounts = accounts or Accounts(Config(), None, signer, Quotas(Config(), MemoryQuotaStore()))

    async def CreateGuest(self, request: apb.CreateGuestRequest, context: Any) -> apb.CreateGuestResponse:
        name = check_display_name(request.display_name)
        player_id, token, expires = self.signer.new_player(name)
        return apb.CreateGuestResponse(player_id=player_id, token=token, expires_unix_ms=expires)

    async def Register(self, request: apb.RegisterRequest, context: Any) -> apb.RegisterResponse:
        done = await self.accounts.register(request.username, request.password, context.peer())
        return apb.RegisterResponse(player_id=done.player_id, token=done.token, expires_unix_ms=done.expires_unix_ms,
                                    username=done.username)

    async def Login(self, request: apb.LoginRequest, context: Any) -> apb.LoginResponse:
        done = await self.accounts.login(request.username, request.password, context.peer())
        return apb.LoginResponse(player_id=done.player_id, token=done.token, expires_unix_ms=done.expires_unix_ms,
                                 username=done.username)

    async def UpgradeGuest(self, request: apb.UpgradeGuestRequest, context: Any) -> apb.UpgradeGuestResponse:
        identity = caller(self.signer, context)
        done = await self.accounts.upgrade(identity, request.username, request.password, context.peer())
        return apb.UpgradeGuestResponse(player_id=done.player_id, token=done.token,
                                        expires_unix_ms=done.expires_unix_ms, username=done.username)


class MatchServicer(match_service_pb2_grpc.MatchServiceServicer):
    def __init__(self, matches: Matches) -> None:
        self.matches = matches
        self.signer = matches.signer

    async def CreateMatch(self, request: mpb.CreateMatchRequest, context: Any) -> mpb.CreateMatchResponse:
        identity = caller(self.signer, context)
        assert identity is not None
        return await self.matches.create(identity, request)

    async def JoinMatch(self, request: mpb.JoinMatchRequest, context: Any) -> mpb.JoinMatchResponse:
        identity = caller(self.signer, context)
        assert identity is not None
        return await self.matches.join(identity, request)

    async def GetMatch(self, request: mpb.GetMatchRequest, context: Any) -> mpb.GetMatchResponse:
        return await self.matches.get(caller(self.signer, context, required=False), request)

    async def ListMatches(self, request: mpb.ListMatchesRequest, context: Any) -> mpb.ListMatchesResponse:
        return await self.matches.list_matches(request)

    async def SubmitAction(self, request: mpb.SubmitActionRequest, context: Any) -> mpb.SubmitActionResponse:
        identity = caller(self.signer, context)
        assert identity is not None
        return await self.matches.submit(identity, request)

    async def WatchMatch(self, request: mpb.WatchMatchRequest, context: Any) -> AsyncIterator[mpb.WatchMatchResponse]:
        identity = caller(self.signer, context, required=False)
        kind, player_id = (identity.kind, identity.player_id) if identity else (None, "")
        subject = subject_of(kind, player_id, context.peer())
        async with self.matches.quotas.stream(subject):
            async for update in self.matches.watch(identity, request):
                yield update

    async def LeaveMatch(self, request: mpb.LeaveMatchRequest, context: Any) -> mpb.LeaveMatchResponse:
        identity = caller(self.signer, context)
        assert identity is not None
        return await self.matches.leave(identity, request.match_id)

    async def GetReplay(self, request: mpb.GetReplayRequest, context: Any) -> mpb.GetReplayResponse:
        return await self.matches.replay(caller(self.signer, context, required=False), request.match_id)

    async def ListMatchHistory(self, request: mpb.ListMatchHistoryRequest,
                               context: Any) -> mpb.ListMatchHistoryResponse:
        return await self.matches.history(caller(self.signer, context, required=False), request)
