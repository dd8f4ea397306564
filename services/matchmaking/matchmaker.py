"""The matchmaker loop. It runs in every replica; each pool (one per game) is worked by the holder
of its lease, renewed every cycle, which another replica takes when the holder stops renewing.

A cycle of a pool: finish or undo formations a dead holder left behind; expire the tickets whose
wait ran out (bots not allowed, or the bot fill kept failing); read anchors and their rating
neighbours through the indexes (never the whole pool); plan tables (forming.py); claim each table's
tickets in one atomic step; create its match through MatchService; record it; assign. A ticket
cancelled after the claim makes the assignment fail: its table's other tickets go back with their
wait, and the created match is handed to bots.
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
from services.matchmaking.creator import CreatedMatch, MatchCreator
from services.matchmaking.forming import Table, plan, window
from services.matchmaking.model import Formation, new_formation
from services.matchmaking.ratings import DIFFICULTIES, RatingKeeper, bot_id, choose_difficulty, record_of
from services.matchmaking.store import CLAIMED, LEASE_LOST, MatchmakingStore, wall_ms
from services.rules import registry
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb

log = logging.getLogger("sizzle.matchmaker")
SEATING_CONCURRENCY = 32


@dataclass
class CycleReport:
    formed: int = 0
    seated: int = 0
    bot_seats: int = 0
    expired: int = 0
    recovered: int = 0
    abandoned: int = 0
    lease_lost: bool = False


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

    # ---------------------------------------------------------------- the loop
    async def run(self) -> None:
        while True:
            games = list(self.games)
            self.rng.shuffle(games)  # replicas starting together spread over the pools
            for game_id in games:
                try:
                    await self.work(game_id)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("matchmaker cycle of %s failed", game_id)
            await asyncio.sleep(self.config.matchmaking_interval_ms / 1000)

    async def work(self, game_id: str) -> CycleReport | None:
        """One cycle of the pool if this replica holds (or takes) its lease."""
        if not await self.store.acquire_lease(game_id, self.holder, self.config.matchmaking_lease_ms):
            if game_id in self._held:
                self._held.discard(game_id)
                log.info("%s lost the lease of pool %s", self.holder, game_id)
            return None
        if game_id not in self._held:
            self._held.add(game_id)
            log.info("%s works pool %s", self.holder, game_id)
        return await self.cycle(game_id)

    async def release_leases(self) -> None:
        for game_id in list(self._held):
            try:
                await self.store.release_lease(game_id, self.holder)
            except Exception as exc:  # the lease lapses on its own
                log.warning("releasing the lease of %s: %s", game_id, exc)
        self._held.clear()

    # ---------------------------------------------------------------- one cycle
    async def cycle(self, game_id: str) -> CycleReport:
        report = CycleReport()
        for formation in await self.store.formations(game_id):
            await self._recover(game_id, formation, report)
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
            per_side = 2 * registry.get_engine(game_id).spec.max_players
            queries = [(t.rating, window(self.config, now - t.created_unix_ms)) for t in anchors]
            tables = plan(self.config, anchors, await self.store.nearest(game_id, queries, per_side), now)
            if tables:
                await self._seat_all(game_id, tables, now, report)
        metrics.TICKETS_WAITING.labels(game_id).set(await self.store.waiting_count(game_id))
        return report

    async def _seat_all(self, game_id: str, tables: list[Table], now: int, report: CycleReport) -> None:
        formations = [new_formation(self.holder, t.ticket_ids, now) for t in tables]
        results = await asyncio.gather(*(self.store.claim(game_id, f) for f in formations))
        if LEASE_LOST in results:
            report.lease_lost = True
        claimed = [(t, f) for t, f, r in zip(tables, formations, results, strict=True) if r == CLAIMED]
        if not claimed:
            return
        difficulties: dict[int, int] = {}
        if any(t.bots for t, _ in claimed):
            ids = [bot_id(d) for d in DIFFICULTIES]
            raws = await self.store.get_ratings(game_id, ids)
            bots = {d: record_of(bot_id(d), raws.get(bot_id(d))) for d in DIFFICULTIES}
            difficulties = {i: choose_difficulty([p.rating for p in t.people], bots)
                            for i, (t, _) in enumerate(claimed) if t.bots}
        await asyncio.gather(*(self._seat(game_id, t, f, difficulties.get(i, 0), report)
                               for i, (t, f) in enumerate(claimed)))

    async def _seat(self, game_id: str, table: Table, formation: Formation, difficulty: int,
                    report: CycleReport) -> None:
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
                return
            now = self.clock()
            formation.match_id = created.match_id
            formation.assignments = {
                t.ticket_id: mmpb.Assignment(
                    match_id=created.match_id, seat=seat_of[t.ticket_id],
                    seat_token=created.seat_tokens[seat_of[t.ticket_id]], num_players=table.num_players,
                    bot_seats=table.bots, assigned_unix_ms=now).SerializeToString()
                for t in table.people
            }
            if not await self.store.record_match(game_id, formation):
                # Another replica took the pool over and put the tickets back meanwhile.
                await self._abandon(created, report)
                return
            await self._assign(game_id, formation, table.people, table.bots, report)

    async def _assign(self, game_id: str, formation: Formation, people: Sequence[mmpb.Ticket] | None, bots: int,
                      report: CycleReport) -> None:
        now = self.clock()
        if not await self.store.assign(game_id, formation, now, self.config.ticket_result_ttl_seconds * 1000):
            seated = [mmpb.Assignment.FromString(a) for a in formation.assignments.values()]
            await self._abandon(CreatedMatch(formation.match_id, {a.seat: a.seat_token for a in seated}), report)
            return
        report.formed += 1
        report.seated += len(formation.ticket_ids)
        report.bot_seats += bots
        metrics.MATCHES_FORMED.labels(game_id).inc()
        if bots:
            metrics.BOT_SEATS_FILLED.labels(game_id).inc(bots)
        for ticket in people or ():
            metrics.TIME_TO_MATCH.labels(game_id).observe(max(now - ticket.created_unix_ms, 0) / 1000)
        if self.keeper is not None:
            await self.keeper.track(game_id, formation.match_id)

    async def _abandon(self, created: CreatedMatch, report: CycleReport) -> None:
        report.abandoned += 1
        log.info("match %s lost its group while being formed; bots play it out", created.match_id)
        await self.creator.abandon(created.match_id, created.seat_tokens)

    async def _recover(self, game_id: str, formation: Formation, report: CycleReport) -> None:
        """A formation left by a holder that died (or lost the lease) mid-cycle."""
        report.recovered += 1
        if formation.match_id:
            bots = 0
            if formation.assignments:
                first = mmpb.Assignment.FromString(next(iter(formation.assignments.values())))
                bots = first.bot_seats
            log.info("finishing formation %s of %s (match %s)", formation.formation_id, formation.holder,
                     formation.match_id)
            await self._assign(game_id, formation, None, bots, report)
        else:
            log.info("putting back the tickets of formation %s of %s", formation.formation_id, formation.holder)
            await self.store.release(game_id, formation)
