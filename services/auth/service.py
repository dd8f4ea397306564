"""sizzle.auth.v1.AuthService (guests and accounts), and `caller()`: who a call's bearer token says
it is, for every servicer that authenticates."""

from __future__ import annotations

from typing import Any

from services.auth.accounts import Accounts
from services.auth.tokens import Identity, TokenSigner, bearer
from services.kit.config import Config
from services.kit.errors import GameError
from services.kit.quotas import MemoryQuotaStore, Quotas
from sizzle.auth.v1 import auth_service_pb2 as apb
from sizzle.auth.v1 import auth_service_pb2_grpc
from sizzle.common.v1 import common_pb2

AUTH_SERVICE = apb.DESCRIPTOR.services_by_name["AuthService"].full_name


def caller(signer: TokenSigner, context: Any, required: bool = True) -> Identity | None:
    token = bearer(context.invocation_metadata())
    if token is None:
        if required:
            raise GameError(common_pb2.ERROR_REASON_INVALID_TOKEN, "this call needs `authorization: Bearer <token>`")
        return None
    return signer.verify(token)


class AuthServicer(auth_service_pb2_grpc.AuthServiceServicer):
    def __init__(self, signer: TokenSigner, accounts: Accounts | None = None) -> None:
        self.signer = signer
        self.accounts = accounts or Accounts(Config(), None, signer, Quotas(Config(), MemoryQuotaStore()))

    async def CreateGuest(self, request: apb.CreateGuestRequest, context: Any) -> apb.CreateGuestResponse:
        name = await self.accounts.guest_name(request.display_name, context.peer())
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


