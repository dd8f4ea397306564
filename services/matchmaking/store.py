"""The matchmaking store: one interface, two implementations that pass one shared test suite.

Per game, a pool holds its waiting tickets in three indexes: by rating (the matchmaker's range reads
around an anchor), by enqueue time (the oldest tickets anchor a cycle) and by wait deadline (bot fill
and expiry). A ticket moves WAITING -> FORMING (claimed for a match, out of the indexes) -> ASSIGNED,
or back to WAITING when its match cannot be made, and WAITING/FORMING -> CANCELLED at any time; each
move is one atomic step, so a cancel racing a formation either wins (the ticket is never placed) or
finds the ticket assigned. A pool is worked by the holder of its lease. Ratings live beside the pools
with a marker per rated match that makes each match count once.

The in-process store here is the embedded default of `make run`; redis_store.py is the deployment.
"""

from __future__ import annotations

import asyncio
import heapq
import time
from abc import ABC, abstractmethod
from bisect import bisect_left, bisect_right, insort
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field

from services.matchmaking.model import (
    ASSIGNED,
    CANCELLED,
    FORMING,
    LIVE,
    WAITING,
    Formation,
    RatingRecord,
    RatingWrite,
    is_bot,
    public,
)
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb

APPLIED, CONFLICT, DONE = "applied", "conflict", "done"
CLAIMED, LEASE_LOST, GONE = "claimed", "lease_lost", "gone"


def wall_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class StoredTicket:
    ticket: mmpb.Ticket  # as its player sees it
    state: int  # WAITING, FORMING, ASSIGNED or CANCELLED


class ChangeWaiter(ABC):
    @abstractmethod
    async def wait(self, timeout: float) -> None:
        """Returns when the ticket may have changed since the last call, or at the timeout."""


class TicketStore(ABC):
    """Tickets: created, read, cancelled and watched (Tickets, the service's side)."""

    @abstractmethod
    async def create_ticket(self, ticket: mmpb.Ticket, keep_ms: int) -> str:
        """Stores a WAITING ticket in its pool and as its player's live ticket of the game, to be
        removed after keep_ms whatever happens. Returns '' or, storing nothing, the id of the
        player's live ticket of that game."""

    async def create_tickets(self, tickets: Sequence[mmpb.Ticket], keep_ms: int) -> list[str]:
        """Many create_ticket at once (loading a pool in bulk)."""
        return [await self.create_ticket(t, keep_ms) for t in tickets]

    @abstractmethod
    async def get_ticket(self, ticket_id: str) -> StoredTicket | None: ...

    @abstractmethod
    async def cancel_ticket(self, ticket_id: str, now_ms: int, result_ttl_ms: int) -> StoredTicket | None:
        """WAITING or FORMING -> CANCELLED (out of the pool); other states are left as they are."""

    @abstractmethod
    def changes(self, ticket_id: str) -> AbstractAsyncContextManager[ChangeWaiter]:
        """An async context manager: a waiter woken by every change of the ticket (subscribe, then read)."""


class PoolStore(ABC):
    """The pools of waiting tickets, the matchmaker's side: a lease per pool, reads by age, deadline and
    rating, and formations claimed, assigned or released."""

    @abstractmethod
    async def acquire_lease(self, game_id: str, holder: str, ttl_ms: int) -> bool:
        """Takes or renews the pool's lease for `holder`; False while another holder has it."""

    @abstractmethod
    async def release_lease(self, game_id: str, holder: str) -> None: ...

    @abstractmethod
    async def waiting_count(self, game_id: str) -> int: ...

    @abstractmethod
    async def oldest(self, game_id: str, limit: int) -> list[mmpb.Ticket]:
        """The longest-waiting tickets of the pool, oldest first."""

    @abstractmethod
    async def due(self, game_id: str, now_ms: int, limit: int) -> list[mmpb.Ticket]:
        """Waiting tickets whose wait deadline has passed, earliest first."""

    @abstractmethod
    async def nearest(self, game_id: str, queries: Sequence[tuple[float, float]],
                      per_side: int) -> list[list[mmpb.Ticket]]:
        """For each (rating, window): up to per_side waiting tickets just above and just below the
        rating, within the window."""

    @abstractmethod
    async def claim_many(self, game_id: str, formations: Sequence[Formation]) -> list[str]:
        """For each formation (their tickets do not overlap): if its holder holds the lease and every
        ticket is WAITING, all become FORMING, leave the indexes, and the formation is recorded
        (CLAIMED); else nothing changes for it (LEASE_LOST, GONE)."""

    async def claim(self, game_id: str, formation: Formation) -> str:
        return (await self.claim_many(game_id, [formation]))[0]

    @abstractmethod
    async def assign_many(self, game_id: str, formations: Sequence[Formation], now_ms: int,
                          result_ttl_ms: int) -> list[bool]:
        """For each formation: if every ticket is still FORMING in it (or already ASSIGNED to its
        match), all become ASSIGNED (True); else those still FORMING in it go back to WAITING
        (False). Either way the formation record is removed."""

    async def assign(self, game_id: str, formation: Formation, now_ms: int, result_ttl_ms: int) -> bool:
        return (await self.assign_many(game_id, [formation], now_ms, result_ttl_ms))[0]

    @abstractmethod
    async def release(self, game_id: str, formation: Formation) -> None:
        """Puts the tickets still FORMING in this formation back to WAITING, removes the record."""

    @abstractmethod
    async def formations(self, game_id: str) -> list[Formation]: ...

    @abstractmethod
    async def expire(self, game_id: str, ticket_id: str, now_ms: int) -> bool:
        """Removes a WAITING ticket whose expiry has passed (record, indexes, player slot)."""


class RatingStore(ABC):
    """The ratings cache and leaderboard (their durable home is the records database), and the
    finished matches whose rating is pending (the rating keeper's queue)."""

    @abstractmethod
    async def get_ratings(self, game_id: str, player_ids: Sequence[str]) -> dict[str, str]:
        """Raw rating records of those that have one."""

    @abstractmethod
    async def apply_ratings(self, game_id: str, match_id: str, writes: Sequence[RatingWrite], keep_ms: int) -> str:
        """DONE when the match was rated already; CONFLICT when a record changed since it was read;
        else writes them all, marks the match rated for keep_ms (APPLIED)."""

    @abstractmethod
    async def put_rating(self, game_id: str, player_id: str, record: RatingRecord) -> None: ...

    @abstractmethod
    async def leaderboard(self, game_id: str, start: int, count: int) -> list[tuple[str, str]]:
        """(player id, raw record) from place start (0-based), best first."""

    @abstractmethod
    async def board_size(self, game_id: str) -> int: ...

    @abstractmethod
    async def rank(self, game_id: str, player_id: str) -> int | None:
        """0-based place on the leaderboard, None when not on it."""

    # With durable records the ratings here are a cache of the records' (services/matchmaking/ratings.py).
    @abstractmethod
    async def replace_ratings(self, game_id: str, rows: Sequence[tuple[str, RatingRecord]]) -> None:
        """Replaces every rating of the game and its leaderboard at once with `rows`."""

    @abstractmethod
    async def all_ratings(self, game_id: str) -> dict[str, str]:
        """Every raw rating record of the game (what a deployment kept here before it had records)."""

    @abstractmethod
    async def ratings_cached(self) -> bool:
        """Whether the ratings here were rebuilt from the records (False once the store lost them)."""

    @abstractmethod
    async def mark_ratings_cached(self) -> None: ...

    # ---------------------------------------------------------------- matches whose rating is pending
    @abstractmethod
    async def add_pending(self, items: Sequence[tuple[str, str]], due_ms: int) -> None:
        """Queues (game, match) pairs to be rated, unless queued already."""

    @abstractmethod
    async def claim_pending(self, now_ms: int, until_ms: int, limit: int) -> list[tuple[str, str]]:
        """Pending matches nobody watches (due), leased to the caller until until_ms."""

    @abstractmethod
    async def renew_pending(self, items: Sequence[tuple[str, str]], until_ms: int) -> None: ...

    @abstractmethod
    async def drop_pending(self, game_id: str, match_id: str) -> None: ...


class MatchmakingStore(TicketStore, PoolStore, RatingStore):
    """Everything matchmaking keeps, in one store (memory or Redis) that implements the three concerns."""

    kind: str = "abstract"

    async def close(self) -> None:
        return None


class SortedIndex:
    """A sorted set (member, score) like Redis's: ordered by score, then member."""

    def __init__(self) -> None:
        self._items: list[tuple[float, str]] = []
        self._scores: dict[str, float] = {}

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, member: str) -> bool:
        return member in self._scores

    def add(self, member: str, score: float) -> None:
        self.remove(member)
        self._scores[member] = score
        insort(self._items, (score, member))

    def remove(self, member: str) -> None:
        score = self._scores.pop(member, None)
        if score is not None:
            del self._items[bisect_left(self._items, (score, member))]

    def first(self, limit: int) -> list[str]:
        return [m for _, m in self._items[:limit]]

    def up_to(self, high: float, limit: int) -> list[str]:
        return [m for _, m in self._items[:bisect_right(self._items, (high, "\U0010ffff"))][:limit]]

    def above(self, low: float, high: float, limit: int) -> list[str]:
        start = bisect_left(self._items, (low, ""))
        out = []
        for score, member in self._items[start:start + limit]:
            if score > high:
                break
            out.append(member)
        return out

    def below(self, high: float, low: float, limit: int) -> list[str]:
        end = bisect_right(self._items, (high, "\U0010ffff"))
        out = []
        for score, member in reversed(self._items[max(0, end - limit):end]):
            if score < low:
                break
            out.append(member)
        return out

    def descending(self, start: int, count: int) -> list[str]:
        n = len(self._items)
        return [self._items[n - 1 - i][1] for i in range(start, min(n, start + count))]

    def rank_descending(self, member: str) -> int | None:
        score = self._scores.get(member)
        if score is None:
            return None
        return len(self._items) - 1 - bisect_left(self._items, (score, member))


@dataclass
class _MemoryTicket:
    ticket: mmpb.Ticket
    state: int
    until_ms: int
    formation: str = ""
    match_id: str = ""
    assignment: bytes = b""


@dataclass
class _Pool:
    by_rating: SortedIndex = field(default_factory=SortedIndex)
    by_time: SortedIndex = field(default_factory=SortedIndex)
    by_deadline: SortedIndex = field(default_factory=SortedIndex)
    lease: tuple[str, float] = ("", 0.0)
    forming: dict[str, Formation] = field(default_factory=dict)


class _MemoryWaiter(ChangeWaiter):
    def __init__(self) -> None:
        self.event = asyncio.Event()

    async def wait(self, timeout: float) -> None:
        try:
            await asyncio.wait_for(self.event.wait(), timeout)
        except TimeoutError:
            pass
        self.event.clear()


def _copy(formation: Formation) -> Formation:
    return Formation.decode(formation.formation_id, formation.encode())


class MemoryMatchmakingStore(MatchmakingStore):
    """The embedded in-process store: same semantics, one process, nothing persisted."""

    kind = "memory"

    def __init__(self) -> None:
        self._tickets: dict[str, _MemoryTicket] = {}
        self._players: dict[tuple[str, str], str] = {}
        self._pools: dict[str, _Pool] = {}
        self._purge_heap: list[tuple[int, str]] = []
        self._waiters: dict[str, set[_MemoryWaiter]] = {}
        self._ratings: dict[str, dict[str, str]] = {}
        self._boards: dict[str, SortedIndex] = {}
        self._rated: dict[tuple[str, str], int] = {}
        self._pending = SortedIndex()  # "game/match" by the time its watch lease runs out
        self._ratings_cached = False

    # ---------------------------------------------------------------- helpers
    def _pool(self, game_id: str) -> _Pool:
        return self._pools.setdefault(game_id, _Pool())

    def _index(self, stored: _MemoryTicket) -> None:
        ticket = stored.ticket
        pool = self._pool(ticket.game_id)
        pool.by_rating.add(ticket.ticket_id, ticket.rating)
        pool.by_time.add(ticket.ticket_id, ticket.created_unix_ms)
        pool.by_deadline.add(ticket.ticket_id, ticket.wait_deadline_unix_ms)

    def _unindex(self, ticket: mmpb.Ticket) -> None:
        pool = self._pool(ticket.game_id)
        for index in (pool.by_rating, pool.by_time, pool.by_deadline):
            index.remove(ticket.ticket_id)

    def _free_slot(self, ticket: mmpb.Ticket) -> None:
        key = (ticket.game_id, ticket.player_id)
        if self._players.get(key) == ticket.ticket_id:
            del self._players[key]

    def _notify(self, ticket_id: str) -> None:
        for waiter in self._waiters.get(ticket_id, ()):
            waiter.event.set()

    def _keep(self, stored: _MemoryTicket, until_ms: int) -> None:
        stored.until_ms = until_ms
        heapq.heappush(self._purge_heap, (until_ms, stored.ticket.ticket_id))

    def _purge(self) -> None:
        """Drops records past their time, as Redis's key expiry does."""
        now = wall_ms()
        while self._purge_heap and self._purge_heap[0][0] <= now:
            until, ticket_id = heapq.heappop(self._purge_heap)
            stored = self._tickets.get(ticket_id)
            if stored is not None and stored.until_ms == until:
                del self._tickets[ticket_id]
                self._unindex(stored.ticket)
                self._free_slot(stored.ticket)
                self._notify(ticket_id)

    def _live(self, ticket_id: str) -> _MemoryTicket | None:
        self._purge()
        return self._tickets.get(ticket_id)

    def _waiting(self, ids: Sequence[str]) -> list[mmpb.Ticket]:
        out = []
        for ticket_id in ids:
            stored = self._tickets.get(ticket_id)
            if stored is not None and stored.state == WAITING:
                out.append(stored.ticket)
        return out

    def _stored(self, stored: _MemoryTicket) -> StoredTicket:
        return StoredTicket(public(stored.ticket, stored.state, stored.assignment), stored.state)

    # ---------------------------------------------------------------- tickets
    async def create_ticket(self, ticket: mmpb.Ticket, keep_ms: int) -> str:
        self._purge()
        key = (ticket.game_id, ticket.player_id)
        current = self._players.get(key)
        if current is not None:
            held = self._tickets.get(current)
            if held is not None and held.state in LIVE:
                return current
        stored = _MemoryTicket(public(ticket, WAITING), WAITING, 0)
        self._tickets[ticket.ticket_id] = stored
        self._keep(stored, wall_ms() + keep_ms)
        self._players[key] = ticket.ticket_id
        self._index(stored)
        return ""

    async def get_ticket(self, ticket_id: str) -> StoredTicket | None:
        stored = self._live(ticket_id)
        return None if stored is None else self._stored(stored)

    async def cancel_ticket(self, ticket_id: str, now_ms: int, result_ttl_ms: int) -> StoredTicket | None:
        stored = self._live(ticket_id)
        if stored is None:
            return None
        if stored.state in LIVE:
            stored.state = CANCELLED
            stored.formation = ""
            self._unindex(stored.ticket)
            self._free_slot(stored.ticket)
            self._keep(stored, wall_ms() + result_ttl_ms)
            self._notify(ticket_id)
        return self._stored(stored)

    @asynccontextmanager
    async def changes(self, ticket_id: str) -> AsyncIterator[ChangeWaiter]:
        waiter = _MemoryWaiter()
        self._waiters.setdefault(ticket_id, set()).add(waiter)
        try:
            yield waiter
        finally:
            waiters = self._waiters.get(ticket_id, set())
            waiters.discard(waiter)
            if not waiters:
                self._waiters.pop(ticket_id, None)

    # ---------------------------------------------------------------- pools
    async def acquire_lease(self, game_id: str, holder: str, ttl_ms: int) -> bool:
        pool = self._pool(game_id)
        current, until = pool.lease
        now = time.monotonic()
        if current == holder or not current or until <= now:
            pool.lease = (holder, now + ttl_ms / 1000)
            return True
        return False

    async def release_lease(self, game_id: str, holder: str) -> None:
        pool = self._pool(game_id)
        if pool.lease[0] == holder:
            pool.lease = ("", 0.0)

    async def waiting_count(self, game_id: str) -> int:
        self._purge()
        return len(self._pool(game_id).by_time)

    async def oldest(self, game_id: str, limit: int) -> list[mmpb.Ticket]:
        self._purge()
        return self._waiting(self._pool(game_id).by_time.first(limit))

    async def due(self, game_id: str, now_ms: int, limit: int) -> list[mmpb.Ticket]:
        self._purge()
        return self._waiting(self._pool(game_id).by_deadline.up_to(now_ms, limit))

    async def nearest(self, game_id: str, queries: Sequence[tuple[float, float]],
                      per_side: int) -> list[list[mmpb.Ticket]]:
        self._purge()
        index = self._pool(game_id).by_rating
        out = []
        for rating, window in queries:
            ids = dict.fromkeys(index.above(rating, rating + window, per_side)
                                + index.below(rating, rating - window, per_side))
            out.append(self._waiting(list(ids)))
        return out

    async def claim_many(self, game_id: str, formations: Sequence[Formation]) -> list[str]:
        self._purge()
        pool = self._pool(game_id)
        out = []
        for formation in formations:
            if pool.lease[0] != formation.holder or pool.lease[1] <= time.monotonic():
                out.append(LEASE_LOST)
                continue
            chosen = [self._tickets.get(t) for t in formation.ticket_ids]
            if any(s is None or s.state != WAITING for s in chosen):
                out.append(GONE)
                continue
            for stored in chosen:
                assert stored is not None
                stored.state = FORMING
                stored.formation = formation.formation_id
                self._unindex(stored.ticket)
            pool.forming[formation.formation_id] = _copy(formation)
            out.append(CLAIMED)
        return out

    def _put_back(self, game_id: str, formation: Formation) -> None:
        for ticket_id in formation.ticket_ids:
            stored = self._tickets.get(ticket_id)
            if stored is not None and stored.state == FORMING and stored.formation == formation.formation_id:
                stored.state = WAITING
                stored.formation = ""
                self._index(stored)
                self._notify(ticket_id)
        self._pool(game_id).forming.pop(formation.formation_id, None)

    async def assign_many(self, game_id: str, formations: Sequence[Formation], now_ms: int,
                          result_ttl_ms: int) -> list[bool]:
        return [self._assign(game_id, f, result_ttl_ms) for f in formations]

    def _assign(self, game_id: str, formation: Formation, result_ttl_ms: int) -> bool:
        chosen = [self._tickets.get(t) for t in formation.ticket_ids]
        ready = all(
            s is not None and ((s.state == FORMING and s.formation == formation.formation_id)
                               or (s.state == ASSIGNED and s.match_id == formation.match_id))
            for s in chosen
        )
        if not ready:
            self._put_back(game_id, formation)
            return False
        for stored in chosen:
            assert stored is not None
            if stored.state == FORMING:
                stored.state = ASSIGNED
                stored.formation = ""
                stored.match_id = formation.match_id
                stored.assignment = formation.assignments[stored.ticket.ticket_id]
                self._free_slot(stored.ticket)
                self._keep(stored, wall_ms() + result_ttl_ms)
                self._notify(stored.ticket.ticket_id)
        self._pool(game_id).forming.pop(formation.formation_id, None)
        return True

    async def release(self, game_id: str, formation: Formation) -> None:
        self._put_back(game_id, formation)

    async def formations(self, game_id: str) -> list[Formation]:
        return [_copy(f) for f in self._pool(game_id).forming.values()]

    async def expire(self, game_id: str, ticket_id: str, now_ms: int) -> bool:
        stored = self._tickets.get(ticket_id)
        if stored is None:
            return True
        if stored.state != WAITING or stored.ticket.expires_unix_ms > now_ms:
            return False
        del self._tickets[ticket_id]
        self._unindex(stored.ticket)
        self._free_slot(stored.ticket)
        self._notify(ticket_id)
        return True

    # ---------------------------------------------------------------- ratings
    async def get_ratings(self, game_id: str, player_ids: Sequence[str]) -> dict[str, str]:
        table = self._ratings.get(game_id, {})
        return {p: table[p] for p in player_ids if p in table}

    def _write(self, game_id: str, player_id: str, record: RatingRecord) -> None:
        self._ratings.setdefault(game_id, {})[player_id] = record.encode()
        if not is_bot(player_id):
            self._boards.setdefault(game_id, SortedIndex()).add(player_id, record.ordinal)

    async def apply_ratings(self, game_id: str, match_id: str, writes: Sequence[RatingWrite], keep_ms: int) -> str:
        now = wall_ms()
        if self._rated.get((game_id, match_id), 0) > now:
            return DONE
        table = self._ratings.get(game_id, {})
        if any(table.get(w.player_id, "") != w.expected for w in writes):
            return CONFLICT
        for write in writes:
            self._write(game_id, write.player_id, write.new)
        self._rated[(game_id, match_id)] = now + keep_ms
        return APPLIED

    async def put_rating(self, game_id: str, player_id: str, record: RatingRecord) -> None:
        self._write(game_id, player_id, record)

    async def leaderboard(self, game_id: str, start: int, count: int) -> list[tuple[str, str]]:
        board = self._boards.get(game_id, SortedIndex())
        table = self._ratings.get(game_id, {})
        return [(p, table[p]) for p in board.descending(start, count)]

    async def board_size(self, game_id: str) -> int:
        return len(self._boards.get(game_id, SortedIndex()))

    async def rank(self, game_id: str, player_id: str) -> int | None:
        return self._boards.get(game_id, SortedIndex()).rank_descending(player_id)

    async def replace_ratings(self, game_id: str, rows: Sequence[tuple[str, RatingRecord]]) -> None:
        self._ratings[game_id] = {}
        self._boards[game_id] = SortedIndex()
        for player_id, record in rows:
            self._write(game_id, player_id, record)

    async def all_ratings(self, game_id: str) -> dict[str, str]:
        return dict(self._ratings.get(game_id, {}))

    async def ratings_cached(self) -> bool:
        return self._ratings_cached

    async def mark_ratings_cached(self) -> None:
        self._ratings_cached = True

    # ---------------------------------------------------------------- pending ratings
    async def add_pending(self, items: Sequence[tuple[str, str]], due_ms: int) -> None:
        for game_id, match_id in items:
            if f"{game_id}/{match_id}" not in self._pending:
                self._pending.add(f"{game_id}/{match_id}", due_ms)

    async def claim_pending(self, now_ms: int, until_ms: int, limit: int) -> list[tuple[str, str]]:
        due = self._pending.up_to(now_ms, limit)
        for member in due:
            self._pending.add(member, until_ms)
        return [split_pending(m) for m in due]

    async def renew_pending(self, items: Sequence[tuple[str, str]], until_ms: int) -> None:
        for game_id, match_id in items:
            if f"{game_id}/{match_id}" in self._pending:
                self._pending.add(f"{game_id}/{match_id}", until_ms)

    async def drop_pending(self, game_id: str, match_id: str) -> None:
        self._pending.remove(f"{game_id}/{match_id}")


def split_pending(member: str) -> tuple[str, str]:
    game_id, _, match_id = member.partition("/")
    return game_id, match_id
