"""A valid token of the wrong kind gets one answer on every call, through the real API: a seat token
where a player token is needed, or a player token where a seat token is, is PERMISSION_DENIED
(WRONG_SEAT), never UNAUTHENTICATED (INVALID_TOKEN), which tells a client its token is bad and to
get a new identity (a black-box audit found both answers, by call)."""

from __future__ import annotations

from collections.abc import Callable

import grpc

from services.kit.errors import error_info
from sizzle.auth.v1 import auth_service_pb2 as apb
from sizzle.auth.v1 import auth_service_pb2_grpc
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb
from sizzle.matchmaking.v1 import matchmaking_service_pb2_grpc
from tests.match.players import BOT, HUMAN, Player, auth
from tests.servers import ServerThread


def answer(call: Callable[[], object]) -> tuple[grpc.StatusCode, str]:
    try:
        call()
    except grpc.RpcError as error:
        info = error_info(error)
        return error.code(), info.reason if info else ""
    return grpc.StatusCode.OK, ""


def test_a_token_of_the_wrong_kind_is_wrong_seat_on_every_call(platform: ServerThread) -> None:
    with grpc.insecure_channel(platform.target) as channel:
        ann = Player.guest(channel, "ann")
        match_id = ann.create("grill_party", [HUMAN, BOT]).match_id
        ann.join(match_id)
        seat, player = auth(ann.seat_token), auth(ann.token)
        matches = ann.stub
        tickets = matchmaking_service_pb2_grpc.MatchmakingServiceStub(channel)
        accounts = auth_service_pb2_grpc.AuthServiceStub(channel)
        wrong_kind = {
            "CreateMatch": lambda: matches.CreateMatch(mpb.CreateMatchRequest(game_id="hibachi", seats=[BOT, BOT]),
                                                       metadata=seat, timeout=5),
            "JoinMatch": lambda: matches.JoinMatch(mpb.JoinMatchRequest(match_id=match_id), metadata=seat, timeout=5),
            "ListMatchHistory": lambda: matches.ListMatchHistory(mpb.ListMatchHistoryRequest(), metadata=seat,
                                                                 timeout=5),
            "CreateTicket": lambda: tickets.CreateTicket(mmpb.CreateTicketRequest(game_id="hibachi"), metadata=seat,
                                                         timeout=5),
            "GetRating": lambda: tickets.GetRating(mmpb.GetRatingRequest(game_id="hibachi"), metadata=seat, timeout=5),
            "ListLeaderboard": lambda: tickets.ListLeaderboard(
                mmpb.ListLeaderboardRequest(game_id="hibachi", around_me=True), metadata=seat, timeout=5),
            "UpgradeGuest": lambda: accounts.UpgradeGuest(apb.UpgradeGuestRequest(username="ann", password="x" * 12),
                                                          metadata=seat, timeout=5),
            "SubmitAction": lambda: matches.SubmitAction(
                mpb.SubmitActionRequest(match_id=match_id, action_id=0, request_id="r"), metadata=player, timeout=5),
            "LeaveMatch": lambda: matches.LeaveMatch(mpb.LeaveMatchRequest(match_id=match_id), metadata=player,
                                                     timeout=5),
        }
        answers = {name: answer(call) for name, call in wrong_kind.items()}
        assert answers == {name: (grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT") for name in wrong_kind}
        # No token at all is what INVALID_TOKEN is for.
        assert answer(lambda: matches.JoinMatch(mpb.JoinMatchRequest(match_id=match_id), timeout=5)) == (
            grpc.StatusCode.UNAUTHENTICATED, "INVALID_TOKEN")
