"""The one test suite both matchmaking stores pass: the in-process store and the Redis store."""

from __future__ import annotations

import asyncio
import time

from services.matchmaking.model import (
    ASSIGNED,
    CANCELLED,
    FORMING,
    WAITING,
    RatingRecord,
    RatingWrite,
    new_formation,
    new_ticket_id,
)
from services.matchmaking.store import (
    APPLIED,
    CLAIMED,
    CONFLICT,
    DONE,
    GONE,
    LEASE_LOST,
    MatchmakingStore,
)
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb

GAME = "grill_party"
KEEP = 60_000


def now_ms() -> int:
    return int(time.time() * 1000)


def ticket(player: str, rating: float = 25.0, created: int = 0, wait_ms: int = 30_000, bots: bool = False,
           game: str = GAME) -> mmpb.Ticket:
    created = created or now_ms()
    return mmpb.Ticket(ticket_id=new_ticket_id(game), player_id=player, display_name=player, game_id=game,
                       player_counts=[2], allow_bots=bots, max_wait_seconds=wait_ms // 1000,
                       status=mmpb.TICKET_STATUS_WAITING, created_unix_ms=created,
                       wait_deadline_unix_ms=created + wait_ms, expires_unix_ms=created + wait_ms, rating=rating)


def assignment(match_id: str, seat: int) -> bytes:
    return mmpb.Assignment(match_id=match_id, seat=seat, seat_token=f"tok{seat}", num_players=2).SerializeToString()


async def one_live_ticket_per_player_and_game(store: MatchmakingStore) -> None:
    first = ticket("alice")
    assert await store.create_ticket(first, KEEP) == ""
    assert await store.create_ticket(ticket("alice"), KEEP) == first.ticket_id
    assert await store.create_ticket(ticket("alice", game="hibachi"), KEEP) == ""  # another game's pool
    got = await store.get_ticket(first.ticket_id)
    assert got is not None and got.state == WAITING and got.ticket.status == mmpb.TICKET_STATUS_WAITING
    cancelled = await store.cancel_ticket(first.ticket_id, now_ms(), KEEP)
    assert cancelled is not None and cancelled.state == CANCELLED
    assert await store.create_ticket(ticket("alice"), KEEP) == ""  # a cancelled ticket frees the slot
    assert await store.get_ticket("tk-grill_party-0000000000000000") is None
    assert await store.get_ticket("garbage") is None
    bulk = [ticket("bob"), ticket("carol"), ticket("bob")]  # loading a pool in bulk: same rules
    assert await store.create_tickets(bulk, KEEP) == ["", "", bulk[0].ticket_id]
    assert await store.waiting_count(GAME) == 3


async def indexes_order_by_time_rating_and_deadline(store: MatchmakingStore) -> None:
    base = now_ms() - 10_000
    made = [ticket(f"p{i}", rating=r, created=base + i, wait_ms=w)
            for i, (r, w) in enumerate([(30.0, 50_000), (10.0, 5_000), (20.0, 60_000), (21.0, 1_000)])]
    for t in made:
        await store.create_ticket(t, KEEP)
    assert [t.player_id for t in await store.oldest(GAME, 3)] == ["p0", "p1", "p2"]
    assert [t.player_id for t in await store.due(GAME, now_ms(), 10)] == ["p3", "p1"]
    near = await store.nearest(GAME, [(20.0, 1.5), (20.0, 100.0), (50.0, 1.0)], per_side=3)
    assert {t.player_id for t in near[0]} == {"p2", "p3"}
    assert {t.player_id for t in near[1]} == {"p0", "p1", "p2", "p3"}
    assert near[2] == []
    assert await store.waiting_count(GAME) == 4


async def leases_hold_one_holder(store: MatchmakingStore) -> None:
    assert await store.acquire_lease(GAME, "a", 300)
    assert await store.acquire_lease(GAME, "a", 300)  # renewal
    assert not await store.acquire_lease(GAME, "b", 300)
    assert await store.acquire_lease("hibachi", "b", 300)  # per pool
    await asyncio.sleep(0.4)
    assert await store.acquire_lease(GAME, "b", 300)  # lapsed: taken over
    assert not await store.acquire_lease(GAME, "a", 300)
    await store.release_lease(GAME, "a")  # not the holder: no effect
    assert not await store.acquire_lease(GAME, "a", 300)
    await store.release_lease(GAME, "b")
    assert await store.acquire_lease(GAME, "a", 300)


async def claim_assign_and_the_cancel_race(store: MatchmakingStore) -> None:
    a, b, c, d = (ticket(p) for p in "abcd")
    for t in (a, b, c, d):
        await store.create_ticket(t, KEEP)
    assert await store.acquire_lease(GAME, "h1", 5_000)
    lost = new_formation("h2", [a.ticket_id, b.ticket_id], now_ms())
    assert await store.claim(GAME, lost) == LEASE_LOST
    first = new_formation("h1", [a.ticket_id, b.ticket_id], now_ms())
    assert await store.claim(GAME, first) == CLAIMED
    assert (await store.get_ticket(a.ticket_id)).state == FORMING  # type: ignore[union-attr]
    assert (await store.get_ticket(a.ticket_id)).ticket.status == mmpb.TICKET_STATUS_WAITING  # type: ignore[union-attr]
    # Claimed tickets leave the pool: another group with one of them cannot be claimed.
    assert await store.claim(GAME, new_formation("h1", [b.ticket_id, c.ticket_id], now_ms())) == GONE
    assert {t.ticket_id for t in await store.oldest(GAME, 10)} == {c.ticket_id, d.ticket_id}
    first.match_id = "m1"
    first.assignments = {a.ticket_id: assignment("m1", 0), b.ticket_id: assignment("m1", 1)}
    assert [f.ticket_ids for f in await store.formations(GAME)] == [first.ticket_ids]
    assert await store.assign(GAME, first, now_ms(), KEEP)
    assert await store.assign(GAME, first, now_ms(), KEEP)  # again (a recovering replica): no change
    got = await store.get_ticket(b.ticket_id)
    assert got is not None and got.state == ASSIGNED and got.ticket.assignment.seat == 1
    assert got.ticket.assignment.match_id == "m1" and await store.formations(GAME) == []
    again = await store.cancel_ticket(b.ticket_id, now_ms(), KEEP)  # too late: stays assigned
    assert again is not None and again.state == ASSIGNED
    # c is cancelled while its group forms: the group is not placed, d goes back with its wait.
    second = new_formation("h1", [c.ticket_id, d.ticket_id], now_ms())
    assert await store.claim(GAME, second) == CLAIMED
    assert (await store.cancel_ticket(c.ticket_id, now_ms(), KEEP)).state == CANCELLED  # type: ignore[union-attr]
    second.match_id = "m2"
    second.assignments = {c.ticket_id: assignment("m2", 0), d.ticket_id: assignment("m2", 1)}
    assert not await store.assign(GAME, second, now_ms(), KEEP)
    assert (await store.get_ticket(c.ticket_id)).state == CANCELLED  # type: ignore[union-attr]
    assert (await store.get_ticket(d.ticket_id)).state == WAITING  # type: ignore[union-attr]
    assert [t.ticket_id for t in await store.oldest(GAME, 10)] == [d.ticket_id]
    assert [t.ticket_id for t in (await store.nearest(GAME, [(25.0, 1.0)], 5))[0]] == [d.ticket_id]
    assert await store.formations(GAME) == []
    # A released formation (its replica died before the match existed) puts its tickets back.
    e = ticket("e")
    await store.create_ticket(e, KEEP)
    third = new_formation("h1", [d.ticket_id, e.ticket_id], now_ms())
    assert await store.claim(GAME, third) == CLAIMED
    await store.release(GAME, third)
    assert {t.ticket_id for t in await store.oldest(GAME, 10)} == {d.ticket_id, e.ticket_id}
    assert await store.formations(GAME) == []


async def concurrent_claims_place_a_ticket_once(store: MatchmakingStore) -> None:
    tickets = [ticket(f"p{i}") for i in range(6)]
    for t in tickets:
        await store.create_ticket(t, KEEP)
    assert await store.acquire_lease(GAME, "h", 5_000)
    ids = [t.ticket_id for t in tickets]
    groups = [new_formation("h", [ids[i], ids[(i + 1) % 6]], now_ms()) for i in range(6)]
    results = await asyncio.gather(*(store.claim(GAME, g) for g in groups))
    claimed = [g for g, r in zip(groups, results, strict=True) if r == CLAIMED]
    seen = [t for g in claimed for t in g.ticket_ids]
    assert len(seen) == len(set(seen)) and len(claimed) >= 1


async def expiry_removes_the_ticket(store: MatchmakingStore) -> None:
    old = ticket("old", created=now_ms() - 5_000, wait_ms=1_000)
    fresh = ticket("fresh")
    await store.create_ticket(old, KEEP)
    await store.create_ticket(fresh, KEEP)
    assert not await store.expire(GAME, fresh.ticket_id, now_ms())  # not due
    async with store.changes(old.ticket_id) as waiter:
        assert await store.expire(GAME, old.ticket_id, now_ms())
        await waiter.wait(2.0)
    assert await store.get_ticket(old.ticket_id) is None
    assert [t.ticket_id for t in await store.oldest(GAME, 10)] == [fresh.ticket_id]
    assert await store.due(GAME, now_ms(), 10) == []
    assert await store.create_ticket(ticket("old"), KEEP) == ""  # its slot is free


async def records_vanish_on_their_own(store: MatchmakingStore) -> None:
    short = ticket("short")
    await store.create_ticket(short, 300)
    await asyncio.sleep(0.5)
    assert await store.get_ticket(short.ticket_id) is None
    assert await store.oldest(GAME, 10) == []  # the stale index entry is dropped when read
    assert await store.create_ticket(ticket("short"), KEEP) == ""


async def watchers_wake_on_change(store: MatchmakingStore) -> None:
    t = ticket("w")
    await store.create_ticket(t, KEEP)
    async with store.changes(t.ticket_id) as waiter:
        started = time.monotonic()
        waiting = asyncio.create_task(waiter.wait(5.0))
        await asyncio.sleep(0.1)
        await store.cancel_ticket(t.ticket_id, now_ms(), KEEP)
        await waiting
        assert time.monotonic() - started < 2.0


async def ratings_apply_once(store: MatchmakingStore) -> None:
    assert await store.get_ratings(GAME, ["a", "b"]) == {}
    a1, b1 = RatingRecord(27.0, 8.0, 1, "a"), RatingRecord(23.0, 8.0, 1, "b")
    writes = [RatingWrite("a", "", a1), RatingWrite("b", "", b1), RatingWrite("bot-easy", "", RatingRecord(20, 5, 1))]
    assert await store.apply_ratings(GAME, "m1", writes, KEEP) == APPLIED
    assert await store.apply_ratings(GAME, "m1", writes, KEEP) == DONE
    stale = [RatingWrite("a", "", RatingRecord(30.0, 7.0, 1, "a"))]
    assert await store.apply_ratings(GAME, "m2", stale, KEEP) == CONFLICT
    raws = await store.get_ratings(GAME, ["a", "b", "bot-easy", "zed"])
    assert RatingRecord.decode(raws["a"]) == a1 and set(raws) == {"a", "b", "bot-easy"}
    fresh = [RatingWrite("a", raws["a"], RatingRecord(29.0, 7.0, 2, "a"))]
    assert await store.apply_ratings(GAME, "m2", fresh, KEEP) == APPLIED
    await store.put_rating(GAME, "c", RatingRecord(40.0, 2.0, 5, "c"))
    assert [p for p, _ in await store.leaderboard(GAME, 0, 10)] == ["c", "a", "b"]  # bots are not listed
    assert [p for p, _ in await store.leaderboard(GAME, 1, 1)] == ["a"]
    assert await store.board_size(GAME) == 3
    assert await store.rank(GAME, "b") == 2 and await store.rank(GAME, "bot-easy") is None


async def pending_ratings_are_leased(store: MatchmakingStore) -> None:
    now = now_ms()
    await store.add_pending([(GAME, "m1")], now)
    await store.add_pending([(GAME, "m2")], now + 60_000)
    await store.add_pending([(GAME, "m1")], now + 60_000)  # already there: unchanged
    assert await store.claim_pending(now, now + 500, 10) == [(GAME, "m1")]
    assert await store.claim_pending(now, now + 500, 10) == []  # leased
    await store.renew_pending([(GAME, "m1")], now + 1_000)
    assert await store.claim_pending(now + 600, now + 5_000, 10) == []
    assert await store.claim_pending(now + 1_000, now + 5_000, 10) == [(GAME, "m1")]  # the lease lapsed
    await store.drop_pending(GAME, "m1")
    await store.renew_pending([(GAME, "m1")], now)  # renewing a dropped one does not bring it back
    assert await store.claim_pending(now + 60_000, now + 70_000, 10) == [(GAME, "m2")]


SUITE = [
    one_live_ticket_per_player_and_game,
    indexes_order_by_time_rating_and_deadline,
    leases_hold_one_holder,
    claim_assign_and_the_cancel_race,
    concurrent_claims_place_a_ticket_once,
    expiry_removes_the_ticket,
    records_vanish_on_their_own,
    watchers_wake_on_change,
    ratings_apply_once,
    pending_ratings_are_leased,
]
