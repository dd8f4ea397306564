"""`sizzle play --queue`: a seat found through matchmaking instead of a match created by hand. A guest
puts a ticket in the game's pool and watches it until the matchmaker seats it (with people of a close
rating, or bots once the longest wait runs out); the assignment carries the seat token."""

from __future__ import annotations

import time
from collections.abc import Callable

import grpc

from clients.connection import CALL_TIMEOUT, ClientError, Seating, auth, blocking_call, create_guest, is_transient
from services.kit.tls import ClientTLS, open_channel
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb
from sizzle.matchmaking.v1 import matchmaking_service_pb2_grpc

RETRY_SECONDS = 0.5


def _watch_until_final(stub: matchmaking_service_pb2_grpc.MatchmakingServiceStub, ticket: mmpb.Ticket,
                       token: str, on_wait: Callable[[str], None]) -> mmpb.Ticket:
    """The ticket once assigned, cancelled or expired; the watch resumes after a dropped connection."""
    while True:
        try:
            for update in stub.WatchTicket(mmpb.WatchTicketRequest(ticket_id=ticket.ticket_id), metadata=auth(token)):
                ticket = update.ticket
                if ticket.status != mmpb.TICKET_STATUS_WAITING:
                    return ticket
        except grpc.RpcError as error:
            if not is_transient(error):
                raise ClientError(f"lost the ticket: {error.details()}") from error
            on_wait("connection lost; watching the ticket again")
        time.sleep(RETRY_SECONDS)


def queue_for_match(target: str, game_id: str, *, name: str, players: int = 0, max_wait_seconds: int = 0,
                    allow_bots: bool = True, on_wait: Callable[[str], None] | None = None,
                    tls: ClientTLS | None = None) -> Seating:
    """A guest waits in the pool of `game_id` until seated; `players` asks for one table size (0: any);
    over TLS with `tls`."""
    say = on_wait or (lambda text: None)
    with open_channel(target, tls) as channel:
        guest = blocking_call(lambda: create_guest(channel, name), "create a guest player")
        stub = matchmaking_service_pb2_grpc.MatchmakingServiceStub(channel)
        request = mmpb.CreateTicketRequest(game_id=game_id, player_counts=[players] if players else [],
                                           allow_bots=allow_bots, max_wait_seconds=max_wait_seconds)
        try:
            ticket = stub.CreateTicket(request, metadata=auth(guest.token), timeout=CALL_TIMEOUT).ticket
        except grpc.RpcError as error:
            if error.code() == grpc.StatusCode.UNIMPLEMENTED:
                raise ClientError(f"the server at {target} runs no matchmaking "
                                  "(start it with `sizzle serve --services rules,match,matchmaking`)") from error
            raise ClientError(f"could not queue for {game_id}: {error.details()}") from error
        wait = max(0, (ticket.wait_deadline_unix_ms - ticket.created_unix_ms) // 1000)
        say(f"in the {game_id} pool (ticket {ticket.ticket_id}); "
            + (f"bots fill the table after {wait}s; " if allow_bots else "")
            + "ctrl+c gives up")
        try:
            ticket = _watch_until_final(stub, ticket, guest.token, say)
        except KeyboardInterrupt:
            cancelled = stub.CancelTicket(mmpb.CancelTicketRequest(ticket_id=ticket.ticket_id),
                                          metadata=auth(guest.token), timeout=CALL_TIMEOUT).ticket
            if cancelled.status != mmpb.TICKET_STATUS_ASSIGNED:
                raise ClientError("left the pool") from None
            ticket = cancelled  # seated just before the cancel arrived: play it
        if ticket.status != mmpb.TICKET_STATUS_ASSIGNED:
            why = "expired: nobody to play with in time" if ticket.status == mmpb.TICKET_STATUS_EXPIRED \
                else "was cancelled"
            raise ClientError(f"the ticket {why}")
        seat = ticket.assignment
        matches = match_service_pb2_grpc.MatchServiceStub(channel)
        current = blocking_call(lambda: matches.GetMatch(mpb.GetMatchRequest(match_id=seat.match_id),
                                                     metadata=auth(seat.seat_token), timeout=CALL_TIMEOUT),
                            f"read match {seat.match_id}")
        say(f"seated at match {seat.match_id}: {seat.num_players} players, {seat.bot_seats} of them bots")
        return Seating(target, seat.match_id, game_id, seat.seat, seat.seat_token, guest.token, name, current.match)
