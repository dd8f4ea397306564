"""sizzle.matchmaking.v1.MatchmakingService: a thin servicer that authenticates and calls tickets.py."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from services.auth.service import caller
from services.auth.tokens import TokenSigner
from services.kit.quotas import subject_of
from services.matchmaking.tickets import Tickets
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb
from sizzle.matchmaking.v1 import matchmaking_service_pb2_grpc

MATCHMAKING_SERVICE = mmpb.DESCRIPTOR.services_by_name["MatchmakingService"].full_name


class MatchmakingServicer(matchmaking_service_pb2_grpc.MatchmakingServiceServicer):
    def __init__(self, tickets: Tickets, signer: TokenSigner) -> None:
        self.tickets = tickets
        self.signer = signer

    async def CreateTicket(self, request: mmpb.CreateTicketRequest, context: Any) -> mmpb.CreateTicketResponse:
        ticket = await self.tickets.create(caller(self.signer, context), request, context.peer())
        return mmpb.CreateTicketResponse(ticket=ticket)

    async def GetTicket(self, request: mmpb.GetTicketRequest, context: Any) -> mmpb.GetTicketResponse:
        return mmpb.GetTicketResponse(ticket=await self.tickets.get(caller(self.signer, context), request.ticket_id))

    async def WatchTicket(self, request: mmpb.WatchTicketRequest,
                          context: Any) -> AsyncIterator[mmpb.WatchTicketResponse]:
        identity = caller(self.signer, context)
        kind, player_id = (identity.kind, identity.player_id) if identity else (None, "")
        subject = subject_of(kind, player_id, context.peer())
        async with self.tickets.quotas.stream(subject):
            async for ticket in self.tickets.watch(identity, request.ticket_id):
                yield mmpb.WatchTicketResponse(ticket=ticket)

    async def CancelTicket(self, request: mmpb.CancelTicketRequest, context: Any) -> mmpb.CancelTicketResponse:
        ticket = await self.tickets.cancel(caller(self.signer, context), request.ticket_id)
        return mmpb.CancelTicketResponse(ticket=ticket)

    async def GetRating(self, request: mmpb.GetRatingRequest, context: Any) -> mmpb.GetRatingResponse:
        identity = caller(self.signer, context, required=not request.player_id)
        return await self.tickets.rating_with_history(identity, request)

    async def ListLeaderboard(self, request: mmpb.ListLeaderboardRequest,
                              context: Any) -> mmpb.ListLeaderboardResponse:
        identity = caller(self.signer, context, required=request.around_me)
        return await self.tickets.leaderboard(identity, request)
