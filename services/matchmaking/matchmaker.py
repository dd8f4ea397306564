"""The matchmaker loop. It runs in every replica; each pool (one per game) is worked by the holder
of its lease, renewed every cycle, which another replica takes when the holder stops renewing.

A cycle of a pool: undo formations a dead holder left behind; expire the tickets whose wait ran out
(bots not allowed, or the bot fill kept failing); read anchors and their rating neighbours through
the indexes (never the whole pool); plan tables (forming.py); claim the tables' tickets (one atomic
step each, one script for all); then, in the background while the next cycles plan (at most
PIPELINE_DEPTH cycles of a pool in flight), create each match through MatchService and assign them
(again one script). A ticket cancelled after the claim makes its table's assignment fail: the table's
other tickets go back with their wait, and the created match is handed to bots.
"""

from __future__ import annotations

import asyncio
import logging
import random
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from services.kit import metrics
from services.kit.config import Config
from services.kit.loops import carry_on
from services.matchmaking.creator import CreatedMatch, MatchCreator
from services.matchmaking.forming import Table, plan, window
from services.matchmaking.model import Formation, new_formation
from services.matchmaking.ratings import DIFFICULTIES, RatingKeeper, bot_id, choose_difficulty, record_of
from services.matchmaking.store import CLAIMED, LEASE_LOST, MatchmakingStore, wall_ms
from services.rules import registry
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb

log = logging.getLogger("sizzle.matchmaker")
SEATING_CONCURRENCY = 32  # CreateMatch calls in flight per replica
# Cycles of one pool whose tables may be seated (matches created, then assigned) while the next cycle
# plans: the loop does not wait on the match service, and still cannot run away from it.
PIPELINE_DEPTH = 2


@dataclass
class CycleReport:
    formed: int = 0
    seated: int = 0
    bot_seats: int = 0
    expired: int = 0
    recovered: int = 0
    abandoned: int = 0
    lease_lost: bool = False
    skipped: bool = False  # the pool's pipeline was full: nothing planned this time


class Matchmaker:
    def __init__(self, config: Config, store: MatchmakingStore, creator: MatchCreator,
                 keeper: RatingKeeper | None = None, clock: Callable[[], int] = wall_ms,
                 holder: str = "", games: Sequence[str] | None = None, rng: random.Random | None = None) -> None:
        self.config = config
        self.store = store
        self.creator = creator
        self.keeper = keeper
        self.clock = clock
        self.holder = holder or "mm-" + uuid.uuid4().hex[:12]
        self.games = list(games) if games is not None else registry.game_ids()
        self.rng = rng or random.Random()
        self._held: set[str] = set()
        self._seating = asyncio.Semaphore(SEATING_CONCURRENCY)
        self._in_flight: set[str] = set()  # formations this replica is seating now
        self._pending: dict[str, set[asyncio.Task[None]]] = {}
        self.totals = CycleReport()  # everything seated since start (benchmarks read it)

    # ---------------------------------------------------------------- the loop
    async def cycle_pools(self) -> None:
        """One round of the loop (a Ticker runs it every matchmaking interval): a cycle of each pool."""
        games = list(self.games)
        self.rng.shuffle(games)  # replicas starting together spread over the pools
        for game_id in games:
            with carry_on(log, "matchmaker cycle of %s", game_id):  # one pool failing holds up no other
                await self.work(game_id, wait=False)

    async def work(self, game_id: str, wait: bool = True) -> CycleReport | None:
        """One cycle of the pool if this replica holds (or takes) its lease. With wait, returns once
        its tables are seated; else their seating goes on in the background."""
        if not await self.store.acquire_lease(game_id, self.holder, self.config.matchmaking_lease_ms):
            if game_id in self._held:
                self._held.discard(game_id)
                log.info("%s lost the lease of pool %s", self.holder, game_id)
            return None
        if game_id not in self._held:
            self._held.add(game_id)
            log.info("%s works pool %s", self.holder, game_id)
        return await self.cycle(game_id, wait)

    async def drain(self, timeout: float | None = None) -> None:
        """Waits for the tables being seated in the background."""
        tasks = [t for pending in self._pending.values() for t in pending]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    async def release_leases(self) -> None:
        for game_id in list(self._held):
            try:
                await self.store.release_lease(game_id, self.holder)
            except Exception as exc:  # the lease lapses on its own
                log.warning("releasing the lease of %s: %s", game_id, exc)
        self._held.clear()

    # ---------------------------------------------------------------- one cycle
    async def cycle(self, game_id: str, wait: bool = True) -> CycleReport:
        report = CycleReport()
        pending = self._pending.setdefault(game_id, set())
        if len(pending) >= PIPELINE_DEPTH and not wait:
            report.skipped = True
            return report  # the match service is behind: the loop goes on to the other pools (lease renewed)
        while len(pending) >= PIPELINE_DEPTH:
            await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        left = [f for f in await self.store.formations(game_id) if f.formation_id not in self._in_flight]
        if left:
            await self._recover(game_id, left, report)
        now = self.clock()
        batch = self.config.matchmaking_batch
        anchors: list[mmpb.Ticket] = []
        for ticket in await self.store.due(game_id, now, batch):
            if now >= ticket.expires_unix_ms:
                if await self.store.expire(game_id, ticket.ticket_id, now):
                    report.expired += 1
            elif ticket.allow_bots:
                anchors.append(ticket)  # at its longest wait: seated this cycle, bots filling in
        seen = {t.ticket_id for t in anchors}
        anchors += [t for t in await self.store.oldest(game_id, batch) if t.ticket_id not in seen and
                    now < t.expires_unix_ms]
        if anchors:
            per_side = 2 * max(max(t.player_counts, default=2) for t in anchors)
            queries = [(t.rating, window(self.config, now - t.created_unix_ms)) for t in anchors]
            tables = plan(self.config, anchors, await self.store.nearest(game_id, queries, per_side), now)
            if tables:
                await self._seat_all(game_id, tables, now, report, wait)
        metrics.TICKETS_WAITING.labels(game_id).set(await self.store.waiting_count(game_id))
        return report

    async def _seat_all(self, game_id: str, tables: list[Table], now: int, report: CycleReport,
                        wait: bool) -> None:
        formations = [new_formation(self.holder, t.ticket_ids, now) for t in tables]
        results = await self.store.claim_many(game_id, formations)
        if LEASE_LOST in results:
            report.lease_lost = True
        claimed = [(t, f) for t, f, r in zip(tables, formations, results, strict=True) if r == CLAIMED]
        if not claimed:
            return
        difficulties: dict[int, int] = {}
        if any(t.bots for t, _ in claimed):
            ids = [bot_id(d) for d in DIFFICULTIES]
            raws = await self.store.get_ratings(game_id, ids)
            bots = {d: record_of(game_id, bot_id(d), raws.get(bot_id(d))) for d in DIFFICULTIES}
            difficulties = {i: choose_difficulty([p.rating for p in t.people], bots)
                            for i, (t, _) in enumerate(claimed) if t.bots}
        seating = {f.formation_id for _, f in claimed}
        self._in_flight |= seating
        task = asyncio.create_task(self._seat(game_id, claimed, difficulties, report))
        pending = self._pending.setdefault(game_id, set())
        pending.add(task)

        def done(finished: asyncio.Task[None]) -> None:
            pending.discard(finished)
            self._in_flight -= seating  # whatever is left of them is recovered by the next cycle
            if not finished.cancelled() and finished.exception() is not None:
                log.error("seating tables of %s failed", game_id, exc_info=finished.exception())

        task.add_done_callback(done)
        if wait:
            await asyncio.wait([task])

    async def _seat(self, game_id: str, claimed: list[tuple[Table, Formation]], difficulties: dict[int, int],
                    report: CycleReport) -> None:
        created = await asyncio.gather(*(self._create(game_id, t, f, difficulties.get(i, 0))
                                         for i, (t, f) in enumerate(claimed)))
        await self._finish(game_id, [(f, t.people, t.bots) for (t, f), c in zip(claimed, created, strict=True)
                                     if c is not None], report)

    async def _create(self, game_id: str, table: Table, formation: Formation, difficulty: int) -> CreatedMatch | None:
        """Creates the table's match and fills the formation's assignments; None when it failed (the
        tickets are back in the pool then)."""
        async with self._seating:
            if self.config.matchmaking_pause_after_claim_ms:
                await asyncio.sleep(self.config.matchmaking_pause_after_claim_ms / 1000)
            order = list(range(table.num_players))
            self.rng.shuffle(order)
            seat_of = {t.ticket_id: order[i] for i, t in enumerate(table.people)}
            seats = [mpb.SeatSpec(kind=mpb.SEAT_KIND_BOT, difficulty=difficulty)  # type: ignore[arg-type]
                     for _ in range(table.num_players)]
            for ticket in table.people:
                seats[seat_of[ticket.ticket_id]] = mpb.SeatSpec(
                    kind=mpb.SEAT_KIND_HUMAN, reserved_player_id=ticket.player_id,
                    reserved_display_name=ticket.display_name)
            try:
                created = await self.creator.create(game_id, seats)
            except Exception as exc:  # the match service is unreachable or refused: the tickets wait on
                log.warning("creating a match of %s failed: %s", game_id, exc)
                await self.store.release(game_id, formation)
                return None
        now = self.clock()
        formation.match_id = created.match_id
        formation.assignments = {
            t.ticket_id: mmpb.Assignment(
                match_id=created.match_id, seat=seat_of[t.ticket_id],
                seat_token=created.seat_tokens[seat_of[t.ticket_id]], num_players=table.num_players,
                bot_seats=table.bots, assigned_unix_ms=now).SerializeToString()
            for t in table.people
        }
        return created

    async def _finish(self, game_id: str, items: Sequence[tuple[Formation, Sequence[mmpb.Ticket], int]],
                      report: CycleReport) -> None:
        """Assigns formations whose match exists, in one step; a formation that lost a ticket (cancelled,
        or undone by a replica that took the pool over) is not placed and its match goes to bots."""
        if not items:
            return
        now = self.clock()
        results = await self.store.assign_many(game_id, [f for f, _, _ in items], now,
                                               self.config.ticket_result_ttl_seconds * 1000)
        tracked = []
        for (formation, people, bots), ok in zip(items, results, strict=True):
            if not ok:
                seated = [mmpb.Assignment.FromString(a) for a in formation.assignments.values()]
                await self._abandon(CreatedMatch(formation.match_id, {a.seat: a.seat_token for a in seated}), report)
                continue
            for counts in (report, self.totals):
                counts.formed += 1
                counts.seated += len(formation.ticket_ids)
                counts.bot_seats += bots
            metrics.MATCHES_FORMED.labels(game_id).inc()
            if bots:
                metrics.BOT_SEATS_FILLED.labels(game_id).inc(bots)
            for ticket in people:
                metrics.TIME_TO_MATCH.labels(game_id).observe(max(now - ticket.created_unix_ms, 0) / 1000)
            tracked.append((game_id, formation.match_id))
        if self.keeper is not None and tracked:
            await self.keeper.track(tracked)

    async def _abandon(self, created: CreatedMatch, report: CycleReport) -> None:
        report.abandoned += 1
        self.totals.abandoned += 1
        log.info("match %s lost its group while being formed; bots play it out", created.match_id)
        await self.creator.abandon(created.match_id, created.seat_tokens)

    async def _recover(self, game_id: str, formations: list[Formation], report: CycleReport) -> None:
        """Formations left by a holder that died (or lost the lease) mid-cycle are undone: their
        tickets go back to the pool with their wait. A match that holder created meanwhile is never
        assigned: its holder's own assignment fails and hands it to bots, or, if the holder died, the
        match's turn limit does (bots take over seats whose people never come)."""
        report.recovered += len(formations)
        for formation in formations:
            log.info("putting back the tickets of formation %s of %s", formation.formation_id, formation.holder)
            await self.store.release(game_id, formation)
