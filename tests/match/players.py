"""Test players: real gRPC clients of the match service holding their own tokens."""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

import grpc

from sizzle.auth.v1 import auth_service_pb2 as apb
from sizzle.auth.v1 import auth_service_pb2_grpc
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc

HUMAN = mpb.SeatSpec(kind=mpb.SEAT_KIND_HUMAN)
BOT = mpb.SeatSpec(kind=mpb.SEAT_KIND_BOT, difficulty=mpb.DIFFICULTY_EASY)


def auth(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


@dataclass
class Player:
    channel: grpc.Channel
    name: str
    token: str = ""
    seat_token: str = ""
    seat: int = -1
    match_id: str = ""
    rng: random.Random = field(default_factory=lambda: random.Random(0))

    @property
    def stub(self) -> match_service_pb2_grpc.MatchServiceStub:
        return match_service_pb2_grpc.MatchServiceStub(self.channel)

    @staticmethod
    def guest(channel: grpc.Channel, name: str, seed: int = 0) -> Player:
        response = auth_service_pb2_grpc.AuthServiceStub(channel).CreateGuest(
            apb.CreateGuestRequest(display_name=name), timeout=5)
        return Player(channel, name, response.token, rng=random.Random(seed))

    def create(self, game_id: str, seats: Sequence[mpb.SeatSpec], **fields: object) -> mpb.Match:
        request = mpb.CreateMatchRequest(game_id=game_id, seats=seats, **fields)  # type: ignore[arg-type]
        return self.stub.CreateMatch(request, metadata=auth(self.token), timeout=5).match

    def join(self, match_id: str, seat: int | None = None) -> mpb.JoinMatchResponse:
        request = mpb.JoinMatchRequest(match_id=match_id, accept_fixed_seed=True)  # tests fix their seeds
        if seat is not None:
            request.seat = seat
        response = self.stub.JoinMatch(request, metadata=auth(self.token), timeout=5)
        self.seat_token, self.seat, self.match_id = response.seat_token, response.seat, match_id
        return response

    def get(self) -> mpb.GetMatchResponse:
        return self.stub.GetMatch(mpb.GetMatchRequest(match_id=self.match_id), metadata=auth(self.seat_token),
                                  timeout=5)

    def submit(self, action_id: int, version: int, request_id: str | None = None) -> mpb.SubmitActionResponse:
        request = mpb.SubmitActionRequest(match_id=self.match_id, action_id=action_id, expected_version=version,
                                          request_id=request_id or uuid.uuid4().hex)
        return self.stub.SubmitAction(request, metadata=auth(self.seat_token), timeout=5)

    def play_if_my_turn(self) -> bool:
        """Plays a random legal action when it is this player's turn; True when it played."""
        current = self.get()
        if current.match.status != mpb.MATCH_STATUS_RUNNING or current.match.seat_to_move != self.seat:
            return False
        choice = self.rng.choice(current.legal_actions)
        self.submit(choice.action_id, current.match.version)
        return True


def play_out(players: Sequence[Player], max_steps: int = 20_000) -> mpb.Match:
    """Everyone plays until the match is over (bots, if any, play their own seats)."""
    import time

    by_seat = {p.seat: p for p in players}
    for _ in range(max_steps):
        current = players[0].get()
        match = current.match
        if match.status == mpb.MATCH_STATUS_FINISHED:
            return match
        player = by_seat.get(match.seat_to_move)
        if player is None or match.seats[match.seat_to_move].kind == mpb.SEAT_KIND_BOT:
            time.sleep(0.005)  # a bot's turn
            continue
        try:
            player.play_if_my_turn()
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.ABORTED:  # a bot moved in between
                raise
    raise AssertionError("the match did not end")
