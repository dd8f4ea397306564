"""Matchmaking benchmarks on a real Redis: tickets seated per second with 10,000 tickets waiting, with
matches created over gRPC by a match server in its own process (beside that server's own CreateMatch
rate, the ceiling) and by the matchmaker alone; and the matchmaker's cycle time as the waiting tickets
grow from 1,000 to 100,000, compared with n log n growth."""

from __future__ import annotations

import asyncio
import math
import random
import statistics
import time
import uuid
from collections.abc import Sequence

import redis

from apps.bench.harness import Rate, closed_loop, server_process, table, verdict
from services.kit.config import Config
from services.kit.tls import CLIENT_FIELDS
from services.matchmaking.creator import CreatedMatch, GrpcMatchCreator
from services.matchmaking.matchmaker import Matchmaker
from services.matchmaking.model import new_ticket_id
from services.matchmaking.redis_store import RedisMatchmakingStore
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb

GAME = "hibachi"
WAITING = 10_000
# Seated per second through gRPC over the ceiling (two tickets per CreateMatch the server answers alone).
CEILING_RATIO_TARGET = 0.5
GROWTH_TARGET = 1.0  # cycle-time growth 1k -> 100k over n log n growth
KEY = "sizzle-bench-matchmaking-key-0123456789"


class InstantCreator:
    """Creates nothing: isolates the matchmaker's own work (reads, planning, claims, assignments)."""

    def __init__(self) -> None:
        self.count = 0

    async def create(self, game_id: str, seats: Sequence[mpb.SeatSpec]) -> CreatedMatch:
        self.count += 1
        return CreatedMatch(f"m{self.count}", {i: "t" for i, s in enumerate(seats) if s.kind == mpb.SEAT_KIND_HUMAN})

    async def abandon(self, match_id: str, seat_tokens: dict[int, str]) -> None:
        return None


class Filler:
    """Puts tickets into the pool as people would: spread ratings, two-player tables, no bots."""

    def __init__(self, store: RedisMatchmakingStore) -> None:
        self.store = store
        self.rng = random.Random(1)
        self.made = 0

    async def add(self, count: int) -> None:
        now = int(time.time() * 1000)
        tickets = []
        for _ in range(count):
            self.made += 1
            tickets.append(mmpb.Ticket(
                ticket_id=new_ticket_id(GAME), player_id=f"b{self.made}", display_name="bench", game_id=GAME,
                player_counts=[2], max_wait_seconds=3600, status=mmpb.TICKET_STATUS_WAITING, created_unix_ms=now,
                wait_deadline_unix_ms=now + 3_600_000, expires_unix_ms=now + 3_600_000,
                rating=round(self.rng.gauss(25.0, 5.0), 3)))
        for start in range(0, len(tickets), 2_000):
            await self.store.create_tickets(tickets[start:start + 2_000], 3_600_000)

    async def top_up(self, target: int) -> None:
        missing = target - await self.store.waiting_count(GAME)
        if missing > 0:
            await self.add(missing)


def bench_config(prefix: str, redis_url: str) -> Config:
    environment = Config.from_env()  # only its TLS: the matchmaker's calls go as the other benchmarks' do
    return Config(redis_url=redis_url, redis_prefix=prefix, token_key=KEY, matchmaking_lease_ms=600_000,
                  matchmaking_window_growth=0.0, call_timeout_seconds=30.0,
                  **{name: getattr(environment, name) for name in CLIENT_FIELDS})


async def create_match_rate(target: str, seconds: float) -> Rate:
    """The ceiling: CreateMatch with two reserved seats, called back to back by 32 workers."""
    creator = GrpcMatchCreator(bench_config("unused", ""), target)
    seats = [mpb.SeatSpec(kind=mpb.SEAT_KIND_HUMAN, reserved_player_id=f"p{i}") for i in range(2)]
    try:
        await creator.create(GAME, seats)
        return await closed_loop(lambda _: creator.create(GAME, seats), seconds, 32)
    finally:
        await creator.close()


async def seated_per_second(redis_url: str, target: str | None, seconds: float) -> tuple[float, float, int]:
    """(tickets seated per second, median cycle ms, matches) with the pool kept at 10,000 waiting, run as
    the loop runs (tables seated in the background while the next cycle plans); matches created over
    gRPC at target, or instantly for None. The time is the wall time of the whole run, top-ups included."""
    prefix = f"sizzle-bench-{uuid.uuid4().hex[:8]}"
    config = bench_config(prefix, redis_url)
    store = RedisMatchmakingStore(redis_url, prefix)
    creator = GrpcMatchCreator(config, target) if target else InstantCreator()
    try:
        filler = Filler(store)
        await filler.add(WAITING)
        matchmaker = Matchmaker(config, store, creator, games=[GAME])
        await matchmaker.work(GAME)  # warm: connections, the first matches
        await filler.top_up(WAITING)
        before = (matchmaker.totals.seated, matchmaker.totals.formed)
        cycles: list[float] = []
        began = time.perf_counter()
        while time.perf_counter() < began + seconds:
            start = time.perf_counter()
            report = await matchmaker.work(GAME, wait=False)
            if report is not None and not report.skipped:
                cycles.append(time.perf_counter() - start)
            else:
                await asyncio.sleep(0.001)  # the match service is behind: as the loop would, come back later
            await filler.top_up(WAITING)  # people keep arriving
        await matchmaker.drain()
        elapsed = time.perf_counter() - began
        seated = matchmaker.totals.seated - before[0]
        return seated / elapsed, statistics.median(cycles) * 1000, matchmaker.totals.formed - before[1]
    finally:
        if isinstance(creator, GrpcMatchCreator):
            await creator.close()
        await store.close()
        drop(redis_url, prefix)


async def cycle_times(redis_url: str, sizes: Sequence[int], cycles: int) -> list[tuple[int, float, float]]:
    """(waiting tickets, median cycle ms, tickets seated per cycle) at each pool size."""
    out = []
    for size in sizes:
        prefix = f"sizzle-bench-{uuid.uuid4().hex[:8]}"
        store = RedisMatchmakingStore(redis_url, prefix)
        try:
            filler = Filler(store)
            await filler.add(size)
            matchmaker = Matchmaker(bench_config(prefix, redis_url), store, InstantCreator(), games=[GAME])
            times, seated = [], []
            for _ in range(cycles):
                await filler.top_up(size)
                start = time.perf_counter()
                report = await matchmaker.work(GAME)
                times.append(time.perf_counter() - start)
                assert report is not None
                seated.append(report.seated)
            out.append((size, statistics.median(times) * 1000, statistics.mean(seated)))
        finally:
            await store.close()
            drop(redis_url, prefix)
    return out


def drop(redis_url: str, prefix: str) -> None:
    client = redis.Redis.from_url(redis_url)
    batch = []
    for key in client.scan_iter(match=f"{prefix}:*", count=5000):  # bench clean-up only
        batch.append(key)
        if len(batch) >= 5000:
            client.unlink(*batch)
            batch = []
    if batch:
        client.unlink(*batch)


def run(redis_url: str, seconds: float = 3.0, quick: bool = False) -> tuple[str, bool]:
    with server_process("match", {"SIZZLE_TOKEN_KEY": KEY}) as target:
        first = asyncio.run(create_match_rate(target, seconds))
        grpc_rate, grpc_cycle, grpc_matches = asyncio.run(seated_per_second(redis_url, target, seconds))
        # The better of two measurements, before and after, on a machine other work may share.
        ceiling = max(first, asyncio.run(create_match_rate(target, seconds)), key=lambda r: r.per_second)
    alone_rate, alone_cycle, alone_matches = asyncio.run(seated_per_second(redis_url, None, seconds))
    ratio = grpc_rate / (2 * ceiling.per_second)
    ok_rate = ratio >= CEILING_RATIO_TARGET
    lines = [table(
        f"Tickets seated per second with {WAITING:,} waiting, people arriving as fast as they are seated (target:"
        f" through gRPC >= {CEILING_RATIO_TARGET} x the ceiling of one match server; the matchmaker alone for scale)",
        ["how matches are made", "seated/s", "cycle p50 ms (planning)", "matches", "ratio", "verdict"],
        [["CreateMatch over gRPC", f"{grpc_rate:,.0f}", f"{grpc_cycle:.1f}", str(grpc_matches), f"{ratio:.2f}",
          verdict(ratio >= CEILING_RATIO_TARGET)],
         ["ceiling: 2 x CreateMatch/s alone", f"{2 * ceiling.per_second:,.0f}", "", str(ceiling.calls), "1.00", ""],
         ["instantly (the matchmaker alone)", f"{alone_rate:,.0f}", f"{alone_cycle:.1f}", str(alone_matches), "",
          ""]])]
    sizes = [1_000, 3_000, 10_000] if quick else [1_000, 3_000, 10_000, 30_000, 100_000]
    rows = []
    measured = asyncio.run(cycle_times(redis_url, sizes, cycles=5 if quick else 15))
    base_n, base_ms, _ = measured[0]
    for n, ms, per_cycle in measured:
        nlogn = (n * math.log(n)) / (base_n * math.log(base_n))
        rows.append([f"{n:,}", f"{ms:.1f}", f"{per_cycle:.0f}", f"{ms / base_ms:.2f}", f"{nlogn:.1f}",
                     f"{(ms / base_ms) / nlogn:.3f}"])
    last_n, last_ms, _ = measured[-1]
    growth = (last_ms / base_ms) / ((last_n * math.log(last_n)) / (base_n * math.log(base_n)))
    ok_growth = growth <= GROWTH_TARGET
    lines.append(table(
        f"Matchmaker cycle time as waiting tickets grow (target: time growth {sizes[0]:,} -> {sizes[-1]:,} over n log n"
        f" growth <= {GROWTH_TARGET:.1f}; measured {growth:.3f}): {verdict(ok_growth)}",
        ["waiting", "cycle p50 ms", "seated/cycle", "time x", "n log n x", "ratio"], rows))
    return "\n\n".join(lines), ok_rate and ok_growth
