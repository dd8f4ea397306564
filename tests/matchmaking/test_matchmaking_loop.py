"""The matchmaker loop against both stores with a fake match creator: planning by rating, window and
table size; a formation left by a dead holder is undone; a holder that lost its lease mid-creation
gives its match to bots; a failed creation loses no ticket."""

from __future__ import annotations

import asyncio
import itertools
import uuid
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import pytest

from services.kit.config import Config
from services.matchmaking.creator import CreatedMatch
from services.matchmaking.forming import plan, window
from services.matchmaking.matchmaker import Matchmaker
from services.matchmaking.model import WAITING, new_formation
from services.matchmaking.redis_store import RedisMatchmakingStore
from services.matchmaking.store import CLAIMED, MatchmakingStore, MemoryMatchmakingStore
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb
from tests.matchmaking.store_suite import GAME, KEEP, now_ms, ticket
from tests.waiting import settles

CONFIG = Config(matchmaking_window_base=2.0, matchmaking_window_growth=1.0, matchmaking_window_max=10.0,
                matchmaking_lease_ms=150)


class FakeCreator:
    def __init__(self, gate: asyncio.Event | None = None, fail: bool = False) -> None:
        self.gate = gate
        self.fail = fail
        self.created: list[tuple[str, list[mpb.SeatSpec]]] = []
        self.abandoned: list[str] = []
        self._name = uuid.uuid4().hex[:8]  # match ids are unique across creators, as the service's are
        self._ids = itertools.count()

    async def create(self, game_id: str, seats: Sequence[mpb.SeatSpec]) -> CreatedMatch:
        if self.gate is not None:
            await self.gate.wait()
        if self.fail:
            raise RuntimeError("the match service is down")
        match_id = f"m{self._name}-{next(self._ids)}"
        self.created.append((match_id, list(seats)))
        return CreatedMatch(match_id, {i: f"tok-{match_id}-{i}" for i, s in enumerate(seats)
                                       if s.kind == mpb.SEAT_KIND_HUMAN})

    async def abandon(self, match_id: str, seat_tokens: dict[int, str]) -> None:
        self.abandoned.append(match_id)


def t(player: str, rating: float, waited_s: float = 0.0, counts: tuple[int, ...] = (2,), bots: bool = False,
      wait_s: float = 30.0) -> mmpb.Ticket:
    made = ticket(player, rating=rating, created=now_ms() - int(waited_s * 1000), wait_ms=int(wait_s * 1000),
                  bots=bots)
    del made.player_counts[:]
    made.player_counts.extend(counts)
    if bots:  # as the service does: a bot-fill ticket stays a while past its longest wait
        made.expires_unix_ms += CONFIG.ticket_fill_grace_seconds * 1000
    return made


# ---------------------------------------------------------------- planning, pure
def names(tables: Any) -> list[tuple[list[str], int, int]]:
    return [([p.player_id for p in x.people], x.num_players, x.bots) for x in tables]


def test_window_widens_up_to_its_cap() -> None:
    assert window(CONFIG, 0) == 2.0 and window(CONFIG, 3_000) == 5.0 and window(CONFIG, 60_000) == 10.0


def test_plan_groups_the_closest_within_the_anchor_window() -> None:
    anchor = t("a", 20.0, waited_s=1)  # window 3
    near = [t("far", 24.0), t("b", 21.5, counts=(2, 3)), t("c", 18.0)]
    assert names(plan(CONFIG, [anchor], [near], now_ms())) == [(["a", "b"], 2, 0)]
    bigger = t("a", 20.0, waited_s=1, counts=(2, 3))
    assert names(plan(CONFIG, [bigger], [[*near, t("d", 20.1, counts=(3,))]], now_ms())) == [(["a", "d", "b"], 3, 0)]
    assert plan(CONFIG, [t("a", 20.0)], [[t("far", 24.0)]], now_ms()) == []  # window 2: too far yet


def test_plan_fills_with_bots_only_at_the_longest_wait() -> None:
    waiting = t("a", 20.0, waited_s=2, counts=(3, 4), bots=True, wait_s=5)
    assert plan(CONFIG, [waiting], [[]], now_ms()) == []
    due = t("a", 20.0, waited_s=6, counts=(3, 4), bots=True, wait_s=5)
    others = [t("b", 21.0, counts=(4,), bots=True), t("c", 19.0, counts=(3, 4), bots=False)]
    assert names(plan(CONFIG, [due], [others], now_ms())) == [(["a", "b"], 4, 2)]  # c does not allow bots
    alone = t("a", 20.0, waited_s=6, counts=(3, 4), bots=True, wait_s=5)
    assert names(plan(CONFIG, [alone], [[]], now_ms())) == [(["a"], 3, 2)]


def test_plan_never_uses_a_ticket_twice() -> None:
    a, b, c = t("a", 20.0, waited_s=3), t("b", 20.5, waited_s=2), t("c", 21.0, waited_s=1)
    tables = plan(CONFIG, [a, b, c], [[b, c], [a, c], [a, b]], now_ms())
    assert names(tables) == [(["a", "b"], 2, 0)]


# ---------------------------------------------------------------- the loop over both stores
async def lease_lapses() -> None:
    await asyncio.sleep(CONFIG.matchmaking_lease_ms / 1000 + 0.1)


async def dead_holder_without_a_match_is_undone(store: MatchmakingStore) -> None:
    a, b = t("a", 25.0), t("b", 25.0)
    for x in (a, b):
        await store.create_ticket(x, KEEP)
    assert await store.acquire_lease(GAME, "dead", 150)
    assert await store.claim(GAME, new_formation("dead", [a.ticket_id, b.ticket_id], now_ms())) == CLAIMED
    await lease_lapses()
    creator = FakeCreator()
    report = await Matchmaker(CONFIG, store, creator, games=[GAME]).work(GAME)
    assert report is not None and report.recovered == 1 and report.formed == 1  # put back, then seated
    assert len(creator.created) == 1 and await store.formations(GAME) == []


async def a_holder_that_lost_its_lease_gives_its_match_to_bots(store: MatchmakingStore) -> None:
    a, b = t("a", 25.0), t("b", 25.0)
    for x in (a, b):
        await store.create_ticket(x, KEEP)
    gate = asyncio.Event()
    slow = FakeCreator(gate)
    paused = asyncio.create_task(Matchmaker(CONFIG, store, slow, holder="slow", games=[GAME]).work(GAME))
    await settles(lambda: store.formations(GAME))  # claimed; its creation hangs
    assert len(await store.formations(GAME)) == 1
    await lease_lapses()
    fast = FakeCreator()
    report = await Matchmaker(CONFIG, store, fast, holder="fast", games=[GAME]).work(GAME)
    assert report is not None and report.recovered == 1 and report.formed == 1
    gate.set()
    late = await paused
    assert late is not None and late.formed == 0 and late.abandoned == 1
    assert len(slow.created) == 1 and slow.abandoned == [slow.created[0][0]]
    for x in (a, b):
        got = await store.get_ticket(x.ticket_id)
        assert got is not None and got.ticket.assignment.match_id == fast.created[0][0]


async def a_failed_creation_loses_no_ticket(store: MatchmakingStore) -> None:
    a, b = t("a", 25.0, waited_s=2), t("b", 25.0)
    for x in (a, b):
        await store.create_ticket(x, KEEP)
    broken = Matchmaker(CONFIG, store, FakeCreator(fail=True), games=[GAME])
    report = await broken.work(GAME)
    assert report is not None and report.formed == 0
    got = await store.get_ticket(a.ticket_id)
    assert got is not None and got.state == WAITING and got.ticket.created_unix_ms == a.created_unix_ms
    assert [x.ticket_id for x in await store.oldest(GAME, 10)] == [a.ticket_id, b.ticket_id]
    broken.creator = FakeCreator()
    report = await broken.work(GAME)
    assert report is not None and report.formed == 1 and await store.waiting_count(GAME) == 0


async def expired_and_bot_filled_in_one_cycle(store: MatchmakingStore) -> None:
    gone = t("gone", 25.0, waited_s=3, wait_s=1)
    filled = t("filled", 40.0, waited_s=3, wait_s=1, bots=True)
    for x in (gone, filled):
        await store.create_ticket(x, KEEP)
    creator = FakeCreator()
    report = await Matchmaker(CONFIG, store, creator, games=[GAME]).work(GAME)
    assert report is not None and (report.expired, report.formed, report.bot_seats) == (1, 1, 1)
    assert await store.get_ticket(gone.ticket_id) is None
    seats = creator.created[0][1]
    assert sorted(s.kind for s in seats) == [mpb.SEAT_KIND_HUMAN, mpb.SEAT_KIND_BOT]
    assert next(s for s in seats if s.kind == mpb.SEAT_KIND_BOT).difficulty == mpb.DIFFICULTY_HARD


LOOP_SUITE = [
    dead_holder_without_a_match_is_undone,
    a_holder_that_lost_its_lease_gives_its_match_to_bots,
    a_failed_creation_loses_no_ticket,
    expired_and_bot_filled_in_one_cycle,
]


def run_with(make_store: Callable[[], MatchmakingStore],
             check: Callable[[MatchmakingStore], Coroutine[Any, Any, None]]) -> None:
    async def main() -> None:
        store = make_store()
        try:
            await check(store)
        finally:
            await store.close()

    asyncio.run(main())


@pytest.mark.parametrize("check", LOOP_SUITE, ids=lambda c: c.__name__)
def test_loop_in_memory(check: Callable[[MatchmakingStore], Coroutine[Any, Any, None]]) -> None:
    run_with(MemoryMatchmakingStore, check)


@pytest.mark.parametrize("check", LOOP_SUITE, ids=lambda c: c.__name__)
def test_loop_on_redis(check: Callable[[MatchmakingStore], Coroutine[Any, Any, None]], redis_url: str,
                       redis_prefix: str) -> None:
    run_with(lambda: RedisMatchmakingStore(redis_url, redis_prefix), check)
