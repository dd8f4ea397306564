"""What the match service does, as plain async functions over a store, the engines and a bot
dispatcher. The servicer (service.py) only authenticates, validates and calls these.

Every change of a match (creation, join, action, leave, timeout) goes the same way: load the record,
check, compute the new record and its log entry, compare-and-set through the store, then schedule
its next deadline and dispatch a bot when a bot seat is to move.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from google.protobuf import any_pb2

from services.auth.accounts import name_is_still_theirs
from services.auth.tokens import BOT, PLAYER, SEAT, SERVICE, Identity, TokenSigner, player_identity
from services.kit import metrics
from services.kit.config import Config
from services.kit.errors import GameError
from services.kit.page_tokens import PageTokens
from services.kit.quotas import LIVE_MATCH_LEASE_MS, Charge, MemoryQuotaStore, Quotas, subject_of
from services.kit.validation import check_enum, check_id, check_range, check_text
from services.match.read_masks import READ_PATHS
from services.match.shared_reads import SharedReads
from services.match.store import MatchStore
from services.records.store import RecordsStore
from services.rules import registry
from services.rules.engine import Engine
from sizzle.common.v1 import common_pb2
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_store_pb2 as spb
from sizzle.rules.v1 import rules_service_pb2 as rpb

Reason = common_pb2.ErrorReason
log = logging.getLogger("sizzle.match")
HUMAN, BOT_SEAT = mpb.SEAT_KIND_HUMAN, mpb.SEAT_KIND_BOT
WAITING, RUNNING, FINISHED = mpb.MATCH_STATUS_WAITING, mpb.MATCH_STATUS_RUNNING, mpb.MATCH_STATUS_FINISHED
MAX_PAGE = 100
MAX_TURN_SECONDS = 7 * 24 * 3600  # a turn limit of a week is already generous for correspondence play
MAX_REQUEST_ID_CHARS = 128
# Seat changes a table takes while it waits: each join and leave is a log entry, and a replay or a
# watch from the start carries them all (11,000 join-and-leave rounds made a replay over the message
# limit); a real table fills in a few.
MAX_WAITING_VERSION = 200
DIFFICULTIES = tuple(v for v in mpb.Difficulty.values() if v != mpb.DIFFICULTY_UNSPECIFIED)


class BotDispatcher(Protocol):
    """Gets a bot to play `seat` of a match at `version` (in-process, or a Celery task)."""

    async def dispatch(self, match_id: str, seat: int, version: int, game_id: str) -> None: ...


def now_ms() -> int:
    return int(time.time() * 1000)


def visible_events(events: Sequence[common_pb2.Event], seat: int, everything: bool = False) -> list[common_pb2.Event]:
    """Events as `seat` may read them: another seat's secret text is removed."""
    out = []
    for event in events:
        if event.secret_text and not everything and event.secret_seat != seat:
            event = common_pb2.Event(seat=event.seat, text=event.text)
        out.append(event)
    return out


def bot_name(difficulty: int) -> str:
    """A bot seat's display name: "easy bot", "medium bot", "hard bot"."""
    return f"{mpb.Difficulty.Name(difficulty).removeprefix('DIFFICULTY_').lower()} bot"


def secrets_seat(match: mpb.Match, seat: int) -> int:
    """Whose secrets a caller holding `seat` may read: its seat's once the game runs, none while the
    table waits. The cards are dealt at creation and a waiting seat changes hands (a player leaves,
    the seat is open again), so a seat's view then would let anyone go round the open seats reading
    the hands the others will play."""
    return -1 if match.status == WAITING else seat


def digest(data: bytes) -> bytes:
    """8 bytes of SHA-256: what a log entry keeps of a request id and of the request."""
    return hashlib.sha256(data).digest()[:8]


def pack(message: Any) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


_ALL_FIELDS = frozenset(READ_PATHS[:-1])


def read_fields(mask: Any) -> frozenset[str]:
    """The GetMatchResponse fields a read mask asks for; INVALID_REQUEST for a path it cannot name."""
    if not mask.paths:
        return _ALL_FIELDS
    unknown = [path for path in mask.paths if path not in READ_PATHS]
    if unknown:
        raise GameError(Reason.ERROR_REASON_INVALID_REQUEST,
                        f"read_mask names {', '.join(map(repr, unknown))}; it may name {', '.join(READ_PATHS)}")
    return frozenset(mask.paths)


def not_found(match_id: str) -> GameError:
    return GameError(Reason.ERROR_REASON_UNKNOWN_MATCH, f"no match {match_id!r}", {"match_id": match_id})


def request_key(identity: Identity, match_id: str, seat: int, request_id: str) -> bytes:
    """What a log entry keeps of a SubmitAction's request id: scoped to the caller (the match, the
    seat, the token's kind and subject), so that another caller sending the same id, even a
    predictable bot id, makes a new request and never reads the first caller's answer."""
    return digest("\0".join((match_id, str(seat), identity.kind, identity.player_id, request_id)).encode())


# What a match's recorded rules version adds when its seed draws keyed numbers (a seed the server
# chose: services/rules/random_source.py). A replica that predates keyed draws knows no such version
# and refuses the match (RULES_VERSION) rather than deal it again from plain splitmix64.
KEYED_DRAWS = "+keyed"


def rules_unavailable(match: mpb.Match, served: str) -> GameError:
    return GameError(
        Reason.ERROR_REASON_RULES_VERSION,
        f"match {match.match_id} is played under {match.game_id} rules {match.rules_version}; this server has "
        f"{served}: another replica may have them",
        {"rules_version": match.rules_version, "served_rules_version": served},
    )


@dataclass(frozen=True)
class Actor:
    """Who acts on a match: a seat (through its seat token or the bot credential) or nobody."""

    seat: int
    is_bot: bool


@dataclass
class Loaded:
    """A match record with its engine and parsed game state."""

    record: spb.StoredMatch
    engine: Engine
    state: Any

    @property
    def match(self) -> mpb.Match:
        return self.record.match


class Matches:
    """The match service's behaviour; one per process, shared by its servicers and loops."""

    def __init__(self, config: Config, store: MatchStore, signer: TokenSigner,
                 clock: Callable[[], int] = now_ms, engines: Callable[[str], Engine] = registry.get_engine) -> None:
        self.config = config
        self.store = store
        self.signer = signer
        self.clock = clock
        self.engines = engines  # the rules this replica plays, by game id (one version per game)
        self.bots: BotDispatcher | None = None
        self.shared = SharedReads()  # what the watchers of one match read alike, read once
        self.page_tokens = PageTokens(config.token_key, "matches")
        self.history_tokens = PageTokens(config.token_key, "match history")
        self.quotas = Quotas(config, MemoryQuotaStore())  # the composition root gives the shared one
        self.records: RecordsStore | None = None  # the durable records, when this process keeps them

    # ------------------------------------------------------------------ loading
    async def load(self, match_id: str) -> Loaded:
        record = await self._record(match_id)
        engine = self.engine_for(record.match)
        return Loaded(record, engine, engine.State.FromString(record.state))

    async def _record(self, match_id: str) -> spb.StoredMatch:
        check_id("match_id", match_id)
        record = await self.store.load(match_id)
        if record is None:
            raise not_found(match_id)
        return record

    def engine_for(self, match: mpb.Match) -> Engine:
        """The engine of the match's rules; UNAVAILABLE (RULES_VERSION) when this replica has other
        rules (a match made before versions were recorded has none and takes today's)."""
        engine = self.engines(match.game_id)
        if match.rules_version and match.rules_version.removesuffix(KEYED_DRAWS) != engine.rules_version:
            raise rules_unavailable(match, engine.rules_version)
        return engine

    def _committed_here(self, match_id: str, version: int) -> Loaded | None:
        """The match at `version` when this process holds it (it committed that version or read it
        for its watchers), else None. A version never changes, so an action can be applied to it
        without a read: when the match has moved on meanwhile, the compare-and-set of the commit
        refuses it and the caller is answered as after a read."""
        loaded = self.shared.peek((match_id, "record", version))
        return loaded if loaded is not None and loaded.match.version == version else None

    # ------------------------------------------------------------------ identity
    def seat_of(self, identity: Identity | None, match: mpb.Match, bot_seat: int = -1) -> Actor | None:
        """The seat the caller acts for in this match, or None for a spectator."""
        if identity is None or identity.kind in (PLAYER, SERVICE):
            return None
        if identity.kind == BOT:
            if not 0 <= bot_seat < len(match.seats):
                raise GameError(Reason.ERROR_REASON_INVALID_SEAT, f"there is no seat {bot_seat} in this match")
            if match.seats[bot_seat].kind != BOT_SEAT:
                raise GameError(Reason.ERROR_REASON_WRONG_SEAT, f"seat {bot_seat} is not played by a bot")
            return Actor(bot_seat, True)
        if identity.match_id != match.match_id:
            raise GameError(Reason.ERROR_REASON_WRONG_SEAT, "the seat token is for another match")
        seat = match.seats[identity.seat] if 0 <= identity.seat < len(match.seats) else None
        if seat is None or seat.player_id != identity.player_id:
            raise GameError(Reason.ERROR_REASON_WRONG_SEAT, "the seat token is not for a seat of this match")
        if identity.sitting != seat.joined_version:
            raise GameError(Reason.ERROR_REASON_WRONG_SEAT, "the seat token is of an earlier sitting: the player "
                                                            "left this seat since (JoinMatch gives the new one)")
        if seat.kind != HUMAN:
            raise GameError(Reason.ERROR_REASON_WRONG_SEAT, "a bot plays this seat now (the player left or timed out)")
        return Actor(identity.seat, False)

    # ------------------------------------------------------------------ create / join
    async def create(self, identity: Identity, request: mpb.CreateMatchRequest,
                     peer: str = "") -> mpb.CreateMatchResponse:
        if identity.kind not in (PLAYER, SERVICE):
            raise GameError(Reason.ERROR_REASON_WRONG_SEAT, "creating a match needs a player or service token")
        engine = self.engines(check_id("game_id", request.game_id))
        seats = list(request.seats)
        engine.spec.check_player_count(len(seats))
        check_range("turn_seconds", request.turn_seconds, 0, MAX_TURN_SECONDS)
        if request.takeover_difficulty:
            check_enum("takeover_difficulty", request.takeover_difficulty, mpb.Difficulty, DIFFICULTIES)
        for index, spec in enumerate(seats):
            check_enum(f"seats[{index}].kind", spec.kind, mpb.SeatKind, (HUMAN, BOT_SEAT))
            if spec.difficulty:
                check_enum(f"seats[{index}].difficulty", spec.difficulty, mpb.Difficulty, DIFFICULTIES)
            check_id(f"seats[{index}].reserved_player_id", spec.reserved_player_id, required=False)
            check_text(f"seats[{index}].reserved_display_name", spec.reserved_display_name, 32)
            if spec.reserved_display_name and not spec.reserved_player_id:
                raise GameError(Reason.ERROR_REASON_INVALID_REQUEST,
                                f"seats[{index}].reserved_display_name names the player of reserved_player_id, "
                                "which is empty", {"field": f"seats[{index}].reserved_display_name"})
        seed = request.seed or secrets.randbits(63)
        keyed = not request.seed  # a seed no player knows stays unknown while the match runs
        state = engine.new_game(len(seats), dict(request.options), seed, keyed=keyed)
        created = self.clock()
        match = mpb.Match(
            match_id="m_" + secrets.token_hex(8),
            game_id=engine.game_id,
            options=engine.spec.resolve_options(dict(request.options)),
            status=WAITING,
            version=0,
            seat_to_move=state.core.seat_to_move,
            turn_seconds=request.turn_seconds,
            created_unix_ms=created,
            takeover_difficulty=request.takeover_difficulty or mpb.DIFFICULTY_MEDIUM,
            seed_fixed=request.seed != 0,
            rules_version=engine.rules_version + (KEYED_DRAWS if keyed else ""),
        )
        tokens: dict[int, str] = {}
        for index, spec in enumerate(seats):
            seat = match.seats.add(seat=index, kind=spec.kind)
            if spec.kind == BOT_SEAT:
                seat.difficulty = spec.difficulty or mpb.DIFFICULTY_MEDIUM
                seat.display_name = bot_name(seat.difficulty)
            elif spec.reserved_player_id:
                if identity.kind != SERVICE:
                    raise GameError(Reason.ERROR_REASON_WRONG_SEAT, "only a service may reserve seats for players")
                seat.player_id = spec.reserved_player_id
                seat.display_name = spec.reserved_display_name or spec.reserved_player_id
                tokens[index] = self.signer.seat_token(seat.player_id, seat.display_name, match.match_id, index)
        record = spb.StoredMatch(match=match, state=state.SerializeToString())
        address = subject_of(None, "", peer) if identity.kind == PLAYER and peer else None
        if identity.kind == PLAYER:
            await self._take_creation_quota(identity.player_id, match.match_id, address)
            record.creator_player_id = identity.player_id
        self._start_if_full(record, engine, state)
        entry = spb.LogEntry(version=0, seat=-1, action_id=-1, unix_ms=created, events=[
            common_pb2.Event(seat=-1, text=f"{engine.spec.display_name} for {len(seats)} created")],
            match=match, turn_deadline_unix_ms=match.turn_deadline_unix_ms)
        try:
            await self.store.create(record, entry)
        except GameError:
            if record.creator_player_id:  # nothing was made: the quotas it took are given back
                await self.quotas.release(f"player:{record.creator_player_id}", "live_matches", match.match_id)
                await self.quotas.uncreated_all(self._match_charges(record.creator_player_id, address))
            raise
        self.shared.put((match.match_id, "record", match.version), Loaded(record, engine, state))
        await self._after_commit(record, engine, state, previous=None)
        return mpb.CreateMatchResponse(match=record.match, seat_tokens=tokens)

    async def _take_creation_quota(self, player_id: str, match_id: str, address: str | None = None) -> None:
        """A player's quotas of matches: created this hour, and running at once (a match that ended
        without releasing its slot, on a replica that died, is found over and dropped); and the
        matches created from the caller's address this hour (guests are free: per player alone, a
        new guest each twenty matches made tables without end)."""
        async def still_live(other: str) -> bool:
            record = await self.store.load(other)
            return record is not None and record.match.status != FINISHED

        config, subject = self.config, f"player:{player_id}"
        held = await self.quotas.hold(subject, "live_matches", match_id, config.quota_live_matches,
                                      LIVE_MATCH_LEASE_MS, still_live)
        try:
            await self.quotas.created_all(self._match_charges(player_id, address))
        except GameError:
            if held:
                await self.quotas.release(subject, "live_matches", match_id)
            raise

    def _match_charges(self, player_id: str, address: str | None) -> list[Charge]:
        """What a new match counts against: its player's matches an hour, and its address's."""
        return [(f"player:{player_id}", "matches", self.config.quota_matches_per_hour),
                (address, "address_matches", self.config.quota_matches_per_hour_per_address)]

    def _start_if_full(self, record: spb.StoredMatch, engine: Engine, state: Any) -> None:
        match = record.match
        if match.status == WAITING and all(s.kind == BOT_SEAT or s.player_id for s in match.seats):
            match.status = RUNNING
            limit = engine.clock_limit_seconds(state)
            if limit:
                match.clock_deadline_unix_ms = self.clock() + int(limit * 1000)
            self._set_turn_deadline(match, previous_seat=None)

    async def join(self, identity: Identity, request: mpb.JoinMatchRequest) -> mpb.JoinMatchResponse:
        player_identity(identity, "JoinMatch")
        await name_is_still_theirs(self.records, identity)
        while True:
            loaded = await self.load(request.match_id)
            match = loaded.match
            mine = [s.seat for s in match.seats if s.player_id == identity.player_id and s.kind == HUMAN]
            if mine:  # already seated: joining again hands out the seat token again
                token = self.signer.seat_token(identity.player_id, identity.display_name, match.match_id, mine[0],
                                               match.seats[mine[0]].joined_version)
                return mpb.JoinMatchResponse(match=match, seat=mine[0], seat_token=token)
            if match.status != WAITING:
                raise GameError(Reason.ERROR_REASON_SEAT_UNAVAILABLE, "the match is no longer waiting for players")
            if match.version >= MAX_WAITING_VERSION:
                raise GameError(Reason.ERROR_REASON_SEAT_UNAVAILABLE,
                                f"this table's seats changed hands {match.version} times before it started; "
                                "it takes no more (create another)")
            if match.seed_fixed and not request.accept_fixed_seed \
                    and identity.player_id != loaded.record.creator_player_id:  # the creator chose it
                raise GameError(Reason.ERROR_REASON_FIXED_SEED,
                                "the creator chose this match's seed and can compute every hidden card; join with "
                                "accept_fixed_seed to play it anyway")
            open_seats = [s.seat for s in match.seats if s.kind == HUMAN and not s.player_id]
            if request.HasField("seat"):
                if not 0 <= request.seat < len(match.seats):
                    raise GameError(Reason.ERROR_REASON_INVALID_SEAT,
                                    f"there is no seat {request.seat} at this table of {len(match.seats)}")
                if request.seat not in open_seats:
                    raise GameError(Reason.ERROR_REASON_SEAT_UNAVAILABLE, f"seat {request.seat} is not open")
                seat = request.seat
            elif open_seats:
                seat = open_seats[0]
            else:
                raise GameError(Reason.ERROR_REASON_SEAT_UNAVAILABLE, "no open seat is left")
            record = spb.StoredMatch()
            record.CopyFrom(loaded.record)
            taken = record.match.seats[seat]
            taken.player_id = identity.player_id
            taken.display_name = identity.display_name
            taken.joined_version = match.version + 1  # the version this join makes
            self._start_if_full(record, loaded.engine, loaded.state)
            events = [common_pb2.Event(seat=seat, text=f"{identity.display_name} takes seat {seat}")]
            if record.match.status == RUNNING:
                events.append(common_pb2.Event(seat=-1, text="every seat is taken: the game starts"))
            result = await self._commit(loaded, record, loaded.state, seat, events)
            if result is not None:
                token = self.signer.seat_token(identity.player_id, identity.display_name, match.match_id, seat,
                                               taken.joined_version)
                return mpb.JoinMatchResponse(match=record.match, seat=seat, seat_token=token)

    # ------------------------------------------------------------------ reading
    @staticmethod
    def legal_actions_open(loaded: Loaded, seat: int) -> bool:
        """Whether `seat` has legal actions now (the match runs and the seat is to move)."""
        return loaded.match.status == RUNNING and seat >= 0 and loaded.state.core.seat_to_move == seat

    def legal_actions(self, loaded: Loaded, seat: int) -> list[rpb.LegalAction]:
        if not self.legal_actions_open(loaded, seat):
            return []
        return [
            rpb.LegalAction(action_id=i, action=pack(a), description=d)
            for i, a, d in loaded.engine.legal_action_descriptions(loaded.state)
        ]

    async def get(self, identity: Identity | None, request: mpb.GetMatchRequest) -> mpb.GetMatchResponse:
        fields = read_fields(request.read_mask)
        record = await self._record(request.match_id)
        actor = self.seat_of(identity, record.match, request.seat)
        seat = actor.seat if actor else -1
        try:
            engine = self.engine_for(record.match)
        except GameError:
            if record.match.status != FINISHED:
                raise
            # A finished match keeps its outcome in its resource: it reads without its rules (no view).
            return mpb.GetMatchResponse(match=record.match if "match" in fields else None, seat=seat)
        loaded = Loaded(record, engine, engine.State.FromString(record.state))
        response = mpb.GetMatchResponse()
        if "match" in fields:
            response.match.CopyFrom(loaded.match)
        if "seat" in fields:
            response.seat = seat
        if "view" in fields or "rendering" in fields:
            view = loaded.engine.view(loaded.state, secrets_seat(loaded.match, seat))
            if "view" in fields:
                response.view.Pack(view)
            if "rendering" in fields:
                response.rendering = loaded.engine.render(view)
        if "legal_actions" in fields:
            response.legal_actions.extend(self.legal_actions(loaded, seat))
        elif "legal_actions.action_id" in fields and self.legal_actions_open(loaded, seat):
            ids = loaded.engine.legal_actions(loaded.state)
            response.legal_actions.extend(rpb.LegalAction(action_id=i) for i in ids)
        return response

    async def bot_turn(self, match_id: str, seat: int) -> tuple[Loaded, Any, list[int]]:
        """What a bot playing `seat` sees: the match, its view, its legal action ids."""
        loaded = await self.load(match_id)
        if loaded.match.seats[seat].kind != BOT_SEAT:
            raise GameError(Reason.ERROR_REASON_WRONG_SEAT, f"seat {seat} is not played by a bot")
        view = loaded.engine.view(loaded.state, seat)
        legal = loaded.engine.legal_actions(loaded.state, seat) if loaded.match.status == RUNNING else []
        return loaded, view, legal

    async def list_matches(self, request: mpb.ListMatchesRequest) -> mpb.ListMatchesResponse:
        if request.game_id:
            self.engines(check_id("game_id", request.game_id))
        check_enum("status", request.status, mpb.MatchStatus)
        size = request.page_size or 20
        check_range("page_size", size, 1, MAX_PAGE)
        query = f"{request.game_id}|{request.status}"
        cursor = self.page_tokens.read(request.page_token, query)
        page = await self.store.list_matches(request.game_id, request.status, cursor, size)
        return mpb.ListMatchesResponse(matches=[r.match for r in page.records],
                                       next_page_token=self.page_tokens.issue(page.next_cursor, query))

    # ------------------------------------------------------------------ acting
    async def submit(self, identity: Identity, request: mpb.SubmitActionRequest) -> mpb.SubmitActionResponse:
        if not request.request_id:
            raise GameError(Reason.ERROR_REASON_INVALID_REQUEST, "request_id is required", {"field": "request_id"})
        check_text("request_id", request.request_id, MAX_REQUEST_ID_CHARS)
        check_id("match_id", request.match_id)
        which = request.WhichOneof("action")
        if which is None:
            raise GameError(Reason.ERROR_REASON_MALFORMED_ACTION, "give the action as `structured` or `action_id`")
        if identity.kind not in (SEAT, BOT):
            raise GameError(Reason.ERROR_REASON_WRONG_SEAT, "submitting needs a seat token or the bot credential")
        acting_seat = identity.seat if identity.kind == SEAT else request.seat
        key = request_key(identity, request.match_id, acting_seat, request.request_id)
        request_hash = digest(request.SerializeToString(deterministic=True))
        held = self._committed_here(request.match_id, request.expected_version)
        if held is not None:
            # The version the request names is held here: no read. A refusal or a lost race is decided
            # again below on the latest version, so every answer is the one a read would have given.
            with contextlib.suppress(GameError):
                actor = self.seat_of(identity, held.match, request.seat)
                assert actor is not None
                prepared = self._prepared(held, actor, request)
                answer = await self._committed_action(held, actor, request, prepared, (key, request_hash))
                if answer is not None:
                    return answer
        loaded = await self.load(request.match_id)
        actor = self.seat_of(identity, loaded.match, request.seat)
        assert actor is not None
        if request.expected_version != loaded.match.version:
            # A retry of a request that was applied sees a newer version: answer it as the first time.
            # The key names the caller, so only the caller that made the request finds its answer.
            prior = await self.store.answer(request.match_id, key, request.expected_version + 1)
            if prior is not None:
                return await self._replayed(loaded, prior, request_hash)
        game = loaded.match.game_id
        try:
            prepared = self._prepared(loaded, actor, request)
        except GameError as error:
            metrics.ACTIONS_REJECTED.labels(game, error.reason_name).inc()
            raise
        answer = await self._committed_action(loaded, actor, request, prepared, (key, request_hash))
        if answer is None:
            prior = await self.store.answer(request.match_id, key, request.expected_version + 1)
            if prior is not None:
                return await self._replayed(await self.load(request.match_id), prior, request_hash)
            current = (await self.load(request.match_id)).match.version
            metrics.ACTIONS_REJECTED.labels(game, "STALE_VERSION").inc()
            raise GameError(Reason.ERROR_REASON_STALE_VERSION, f"the match moved on to version {current}",
                            {"current_version": str(current)})
        return answer

    def _prepared(self, loaded: Loaded, actor: Actor, request: mpb.SubmitActionRequest) -> tuple[Any, Any, list[Any]]:
        """The request's action applied to a copy of the loaded state: (action, new state, events).
        A refusal raises GameError."""
        match = loaded.match
        if match.status == FINISHED:
            raise GameError(Reason.ERROR_REASON_GAME_OVER, "the match is over")
        if match.status == WAITING:
            raise GameError(Reason.ERROR_REASON_MATCH_NOT_STARTED, "the match is waiting for players")
        if request.expected_version != match.version:
            raise GameError(Reason.ERROR_REASON_STALE_VERSION,
                            f"the match is at version {match.version}, not {request.expected_version}",
                            {"current_version": str(match.version)})
        if request.WhichOneof("action") == "action_id":
            action: Any = request.action_id
        else:
            from services.rules.service import unpack_action

            action = unpack_action(loaded.engine, request.structured)
        state = loaded.engine.State()
        state.CopyFrom(loaded.state)
        events = loaded.engine.apply(state, actor.seat, action)
        return action, state, events

    async def _committed_action(self, loaded: Loaded, actor: Actor, request: mpb.SubmitActionRequest,
                                prepared: tuple[Any, Any, list[Any]],
                                request_digests: tuple[bytes, bytes]) -> mpb.SubmitActionResponse | None:
        """Commits a prepared action on top of `loaded`: the answer, or None when the match moved on
        first (the compare-and-set refused it)."""
        action, state, events = prepared
        structured = request.WhichOneof("action") == "structured"
        action_id = loaded.engine.action_to_id(loaded.state, actor.seat, action) if structured else action
        record = spb.StoredMatch()
        record.CopyFrom(loaded.record)
        response = mpb.SubmitActionResponse(events=visible_events(events, actor.seat))
        result = await self._commit(
            loaded, record, state, actor.seat, events, action_id=-1 if action_id is None else action_id,
            structured=action if structured else None, request=request_digests, response=response,
        )
        if result is None:
            return None
        metrics.ACTIONS_APPLIED.labels(loaded.match.game_id, "bot" if actor.is_bot else "human").inc()
        return response

    async def _replayed(self, loaded: Loaded, prior: spb.LogEntry, request_hash: bytes) -> mpb.SubmitActionResponse:
        """The answer to a repeated request id, as the first answer was: the events its action made and
        the match at the version it made, both made again from the log."""
        if prior.request_hash != request_hash:
            raise GameError(Reason.ERROR_REASON_REQUEST_ID_REUSED, "this request_id was used for another request")
        engine = loaded.engine
        state = self._initial_state(loaded)
        resource = loaded.match  # a match logged before resources were kept in its log: the closest there is
        for entry in await self.store.log(loaded.match.match_id, -1):
            if entry.version >= prior.version:
                break
            self._advance(engine, state, entry)
            if entry.HasField("match"):
                resource = entry.match
        events, _ = self._advance(engine, state, prior)
        match = mpb.Match()
        match.CopyFrom(resource)
        match.version = prior.version
        match.seat_to_move = state.core.seat_to_move
        match.turn_deadline_unix_ms = prior.turn_deadline_unix_ms
        if state.core.game_over:
            match.status = FINISHED
            match.clock_deadline_unix_ms = 0
            outcome = engine.outcome(state)
            if outcome is not None:
                match.outcome.CopyFrom(outcome)
        return mpb.SubmitActionResponse(match=match, events=visible_events(events, prior.seat))

    # ------------------------------------------------------------------ the log made whole again
    @staticmethod
    def _advance(engine: Engine, state: Any, entry: spb.LogEntry, want_action: bool = False) -> tuple[
            list[common_pb2.Event], Any]:
        """Brings `state`, the state before `entry`, to the entry's version in place; returns the
        entry's events and, when asked, its action message (None when the entry is no action)."""
        if entry.replayable:
            if entry.action:
                action: Any = engine.Action.FromString(entry.action)
                return engine.apply(state, entry.seat, action), action
            action = engine.id_to_action(state, entry.seat, entry.action_id) if want_action else None
            return engine.apply(state, entry.seat, entry.action_id), action
        if entry.clock_ended:
            engine.end_by_clock(state)
        return list(entry.events), None

    def _advance_to(self, engine: Engine, state: Any, entries: list[spb.LogEntry], upto: int) -> list[
            common_pb2.Event]:
        """Advances `state` through the entries up to version `upto`; returns their events."""
        made: list[common_pb2.Event] = []
        for entry in entries:
            if entry.version <= upto:
                made.extend(self._advance(engine, state, entry)[0])
        return made

    @staticmethod
    def _initial_state(loaded: Loaded) -> Any:
        """The match's game state at creation, made again from its seed (engines are deterministic)."""
        core = loaded.state.core
        return loaded.engine.new_game(core.num_players, dict(loaded.match.options), core.seed,
                                      keyed=bool(core.random.key))

    async def _state_at(self, loaded: Loaded, version: int) -> tuple[Any, list[spb.LogEntry]]:
        """The game state at `version`, made again from the seed and the log, with the log entries
        after it."""
        state = self._initial_state(loaded)
        entries = await self.store.log(loaded.match.match_id, -1)
        self._advance_to(loaded.engine, state, entries, version)
        return state, [entry for entry in entries if entry.version > version]

    async def leave(self, identity: Identity, match_id: str, seat: int | None = None) -> mpb.LeaveMatchResponse:
        loaded = await self.load(match_id)
        if identity.kind == SERVICE:
            return await self._release(loaded, seat)
        if identity.kind == BOT:
            raise GameError(Reason.ERROR_REASON_WRONG_SEAT, "the bot credential leaves no seat")
        actor = self.seat_of(identity, loaded.match)
        if actor is None:
            raise GameError(Reason.ERROR_REASON_WRONG_SEAT, "leaving needs the seat token")
        if seat is not None and seat != actor.seat:
            raise GameError(Reason.ERROR_REASON_WRONG_SEAT, f"the seat token is for seat {actor.seat}, not {seat}")
        if loaded.match.status == FINISHED:
            raise GameError(Reason.ERROR_REASON_GAME_OVER, "the match is over")
        if loaded.match.status == WAITING:  # before the game: the seat is open again, for anyone
            record = await self._free_seat(loaded, actor.seat)
        else:
            record = await self._take_over(loaded, actor.seat, "leaves")
        if record is None:
            return await self.leave(identity, match_id)
        return mpb.LeaveMatchResponse(match=record.match)

    async def _release(self, loaded: Loaded, seat: int | None) -> mpb.LeaveMatchResponse:
        """A service gives up a seat it reserved in a match whose player was never told of it (the
        matchmaker's group fell apart while the match was made): a bot plays it, and the player's id
        goes with it, so the match is in no one's history (a cancelled ticket's player found it
        there: a black-box audit)."""
        match = loaded.match
        if seat is None:
            raise GameError(Reason.ERROR_REASON_INVALID_SEAT, "a service names the seat whose reservation it gives up")
        if not 0 <= seat < len(match.seats):
            raise GameError(Reason.ERROR_REASON_INVALID_SEAT, f"there is no seat {seat} in this match")
        if match.status == FINISHED:
            raise GameError(Reason.ERROR_REASON_GAME_OVER, "the match is over")
        if match.seats[seat].kind != HUMAN or not match.seats[seat].player_id:
            return mpb.LeaveMatchResponse(match=match)  # released already (a retry), or never reserved
        record = await self._take_over(loaded, seat, "", never_theirs=True)
        if record is None:
            return await self._release(await self.load(match.match_id), seat)
        return mpb.LeaveMatchResponse(match=record.match)

    async def _free_seat(self, loaded: Loaded, seat: int) -> spb.StoredMatch | None:
        """A waiting match's seat given up: open for a person again (a seat left to a bot before the
        game would let one player take a table's every seat, or anyone turn a stranger's into a bot)."""
        record = spb.StoredMatch()
        record.CopyFrom(loaded.record)
        freed = record.match.seats[seat]
        name = freed.display_name or f"seat {seat}"
        freed.player_id = ""
        freed.display_name = ""
        freed.joined_version = 0
        events = [common_pb2.Event(seat=seat, text=f"{name} leaves seat {seat}; it is open again")]
        result = await self._commit(loaded, record, loaded.state, -1, events, keep_deadline=False)
        return record if result is not None else None

    async def _take_over(self, loaded: Loaded, seat: int, why: str,
                         never_theirs: bool = False) -> spb.StoredMatch | None:
        """A bot plays `seat` from now on; the record committed, or None when the match moved on. A
        person's seat stays theirs (taken over: they are rated on the bot's result); a reservation
        given up (`never_theirs`) becomes a plain bot seat, in no one's history."""
        record = spb.StoredMatch()
        record.CopyFrom(loaded.record)
        taken = record.match.seats[seat]
        name = taken.display_name or f"seat {seat}"
        taken.kind = BOT_SEAT
        taken.difficulty = record.match.takeover_difficulty or mpb.DIFFICULTY_MEDIUM
        if never_theirs:
            taken.player_id = ""
            taken.display_name = bot_name(taken.difficulty)
            text = f"seat {seat}'s player is not coming; a bot plays it"
        else:
            taken.taken_over = True
            text = f"{name} {why}; a bot plays seat {seat} from now on"
        self._start_if_full(record, loaded.engine, loaded.state)
        events = [common_pb2.Event(seat=seat, text=text)]
        result = await self._commit(loaded, record, loaded.state, -1, events, keep_deadline=False)
        return record if result is not None else None

    # ------------------------------------------------------------------ the one way to change a match
    def _set_turn_deadline(self, match: mpb.Match, previous_seat: int | None, keep: bool = True) -> None:
        seat = match.seat_to_move
        if match.status != RUNNING or seat < 0:
            match.turn_deadline_unix_ms = 0
            return
        if match.seats[seat].kind == BOT_SEAT:
            match.turn_deadline_unix_ms = self.clock() + int(self.config.bot_turn_timeout_seconds * 1000)
        elif match.turn_seconds <= 0:
            match.turn_deadline_unix_ms = 0
        elif not keep or previous_seat != seat or not match.turn_deadline_unix_ms:
            match.turn_deadline_unix_ms = self.clock() + match.turn_seconds * 1000

    @staticmethod
    def _next_deadline(match: mpb.Match) -> int:
        if match.status != RUNNING:
            return 0
        deadlines = [d for d in (match.turn_deadline_unix_ms, match.clock_deadline_unix_ms) if d]
        return min(deadlines) if deadlines else 0

    async def _commit(
        self, loaded: Loaded, record: spb.StoredMatch, state: Any, seat: int, events: list[common_pb2.Event], *,
        action_id: int = -1, structured: Any = None, request: tuple[bytes, bytes] = (b"", b""),
        response: mpb.SubmitActionResponse | None = None, keep_deadline: bool = True, clock_ended: bool = False,
    ) -> int | None:
        """Writes the new record if nobody changed the match meanwhile. Returns the new version or None.

        An action (`action_id` >= 0 or `structured`) is logged without its events: they are made again
        from the state before it (see `_advance`), which keeps a match's log small in the store."""
        match = record.match
        previous_seat = loaded.match.seat_to_move
        previous_status = loaded.match.status
        match.version = loaded.match.version + 1
        match.seat_to_move = state.core.seat_to_move
        if state.core.game_over and match.status != FINISHED:
            match.status = FINISHED
            outcome = loaded.engine.outcome(state)
            if outcome is not None:
                match.outcome.CopyFrom(outcome)
        self._set_turn_deadline(match, previous_seat if previous_status == RUNNING else None, keep_deadline)
        if match.status == FINISHED:
            match.clock_deadline_unix_ms = 0
        record.state = state.SerializeToString()
        entry = spb.LogEntry(version=match.version, seat=seat, action_id=action_id, unix_ms=self.clock(),
                             request_key=request[0], request_hash=request[1], clock_ended=clock_ended,
                             turn_deadline_unix_ms=match.turn_deadline_unix_ms)
        if structured is not None or action_id >= 0:
            entry.replayable = True
            if structured is not None:  # applied again exactly as the client sent it
                entry.action = structured.SerializeToString()
        else:
            entry.events.extend(events)
            entry.match.CopyFrom(match)  # seats change only in entries like this one (see LogEntry.match)
        if response is not None:
            response.match.CopyFrom(match)
        # The deadline is scheduled first (in the same round trip): a crash right after the commit
        # still leaves it.
        result = await self.store.commit(record, loaded.match.version, entry, previous_status,
                                         deadline_unix_ms=self._next_deadline(match))
        if not result.committed:
            return None
        # This process's watchers of the match take the new version from here, not from the store.
        self.shared.put((match.match_id, "record", match.version), Loaded(record, loaded.engine, state))
        self.shared.put((match.match_id, "events", match.version - 1, match.version), events)
        await self._after_commit(record, loaded.engine, state, previous=loaded.match)
        return result.current_version

    async def _after_commit(self, record: spb.StoredMatch, engine: Engine, state: Any,
                            previous: mpb.Match | None) -> None:
        match = record.match
        if match.status == FINISHED and previous is not None and previous.status != FINISHED \
                and record.creator_player_id:
            with contextlib.suppress(GameError):  # the slot's lease lapses anyway
                await self.quotas.release(f"player:{record.creator_player_id}", "live_matches", match.match_id)
        if not self._next_deadline(match) and (previous is None or self._next_deadline(previous)):
            await self.store.schedule(match.match_id, 0)
        elif previous is None:
            await self.store.schedule(match.match_id, self._next_deadline(match))
        seat = match.seat_to_move
        if match.status == RUNNING and seat >= 0 and match.seats[seat].kind == BOT_SEAT and self.bots is not None:
            await self.bots.dispatch(match.match_id, seat, match.version, match.game_id)

    # ------------------------------------------------------------------ deadlines
    async def on_deadline(self, match_id: str) -> None:
        """Acts on a due deadline: the game clock, a person's turn (a bot takes the seat), or a bot
        turn that was never played (dispatched again)."""
        record = await self.store.load(match_id)
        if record is None or record.match.status != RUNNING:
            await self.store.schedule(match_id, 0)
            return
        match = record.match
        now = self.clock()
        due = self._next_deadline(match)
        if not due or due > now:  # not yet, or a stale entry of a version that had a deadline: none now
            await self.store.schedule(match_id, due)
            return
        loaded = await self.load(match_id)
        if match.clock_deadline_unix_ms and match.clock_deadline_unix_ms <= now:
            state = loaded.engine.State()
            state.CopyFrom(loaded.state)
            events = loaded.engine.end_by_clock(state)
            new = spb.StoredMatch()
            new.CopyFrom(record)
            await self._commit(loaded, new, state, -1, [common_pb2.Event(seat=-1, text="time is up"), *events],
                               clock_ended=True)
            return
        seat = match.seat_to_move
        if match.seats[seat].kind == HUMAN:
            await self._take_over(loaded, seat, "ran out of time")
            return
        await self.store.schedule(match_id, now + int(self.config.bot_turn_timeout_seconds * 1000))
        if self.bots is not None:
            log.info("bot turn of %s seat %d at version %d dispatched again", match_id, seat, match.version)
            await self.bots.dispatch(match_id, seat, match.version, match.game_id)

    # ------------------------------------------------------------------ watching and replays
    async def watch(self, identity: Identity | None, request: mpb.WatchMatchRequest) -> AsyncIterator[
            mpb.WatchMatchResponse]:
        match_id = request.match_id
        loaded = await self.load(match_id)
        actor = self.seat_of(identity, loaded.match) if identity is None or identity.kind != BOT else None
        seat = actor.seat if actor else -1
        last = max(request.from_version, -1)
        made: list[common_pb2.Event] = []
        if last < loaded.match.version:  # a watcher that resumes: what it missed, made again
            state, missed = await self._state_at(loaded, last)
            made = self._advance_to(loaded.engine, state, missed, loaded.match.version)
        async with self.store.watching(match_id):
            while True:
                reader = secrets_seat(loaded.match, seat)
                view, rendering, legal = await self._seat_view(loaded, reader)
                yield mpb.WatchMatchResponse(match=loaded.match, events=visible_events(made, reader), view=view,
                                             rendering=rendering, legal_actions=legal, seat=seat)
                last = loaded.match.version
                if loaded.match.status == FINISHED:
                    return
                version = last
                while version <= last:
                    version = await self.store.wait(match_id, last, timeout=5.0)
                    if version < 0:
                        raise not_found(match_id)  # expired while watched
                before = loaded
                loaded = await self.shared.get((match_id, "record", version), lambda: self.load(match_id))
                if actor is not None:  # still the caller's seat? (left, or taken over on a deadline: no more of it)
                    self.seat_of(identity, loaded.match)
                upto = loaded.match.version
                made = await self.shared.get((match_id, "events", last, upto),
                                             partial(self._events_after, before, upto))

    async def _events_after(self, before: Loaded, upto: int) -> list[common_pb2.Event]:
        """The events of the versions after `before` up to `upto`, made again from `before`'s state
        (all of them are in the log once the record is at `upto`)."""
        state = before.engine.State()
        state.CopyFrom(before.state)
        return self._advance_to(before.engine, state, await self.store.log(before.match.match_id, before.match.version),
                                upto)

    async def _seat_view(self, loaded: Loaded, seat: int) -> tuple[any_pb2.Any, str, list[rpb.LegalAction]]:
        """A seat's packed view, its rendering and its legal actions at the loaded version."""
        async def build() -> tuple[any_pb2.Any, str, list[rpb.LegalAction]]:
            view = loaded.engine.view(loaded.state, seat)
            return pack(view), loaded.engine.render(view), self.legal_actions(loaded, seat)

        return await self.shared.get((loaded.match.match_id, "view", loaded.match.version, seat), build)  # type: ignore[no-any-return]

    async def _replay_source(self, match_id: str) -> tuple[Loaded, list[spb.LogEntry]]:
        """The match and its whole log: from the live store, else (a finished match gone from it)
        from the durable records."""
        try:
            loaded = await self.load(match_id)
        except GameError as error:
            if error.reason != Reason.ERROR_REASON_UNKNOWN_MATCH or self.records is None:
                raise
            finished = await self.records.get_match(match_id)
            if finished is None:
                raise
            engine = self.engine_for(finished.match)
            record = spb.StoredMatch(match=finished.match, state=finished.state,
                                     creator_player_id=finished.creator_player_id)
            return Loaded(record, engine, engine.State.FromString(finished.state)), finished.log
        return loaded, await self.store.log(match_id, -1)

    async def replay(self, identity: Identity | None, match_id: str) -> mpb.GetReplayResponse:
        """The log made again from the seed: a match whose rules this replica lacks answers
        UNAVAILABLE (RULES_VERSION) rather than a replay under other rules. A finished match is read
        from the durable records once the live store has let it go."""
        loaded, entries = await self._replay_source(match_id)
        complete = loaded.match.status == FINISHED
        actor = None if complete or identity is None or identity.kind == BOT else self.seat_of(identity, loaded.match)
        seat = secrets_seat(loaded.match, actor.seat) if actor else -1
        response = mpb.GetReplayResponse(match=loaded.match, complete=complete,
                                         num_players=loaded.state.core.num_players,
                                         keyed_draws=bool(loaded.state.core.random.key))
        if complete:
            response.seed = loaded.state.core.seed
        state = self._initial_state(loaded)
        for entry in entries:
            events, action = self._advance(loaded.engine, state, entry, want_action=complete)
            step = response.steps.add(version=entry.version, seat=entry.seat, unix_ms=entry.unix_ms,
                                      events=visible_events(events, seat, everything=complete))
            if complete and action is not None:
                step.action_id = entry.action_id
                step.action.Pack(action)
        return response

    async def history(self, identity: Identity | None,
                      request: mpb.ListMatchHistoryRequest) -> mpb.ListMatchHistoryResponse:
        """A player's finished matches from the durable records, newest first."""
        player_id = check_id("player_id", request.player_id, required=False)
        if not player_id:
            player_id = player_identity(identity, "ListMatchHistory without a player_id").player_id
        if request.game_id:
            self.engines(check_id("game_id", request.game_id))
        size = request.page_size or 20
        check_range("page_size", size, 1, MAX_PAGE)
        if self.records is None:
            raise GameError(Reason.ERROR_REASON_STORE_UNAVAILABLE,
                            "this server keeps no match history (it has no records database: SIZZLE_RECORDS_URL)")
        query = f"{player_id}|{request.game_id}"
        cursor = self.history_tokens.read(request.page_token, query)
        page = await self.records.history(player_id, request.game_id, cursor, size)
        return mpb.ListMatchHistoryResponse(
            entries=[mpb.MatchHistoryEntry(match=e.match, seat=e.seat, finished_unix_ms=e.finished_unix_ms)
                     for e in page.entries],
            next_page_token=self.history_tokens.issue(page.next_cursor, query))

    async def refresh_live_gauge(self) -> None:
        for game_id in registry.game_ids():
            metrics.LIVE_MATCHES.labels(game_id).set(await self.store.count(game_id, RUNNING))
