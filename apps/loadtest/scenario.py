"""The load tests' one scenario: what a simulated player does, written once for its two drivers,
`make loadtest` (apps/loadtest/__main__.py: a thread a player, against the local topology) and
the locust user of the cluster's load-test Job (deploy/load/locustfile.py: a greenlet a player).

A player creates a guest and, game after game, either queues through matchmaking (CreateTicket, then
WatchTicket until seated with people of a close rating or with bots once its longest wait runs out;
now and then it cancels and queues again) or finds or creates a match by hand (joining other
players' waiting matches, with bots in some seats). It plays through WatchMatch and SubmitAction
with thinking time, drops and resumes its stream now and then, and leaves when the run ends (a bot
finishes for it). It plays every game of the registry unless its driver names fewer.

The calls are blocking gRPC calls, each with a deadline: a thread waits on its own, and under locust
gevent makes the same calls cooperative. Every call goes through `Stats.record_call`, which the
drivers read: the local one keeps the figures for its report and the lost-action check, the locust
one hands each call to Locust's statistics.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc

from services.kit.errors import error_info
from services.rules import registry
from sizzle.auth.v1 import auth_service_pb2 as apb
from sizzle.auth.v1 import auth_service_pb2_grpc
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb
from sizzle.matchmaking.v1 import matchmaking_service_pb2_grpc

Response = TypeVar("Response")

HUMAN = mpb.SeatSpec(kind=mpb.SEAT_KIND_HUMAN)
BOT = mpb.SeatSpec(kind=mpb.SEAT_KIND_BOT, difficulty=mpb.DIFFICULTY_EASY)
CALL_SECONDS = 10  # the deadline of every unary call
# A watch stream's deadline is the end of the run, but at most this: a longer one is renewed from the
# last version seen (locust runs without a set end, and every call has a deadline).
LONGEST_WATCH_SECONDS = 120
# The matchmaker seats a ticket with bots once its longest wait runs out; a ticket still waiting this
# long after that is given up (cancelled), as a person would.
TICKET_PATIENCE_SECONDS = 30
RETRY_PAUSE_SECONDS = 0.2  # after a failed call, before the next game


@dataclass(frozen=True)
class Habits:
    """How the simulated players play; both drivers use these unless told otherwise."""

    think_seconds: tuple[float, float] = (0.05, 0.3)  # before each move
    reconnect_chance: float = 0.02  # after each update: the stream drops and resumes from the last version
    queue_share: float = 0.7  # games found through matchmaking (when the driver gives it); the rest by hand
    give_up_chance: float = 0.1  # tickets cancelled after a moment (a cancellation may race the matchmaker)
    give_up_after_seconds: tuple[float, float] = (0.5, 3.0)
    longest_wait_seconds: tuple[int, int] = (2, 6)  # a ticket's wait for people before bots fill its seats
    most_seats: int = 4  # matches created by hand: the game's fewest seats up to this many
    most_humans: int = 2  # of which people (the creator and whoever joins); bots take the rest
    turn_seconds: int = 10  # a vanished player's seat is taken over by a bot, so every match finishes
    waiting_patience_seconds: float = 5.0  # a player leaves a match still waiting for people after this


def authorization(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


def describe_error(error: grpc.RpcError) -> str:
    """A failed call's status code and error reason, e.g. "ABORTED STALE_VERSION"."""
    info = error_info(error)
    return f"{error.code().name}{' ' + info.reason if info else ''}"


class Stats:
    """What the players did: every call's latency and failure, the actions acknowledged, the matches
    seen and the queue's figures. Safe to share between threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: Counter[str] = Counter()
        self.acked: list[tuple[str, int, int, int]] = []  # match, version, seat, action id
        self.matches: set[str] = set()  # every match a player sat in
        self.started: set[str] = set()
        self.finished: set[str] = set()
        # reconnects, tickets queued, seated (a seat assigned), cancelled (by their player), bot seats
        # (filled in matches matchmaking formed)
        self.counts: Counter[str] = Counter()
        self.time_to_match: list[float] = []

    def call(self, name: str, method: Callable[..., Response], request: Any, **options: Any) -> Response:
        """Makes a unary call and records its latency and, when it fails, its status (then re-raises)."""
        started = time.perf_counter()
        try:
            response = method(request, **options)
        except grpc.RpcError as error:
            self.record_call(name, time.perf_counter() - started, error)
            raise
        self.record_call(name, time.perf_counter() - started, None)
        return response

    def record_call(self, name: str, seconds: float, error: grpc.RpcError | None) -> None:
        """One call (for a stream: the wait for its first message, or its failure)."""
        with self.lock:
            self.latencies[name].append(seconds)
            if error is not None:
                self.errors[f"{name} {describe_error(error)}"] += 1

    def acknowledged(self, match_id: str, version: int, seat: int, action_id: int) -> None:
        with self.lock:
            self.acked.append((match_id, version, seat, action_id))

    def count(self, what: str) -> None:
        with self.lock:
            self.counts[what] += 1

    def seated_after(self, seconds: float, bot_seats: int) -> None:
        with self.lock:
            self.counts["seated"] += 1
            self.counts["bot seats"] += bot_seats
            self.time_to_match.append(seconds)


class SimulatedPlayer:
    """One simulated player. `run` plays game after game until the run ends; a driver that schedules
    games itself (locust's tasks) calls `sign_in` once, then `play_one_game`, and `leave` when stopped."""

    def __init__(self, index: int, match_channel: grpc.Channel, stats: Stats, games: Sequence[str],
                 habits: Habits | None = None, matchmaking_channel: grpc.Channel | None = None) -> None:
        self.rng = random.Random(index)
        self.name = f"load{index}"
        self.stats = stats
        self.games = list(games)
        self.habits = habits or Habits()
        self.auth_stub = auth_service_pb2_grpc.AuthServiceStub(match_channel)
        self.match_stub = match_service_pb2_grpc.MatchServiceStub(match_channel)
        self.matchmaking_stub = (None if matchmaking_channel is None
                                 else matchmaking_service_pb2_grpc.MatchmakingServiceStub(matchmaking_channel))
        self.token = ""
        self.seat: tuple[str, str] | None = None  # (match id, seat token) of the match being played

    def run(self, stop_at: float) -> None:
        self.sign_in()
        while time.monotonic() < stop_at:
            self.play_one_game(stop_at)

    def sign_in(self) -> None:
        guest = self.stats.call("CreateGuest", self.auth_stub.CreateGuest,
                                apb.CreateGuestRequest(display_name=self.name), timeout=CALL_SECONDS)
        self.token = guest.token

    def play_one_game(self, stop_at: float) -> None:
        """Finds a seat (through matchmaking or by hand) and plays it until the match or the run ends."""
        try:
            if self.matchmaking_stub is not None and self.rng.random() < self.habits.queue_share:
                seating = self.queue(stop_at)
                if seating is None:
                    return
            else:
                seating = self.find_or_create()
            self.play(*seating, stop_at)
        except grpc.RpcError:
            time.sleep(RETRY_PAUSE_SECONDS)  # recorded already; the next game starts afresh

    def queue(self, stop_at: float) -> tuple[str, str] | None:
        """A seat found through matchmaking, or None when the ticket was cancelled or expired."""
        assert self.matchmaking_stub is not None
        request = mmpb.CreateTicketRequest(game_id=self.rng.choice(self.games), allow_bots=True,
                                           max_wait_seconds=self.rng.randint(*self.habits.longest_wait_seconds))
        started = time.monotonic()
        created = self.stats.call("CreateTicket", self.matchmaking_stub.CreateTicket, request,
                                  metadata=authorization(self.token), timeout=CALL_SECONDS)
        self.stats.count("queued")
        give_up_at = started + request.max_wait_seconds + TICKET_PATIENCE_SECONDS
        if self.rng.random() < self.habits.give_up_chance:
            give_up_at = started + self.rng.uniform(*self.habits.give_up_after_seconds)
        ticket = self.watch_ticket(created.ticket, min(give_up_at, stop_at))
        if ticket.status == mmpb.TICKET_STATUS_WAITING:
            cancelled = self.stats.call("CancelTicket", self.matchmaking_stub.CancelTicket,
                                        mmpb.CancelTicketRequest(ticket_id=ticket.ticket_id),
                                        metadata=authorization(self.token), timeout=CALL_SECONDS)
            ticket = cancelled.ticket  # assigned when the matchmaker won the race: then it plays
        if ticket.status != mmpb.TICKET_STATUS_ASSIGNED:
            if ticket.status == mmpb.TICKET_STATUS_CANCELLED:
                self.stats.count("cancelled")
            return None
        self.stats.seated_after(time.monotonic() - started, ticket.assignment.bot_seats)
        self.stats.matches.add(ticket.assignment.match_id)
        return ticket.assignment.match_id, ticket.assignment.seat_token

    def watch_ticket(self, ticket: mmpb.Ticket, until: float) -> mmpb.Ticket:
        """The ticket once it leaves the queue, or as it stands at `until` (still waiting)."""
        assert self.matchmaking_stub is not None
        opened = time.perf_counter()
        stream = self.matchmaking_stub.WatchTicket(mmpb.WatchTicketRequest(ticket_id=ticket.ticket_id),
                                                   metadata=authorization(self.token),
                                                   timeout=max(0.1, until - time.monotonic()))
        first = True
        try:
            for update in stream:
                if first:
                    self.stats.record_call("WatchTicket", time.perf_counter() - opened, None)
                    first = False
                ticket = update.ticket
                if ticket.status != mmpb.TICKET_STATUS_WAITING:
                    return ticket
        except grpc.RpcError as error:
            if error.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
                return ticket  # time to give up
            self.stats.record_call("WatchTicket", time.perf_counter() - opened, error)
            raise
        finally:
            stream.cancel()
        # The stream ended while the ticket waited: ask where it stands.
        found = self.stats.call("GetTicket", self.matchmaking_stub.GetTicket,
                                mmpb.GetTicketRequest(ticket_id=ticket.ticket_id),
                                metadata=authorization(self.token), timeout=CALL_SECONDS)
        return found.ticket

    def find_or_create(self) -> tuple[str, str]:
        """A seat in another player's waiting match of a game, else in a new match of it (people and bots)."""
        game_id = self.rng.choice(self.games)
        waiting = self.stats.call("ListMatches", self.match_stub.ListMatches, mpb.ListMatchesRequest(
            game_id=game_id, status=mpb.MATCH_STATUS_WAITING, page_size=5), timeout=CALL_SECONDS)
        for match in waiting.matches:
            try:
                joined = self.stats.call("JoinMatch", self.match_stub.JoinMatch,
                                         mpb.JoinMatchRequest(match_id=match.match_id),
                                         metadata=authorization(self.token), timeout=CALL_SECONDS)
            except grpc.RpcError:
                continue  # filled or started meanwhile
            self.stats.matches.add(match.match_id)
            return match.match_id, joined.seat_token
        spec = registry.get_engine(game_id).spec
        seats_total = self.rng.randint(spec.min_players, max(spec.min_players,
                                                             min(spec.max_players, self.habits.most_seats)))
        humans = self.rng.randint(1, min(self.habits.most_humans, seats_total))
        seats = [HUMAN] * humans + [BOT] * (seats_total - humans)
        created = self.stats.call("CreateMatch", self.match_stub.CreateMatch, mpb.CreateMatchRequest(
            game_id=game_id, seats=seats, turn_seconds=self.habits.turn_seconds),
            metadata=authorization(self.token), timeout=CALL_SECONDS)
        match_id = created.match.match_id
        joined = self.stats.call("JoinMatch", self.match_stub.JoinMatch, mpb.JoinMatchRequest(match_id=match_id),
                                 metadata=authorization(self.token), timeout=CALL_SECONDS)
        self.stats.matches.add(match_id)
        return match_id, joined.seat_token

    def play(self, match_id: str, seat_token: str, stop_at: float) -> None:
        """Plays the seat through WatchMatch until the match finishes or the server ends the stream;
        leaves when the run ends or the match still waits for people after a while."""
        self.seat = (match_id, seat_token)
        last_version = -1
        waiting_since = time.monotonic()
        while True:
            opened = time.perf_counter()
            watch_until = min(stop_at, time.monotonic() + LONGEST_WATCH_SECONDS)
            stream = self.match_stub.WatchMatch(mpb.WatchMatchRequest(match_id=match_id, from_version=last_version),
                                                metadata=authorization(seat_token),
                                                timeout=max(0.5, watch_until - time.monotonic()))
            first = True
            dropped = False
            try:
                for update in stream:
                    if first:
                        self.stats.record_call("WatchMatch", time.perf_counter() - opened, None)
                        first = False
                    match = update.match
                    last_version = match.version
                    if match.status == mpb.MATCH_STATUS_FINISHED:
                        self.stats.finished.add(match_id)
                        self.seat = None
                        return
                    if match.status == mpb.MATCH_STATUS_RUNNING:
                        self.stats.started.add(match_id)
                    waited_too_long = (match.status == mpb.MATCH_STATUS_WAITING
                                       and time.monotonic() - waiting_since > self.habits.waiting_patience_seconds)
                    if time.monotonic() >= stop_at or waited_too_long:
                        self.leave()
                        return
                    if update.legal_actions:
                        time.sleep(self.rng.uniform(*self.habits.think_seconds))
                        self.submit(match_id, seat_token, update)
                    if self.rng.random() < self.habits.reconnect_chance:
                        dropped = True  # the connection drops; resume from the last version seen
                        break
            except grpc.RpcError as error:
                if error.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
                    self.stats.record_call("WatchMatch", time.perf_counter() - opened, error)
                    raise
                if time.monotonic() >= stop_at:
                    self.leave()  # the run is over
                    return
                continue  # a long watch, renewed from the last version seen
            finally:
                stream.cancel()
            if not dropped:
                self.seat = None  # the server ended the stream
                return
            self.stats.count("reconnects")

    def submit(self, match_id: str, seat_token: str, update: mpb.WatchMatchResponse) -> None:
        choice = self.rng.choice(update.legal_actions)
        request = mpb.SubmitActionRequest(match_id=match_id, action_id=choice.action_id,
                                          expected_version=update.match.version, request_id=uuid.uuid4().hex)
        try:
            response = self.stats.call("SubmitAction", self.match_stub.SubmitAction, request,
                                       metadata=authorization(seat_token), timeout=CALL_SECONDS)
        except grpc.RpcError:
            return  # stale (a timeout or a bot moved first): the next update brings the new turn
        self.stats.acknowledged(match_id, response.match.version, update.seat, choice.action_id)

    def leave(self) -> None:
        """Leaves the match being played, if any (a bot takes the seat over)."""
        if self.seat is None:
            return
        match_id, seat_token = self.seat
        self.seat = None
        try:
            self.stats.call("LeaveMatch", self.match_stub.LeaveMatch, mpb.LeaveMatchRequest(match_id=match_id),
                            metadata=authorization(seat_token), timeout=CALL_SECONDS)
        except grpc.RpcError:
            pass
