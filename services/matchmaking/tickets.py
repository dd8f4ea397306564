"""What the matchmaking service does for its callers, as plain async functions over the store: tickets
(create, read, cancel, watch) and ratings (a player's, the leaderboard). The servicer only
authenticates and calls these; the matchmaker loop (matchmaker.py) does the seating."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

from services.auth.accounts import name_is_still_theirs
from services.auth.tokens import Identity, player_identity
from services.kit.config import Config
from services.kit.errors import GameError
from services.kit.page_tokens import PageTokens
from services.kit.quotas import Charge, MemoryQuotaStore, Quotas, subject_of
from services.kit.validation import check_id, check_range
from services.matchmaking.model import BOT_PREFIX, new_ticket_id
from services.matchmaking.ratings import bot_difficulty, record_from, record_of
from services.matchmaking.store import MatchmakingStore, wall_ms
from services.records.store import RecordsStore
from services.rules import registry
from sizzle.common.v1 import common_pb2
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb

Reason = common_pb2.ErrorReason
MAX_PAGE = 100
MAX_PLAYER_COUNTS = 16  # more entries than any game has table sizes
# A watcher re-reads its ticket at least this often, whatever pub/sub delivers.
WATCH_POLL_SECONDS = 2.0
FINAL = (mmpb.TICKET_STATUS_ASSIGNED, mmpb.TICKET_STATUS_CANCELLED, mmpb.TICKET_STATUS_EXPIRED)


def unknown_ticket(ticket_id: str) -> GameError:
    return GameError(Reason.ERROR_REASON_UNKNOWN_TICKET, f"no ticket {ticket_id!r} (it may have expired)",
                     {"ticket_id": ticket_id})


def player_of(identity: Identity | None) -> Identity:
    return player_identity(identity, "this call")


class Tickets:
    def __init__(self, config: Config, store: MatchmakingStore, clock: Callable[[], int] = wall_ms) -> None:
        self.config = config
        self.store = store
        self.clock = clock
        self.page_tokens = PageTokens(config.token_key, "leaderboard")
        self.quotas = Quotas(config, MemoryQuotaStore())  # the composition root gives the shared one
        self.records: RecordsStore | None = None  # the ratings' home when kept; the store is then a cache

    # ---------------------------------------------------------------- tickets
    async def create(self, identity: Identity | None, request: mmpb.CreateTicketRequest, peer: str = "") -> mmpb.Ticket:
        player = player_of(identity)
        engine = registry.get_engine(check_id("game_id", request.game_id))
        spec = engine.spec
        if len(request.player_counts) > MAX_PLAYER_COUNTS:
            raise GameError(Reason.ERROR_REASON_INVALID_REQUEST,
                            f"player_counts has more than {MAX_PLAYER_COUNTS} entries", {"field": "player_counts"})
        counts = sorted(set(request.player_counts)) or list(range(spec.min_players, spec.max_players + 1))
        for count in counts:
            spec.check_player_count(count)
        if request.max_wait_seconds < 0:  # a longer wait than the tickets' lifetime is capped to it
            raise GameError(Reason.ERROR_REASON_INVALID_REQUEST, "max_wait_seconds cannot be negative",
                            {"field": "max_wait_seconds"})
        wait = min(request.max_wait_seconds or self.config.ticket_default_wait_seconds, self.config.ticket_ttl_seconds)
        await name_is_still_theirs(self.records, player)  # after the checks that read no store
        stored = await self.store.get_ratings(spec.game_id, [player.player_id])
        rating = record_of(spec.game_id, player.player_id, stored.get(player.player_id))
        now = self.clock()
        deadline = now + wait * 1000
        expires = deadline + (self.config.ticket_fill_grace_seconds * 1000 if request.allow_bots else 0)
        ticket = mmpb.Ticket(
            ticket_id=new_ticket_id(spec.game_id), player_id=player.player_id, display_name=player.display_name,
            game_id=spec.game_id, player_counts=counts, allow_bots=request.allow_bots, max_wait_seconds=wait,
            status=mmpb.TICKET_STATUS_WAITING, created_unix_ms=now, wait_deadline_unix_ms=deadline,
            expires_unix_ms=expires, rating=rating.mu,
        )
        # A ticket may make a match (one with bots does, at once), so it takes the quotas CreateMatch
        # takes of its player and address as well as its own: matchmaking creates matches with the
        # service's credential, which no quota limits (a black-box audit: one guest refused by
        # CreateMatch ran six tables in a row through tickets). A ticket that makes none keeps them.
        charges: list[Charge] = [
            (f"player:{player.player_id}", "tickets", self.config.quota_tickets_per_hour),
            (f"player:{player.player_id}", "matches", self.config.quota_matches_per_hour),
            (subject_of(None, "", peer) if peer else None, "address_matches",
             self.config.quota_matches_per_hour_per_address)]
        await self.quotas.created_all(charges)
        # The record outlives its expiry by the result time, then Redis removes it whatever happened.
        keep = expires - now + self.config.ticket_result_ttl_seconds * 1000
        try:
            existing = await self.store.create_ticket(ticket, keep)
        except GameError:
            await self.quotas.uncreated_all(charges)
            raise
        if existing:
            await self.quotas.uncreated_all(charges)
            raise GameError(Reason.ERROR_REASON_TICKET_EXISTS, f"you already hold ticket {existing} for {spec.game_id}",
                            {"ticket_id": existing})
        return ticket

    async def _owned(self, identity: Identity, ticket_id: str) -> mmpb.Ticket:
        check_id("ticket_id", ticket_id)
        stored = await self.store.get_ticket(ticket_id)
        if stored is None or stored.ticket.player_id != identity.player_id:
            raise unknown_ticket(ticket_id)  # another player's ticket is not shown to exist
        return stored.ticket

    async def get(self, identity: Identity | None, ticket_id: str) -> mmpb.Ticket:
        return await self._owned(player_of(identity), ticket_id)

    async def cancel(self, identity: Identity | None, ticket_id: str) -> mmpb.Ticket:
        player = player_of(identity)
        await self._owned(player, ticket_id)
        stored = await self.store.cancel_ticket(ticket_id, self.clock(), self.config.ticket_result_ttl_seconds * 1000)
        if stored is None:
            raise unknown_ticket(ticket_id)
        return stored.ticket

    async def watch(self, identity: Identity | None, ticket_id: str) -> AsyncIterator[mmpb.Ticket]:
        player = player_of(identity)
        async with self.store.changes(ticket_id) as waiter:  # subscribed before the first read
            last = await self._owned(player, ticket_id)
            yield last
            while last.status not in FINAL:
                await waiter.wait(WATCH_POLL_SECONDS)  # (the notifier's wait never fails: it times out)
                # The store away, the stream waits for it as WatchMatch's does, so a ticket lost with it
                # ends EXPIRED (ended here, the client's retried watch found no ticket, never EXPIRED).
                try:
                    stored = await self.store.get_ticket(ticket_id)
                except GameError as error:
                    if error.reason != Reason.ERROR_REASON_STORE_UNAVAILABLE:
                        raise
                    await asyncio.sleep(WATCH_POLL_SECONDS)
                    continue
                if stored is None:  # expired and removed (or lost with the store)
                    gone = mmpb.Ticket()
                    gone.CopyFrom(last)
                    gone.status = mmpb.TICKET_STATUS_EXPIRED
                    yield gone
                    return
                if stored.ticket != last:
                    last = stored.ticket
                    yield last

    # ---------------------------------------------------------------- ratings
    def _rating(self, game_id: str, player_id: str, raw: str | None, rank: int | None, name: str = "") -> mmpb.Rating:
        record = record_of(game_id, player_id, raw)
        return mmpb.Rating(player_id=player_id, display_name=record.name or name, game_id=game_id, mu=record.mu,
                           sigma=record.sigma, ordinal=record.ordinal, matches_played=record.matches,
                           rank=0 if rank is None else rank + 1)

    async def rating(self, identity: Identity | None, request: mmpb.GetRatingRequest) -> mmpb.Rating:
        game_id = registry.get_engine(check_id("game_id", request.game_id)).game_id
        player_id = check_id("player_id", request.player_id, required=False) or player_of(identity).player_id
        if player_id.startswith(BOT_PREFIX) and bot_difficulty(player_id) is None:
            raise GameError(Reason.ERROR_REASON_INVALID_REQUEST, "bots are bot-easy, bot-medium and bot-hard")
        if self.records is not None:
            stored = (await self.records.get_ratings(game_id, [player_id])).get(player_id)
            raw = record_from(game_id, player_id, stored).encode() if stored else None
        else:
            raw = (await self.store.get_ratings(game_id, [player_id])).get(player_id)
        rank = await self.store.rank(game_id, player_id)
        mine = identity is not None and identity.player_id == player_id
        return self._rating(game_id, player_id, raw, rank, identity.display_name if mine and identity else "")

    async def rating_with_history(self, identity: Identity | None,
                                  request: mmpb.GetRatingRequest) -> mmpb.GetRatingResponse:
        """The rating and, from the records, its latest changes (none without records)."""
        size = request.history_size or 20
        check_range("history_size", size, 1, MAX_PAGE)
        rating = await self.rating(identity, request)
        if self.records is None:
            return mmpb.GetRatingResponse(rating=rating)
        points = await self.records.rating_history(rating.game_id, rating.player_id, size)
        return mmpb.GetRatingResponse(rating=rating, history=[
            mmpb.RatingChange(match_id=p.match_id, mu=p.mu, sigma=p.sigma, ordinal=p.ordinal,
                              matches_played=p.matches, unix_ms=p.unix_ms) for p in points])

    async def leaderboard(self, identity: Identity | None,
                          request: mmpb.ListLeaderboardRequest) -> mmpb.ListLeaderboardResponse:
        game_id = registry.get_engine(check_id("game_id", request.game_id)).game_id
        size = request.page_size or 20
        check_range("page_size", size, 1, MAX_PAGE)
        start = 0
        if request.page_token:
            start = int(self.page_tokens.read(request.page_token, game_id))
        elif request.around_me:
            place = await self.store.rank(game_id, player_of(identity).player_id)
            start = max(0, place - size // 2) if place is not None else 0
        total = await self.store.board_size(game_id)
        rows = await self.store.leaderboard(game_id, start, size)
        entries = [self._rating(game_id, p, raw, start + i) for i, (p, raw) in enumerate(rows)]
        following = self.page_tokens.issue(str(start + size), game_id) if start + size < total else ""
        return mmpb.ListLeaderboardResponse(entries=entries, next_page_token=following, total=total)

