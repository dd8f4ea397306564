"""sizzle.match.v1.MatchService: a thin servicer that authenticates (services/auth) and calls
services.match.core."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from services.auth.service import caller
from services.kit.quotas import subject_of
from services.match.core import Matches
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc

MATCH_SERVICE = mpb.DESCRIPTOR.services_by_name["MatchService"].full_name


class MatchServicer(match_service_pb2_grpc.MatchServiceServicer):
    def __init__(self, matches: Matches) -> None:
        self.matches = matches
        self.signer = matches.signer

    async def CreateMatch(self, request: mpb.CreateMatchRequest, context: Any) -> mpb.CreateMatchResponse:
        identity = caller(self.signer, context)
        assert identity is not None
        return await self.matches.create(identity, request, context.peer())

    async def JoinMatch(self, request: mpb.JoinMatchRequest, context: Any) -> mpb.JoinMatchResponse:
        identity = caller(self.signer, context)
        assert identity is not None
        return await self.matches.join(identity, request)

    async def GetMatch(self, request: mpb.GetMatchRequest, context: Any) -> mpb.GetMatchResponse:
        return await self.matches.get(caller(self.signer, context, required=False), request)

    async def ListMatches(self, request: mpb.ListMatchesRequest, context: Any) -> mpb.ListMatchesResponse:
        caller(self.signer, context, required=False)  # none is needed, but a bad one is refused as everywhere
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
        return await self.matches.leave(identity, request.match_id,
                                        request.seat if request.HasField("seat") else None)

    async def GetReplay(self, request: mpb.GetReplayRequest, context: Any) -> mpb.GetReplayResponse:
        return await self.matches.replay(caller(self.signer, context, required=False), request.match_id)

    async def ListMatchHistory(self, request: mpb.ListMatchHistoryRequest,
                               context: Any) -> mpb.ListMatchHistoryResponse:
        return await self.matches.history(caller(self.signer, context, required=False), request)
