"""Simulated players: each creates a guest and, game after game, either queues through matchmaking
(CreateTicket, then WatchTicket until seated with people of a close rating or with bots once its
longest wait runs out; now and then it cancels and queues again) or finds or creates a match by hand
(joining other players' waiting matches, with bots in some seats). It plays through WatchMatch and
SubmitAction with thinking time, drops and resumes its stream now and then, and leaves when the run
ends (a bot finishes for it)."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import grpc

from services.kit.errors import error_info
from services.match.read_masks import MATCH_ONLY
from services.rules import registry
from sizzle.auth.v1 import auth_service_pb2 as apb
from sizzle.auth.v1 import auth_service_pb2_grpc
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb
from sizzle.matchmaking.v1 import matchmaking_service_pb2_grpc

HUMAN = mpb.SeatSpec(kind=mpb.SEAT_KIND_HUMAN)
BOT = mpb.SeatSpec(kind=mpb.SEAT_KIND_BOT, difficulty=mpb.DIFFICULTY_EASY)


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    acked: list[tuple[str, int, int, int]] = field(default_factory=list)  # match, version, seat, action id
    matches: set[str] = field(default_factory=set)
    started: set[str] = field(default_factory=set)
    finished: set[str] = field(default_factory=set)
    reconnects: int = 0
    queued: int = 0  # tickets created
    seated: int = 0  # tickets assigned a seat
    cancelled: int = 0  # tickets their player cancelled
    bot_seats: int = 0  # seats bots filled in matches matchmaking formed
    time_to_match: list[float] = field(default_factory=list)

    async def call(self, name: str, coro: Any) -> Any:
        start = time.perf_counter()
        try:
            return await coro
        except grpc.RpcError as error:
            info = error_info(error)  # type: ignore[arg-type]
            self.errors[f"{name} {error.code().name}{' ' + info.reason if info else ''}"] += 1
            raise
        finally:
            self.latencies[name].append(time.perf_counter() - start)


def auth(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


class SimulatedPlayer:
    def __init__(self, index: int, channel: grpc.aio.Channel, stats: Stats, games: list[str],
                 think: tuple[float, float], reconnect_chance: float,
                 matchmaking: grpc.aio.Channel | None = None, queue_share: float = 0.7) -> None:
        self.rng = random.Random(index)
        self.stub = match_service_pb2_grpc.MatchServiceStub(channel)
        self.auth_stub = auth_service_pb2_grpc.AuthServiceStub(channel)
        self.mm_stub = None if matchmaking is None else matchmaking_service_pb2_grpc.MatchmakingServiceStub(matchmaking)
        self.queue_share = queue_share
        self.stats = stats
        self.games = games
        self.think = think
        self.reconnect_chance = reconnect_chance
        self.name = f"load{index}"
        self.token = ""

    async def run(self, stop_at: float) -> None:
        guest = await self.stats.call("CreateGuest", self.auth_stub.CreateGuest(
            apb.CreateGuestRequest(display_name=self.name), timeout=10))
        self.token = guest.token
        while time.monotonic() < stop_at:
            try:
                if self.mm_stub is not None and self.rng.random() < self.queue_share:
                    seating = await self.queue(stop_at)
                    if seating is None:
                        continue
                    match_id, seat_token = seating
                else:
                    match_id, seat_token = await self.find_or_create()
                await self.play(match_id, seat_token, stop_at)
            except grpc.RpcError:
                await asyncio.sleep(0.2)

    async def queue(self, stop_at: float) -> tuple[str, str] | None:
        """A seat found through matchmaking, or None when the ticket was cancelled or expired."""
        assert self.mm_stub is not None
        game = self.rng.choice(self.games)
        request = mmpb.CreateTicketRequest(game_id=game, allow_bots=True, max_wait_seconds=self.rng.randint(2, 6))
        started = time.monotonic()
        created = await self.stats.call("CreateTicket", self.mm_stub.CreateTicket(
            request, metadata=auth(self.token), timeout=10))
        self.stats.queued += 1
        ticket = created.ticket
        # One player in ten gives up after a moment (a cancellation that may race the matchmaker).
        give_up_at = started + self.rng.uniform(0.5, 3.0) if self.rng.random() < 0.1 else stop_at
        stream = self.mm_stub.WatchTicket(mmpb.WatchTicketRequest(ticket_id=ticket.ticket_id),
                                          metadata=auth(self.token))
        try:
            while ticket.status == mmpb.TICKET_STATUS_WAITING:
                try:
                    update = await asyncio.wait_for(stream.read(), max(0.1, give_up_at - time.monotonic()))
                except TimeoutError:
                    cancelled = await self.stats.call("CancelTicket", self.mm_stub.CancelTicket(
                        mmpb.CancelTicketRequest(ticket_id=ticket.ticket_id), metadata=auth(self.token), timeout=10))
                    ticket = cancelled.ticket  # assigned when the matchmaker won the race: then it plays
                    break
                if update is grpc.aio.EOF:
                    got = await self.stats.call("GetTicket", self.mm_stub.GetTicket(
                        mmpb.GetTicketRequest(ticket_id=ticket.ticket_id), metadata=auth(self.token), timeout=10))
                    ticket = got.ticket
                    break
                ticket = update.ticket
        finally:
            stream.cancel()
        if ticket.status != mmpb.TICKET_STATUS_ASSIGNED:
            if ticket.status == mmpb.TICKET_STATUS_CANCELLED:
                self.stats.cancelled += 1
            return None
        self.stats.seated += 1
        self.stats.bot_seats += ticket.assignment.bot_seats
        self.stats.time_to_match.append(time.monotonic() - started)
        self.stats.matches.add(ticket.assignment.match_id)
        return ticket.assignment.match_id, ticket.assignment.seat_token

    async def find_or_create(self) -> tuple[str, str]:
        game = self.rng.choice(self.games)
        waiting = await self.stats.call("ListMatches", self.stub.ListMatches(mpb.ListMatchesRequest(
            game_id=game, status=mpb.MATCH_STATUS_WAITING, page_size=5), timeout=10))
        for match in waiting.matches:
            try:
                joined = await self.stats.call("JoinMatch", self.stub.JoinMatch(
                    mpb.JoinMatchRequest(match_id=match.match_id), metadata=auth(self.token), timeout=10))
                self.stats.matches.add(match.match_id)
                return match.match_id, joined.seat_token
            except grpc.RpcError:
                continue
        spec = registry.get_engine(game).spec
        seats_total = self.rng.randint(spec.min_players, min(spec.max_players, 4))
        humans = self.rng.randint(1, min(2, seats_total))
        seats = [HUMAN] * humans + [BOT] * (seats_total - humans)
        # A turn limit: a player who vanishes mid-game is replaced by a bot, so every match finishes.
        created = await self.stats.call("CreateMatch", self.stub.CreateMatch(
            mpb.CreateMatchRequest(game_id=game, seats=seats, turn_seconds=10), metadata=auth(self.token),
            timeout=10))
        joined = await self.stats.call("JoinMatch", self.stub.JoinMatch(
            mpb.JoinMatchRequest(match_id=created.match.match_id), metadata=auth(self.token), timeout=10))
        self.stats.matches.add(created.match.match_id)
        return created.match.match_id, joined.seat_token

    async def play(self, match_id: str, seat_token: str, stop_at: float) -> None:
        last = -1
        waiting_since = time.monotonic()
        while True:
            stream = self.stub.WatchMatch(mpb.WatchMatchRequest(match_id=match_id, from_version=last),
                                          metadata=auth(seat_token))
            dropped = False
            try:
                while True:
                    try:
                        update = await asyncio.wait_for(stream.read(), max(0.5, stop_at - time.monotonic()))
                    except TimeoutError:
                        await self.leave(match_id, seat_token)  # the run is over
                        return
                    if update is grpc.aio.EOF:
                        break
                    match = update.match
                    last = match.version
                    if match.status == mpb.MATCH_STATUS_FINISHED:
                        self.stats.finished.add(match_id)
                        return
                    if match.status == mpb.MATCH_STATUS_RUNNING:
                        self.stats.started.add(match_id)
                    if time.monotonic() >= stop_at or (match.status == mpb.MATCH_STATUS_WAITING
                                                       and time.monotonic() - waiting_since > 5):
                        await self.leave(match_id, seat_token)
                        return
                    if update.legal_actions:
                        await asyncio.sleep(self.rng.uniform(*self.think))
                        await self.submit(match_id, seat_token, update)
                    if self.rng.random() < self.reconnect_chance:
                        dropped = True  # the connection drops; resume from the last version seen
                        break
            finally:
                stream.cancel()
            if not dropped:
                return
            self.stats.reconnects += 1

    async def submit(self, match_id: str, seat_token: str, update: mpb.WatchMatchResponse) -> None:
        choice = self.rng.choice(update.legal_actions)
        request = mpb.SubmitActionRequest(match_id=match_id, action_id=choice.action_id,
                                          expected_version=update.match.version, request_id=uuid.uuid4().hex)
        try:
            response = await self.stats.call("SubmitAction", self.stub.SubmitAction(
                request, metadata=auth(seat_token), timeout=10))
        except grpc.RpcError:
            return  # stale (a timeout or a bot moved first): the next update brings the new turn
        self.stats.acked.append((match_id, response.match.version, update.seat, choice.action_id))

    async def leave(self, match_id: str, seat_token: str) -> None:
        try:
            await self.stats.call("LeaveMatch", self.stub.LeaveMatch(mpb.LeaveMatchRequest(match_id=match_id),
                                                                    metadata=auth(seat_token), timeout=10))
        except grpc.RpcError:
            pass


async def verify(channel: grpc.aio.Channel, stats: Stats, drain_seconds: float) -> tuple[int, int]:
    """Waits (bounded) for the touched matches to finish, then checks every acknowledged action is in
    its match's log at its version. Returns (lost actions, matches still unfinished)."""
    stub = match_service_pb2_grpc.MatchServiceStub(channel)
    deadline = time.monotonic() + drain_seconds
    pending = set(stats.matches)
    while pending and time.monotonic() < deadline:
        for match_id in list(pending):
            request = mpb.GetMatchRequest(match_id=match_id, read_mask=MATCH_ONLY)
            match = (await stub.GetMatch(request, timeout=10)).match
            if match.status != mpb.MATCH_STATUS_RUNNING:
                pending.discard(match_id)
                if match.status == mpb.MATCH_STATUS_FINISHED:
                    stats.finished.add(match_id)
        await asyncio.sleep(0.5)
    logs: dict[str, dict[int, tuple[int, int]]] = {}
    for match_id in {a[0] for a in stats.acked}:
        replay = await stub.GetReplay(mpb.GetReplayRequest(match_id=match_id), timeout=10)
        logs[match_id] = {s.version: (s.seat, s.action_id if replay.complete else -1) for s in replay.steps}
    lost = 0
    for match_id, version, seat, action_id in stats.acked:
        logged = logs[match_id].get(version)
        if logged is None or logged[0] != seat or logged[1] not in (action_id, -1):
            lost += 1
    return lost, len(pending)
