"""Match-service benchmarks with a real Redis: SubmitAction beside the empty call, concurrent
WatchMatch streams with their delivery latency, and Redis memory per live match by game."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import grpc
import redis

from apps.bench.harness import (
    Rate,
    bench_channel,
    closed_loop,
    empty_call_rate,
    percentile,
    server_process,
    table,
    verdict,
)
from services.auth.tokens import SEAT, SERVICE, Identity, TokenSigner
from services.kit.config import Config
from services.match.core import Matches
from services.match.redis_store import RedisStore
from services.rules import registry
from sizzle.auth.v1 import auth_service_pb2 as apb
from sizzle.auth.v1 import auth_service_pb2_grpc
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc

SUBMIT_RATIO_TARGET = 1 / 3
WATCH_STREAMS_TARGET = 2_000
WATCH_P99_TARGET_MS = 100.0
MEMORY_TARGET_KIB = 16.0
HUMAN = mpb.SeatSpec(kind=mpb.SEAT_KIND_HUMAN)


def auth(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


@dataclass
class MirroredMatch:
    """A two-seat match this client plays both seats of, mirrored locally to know the legal actions."""

    match_id: str
    tokens: dict[int, str]
    state: Any
    version: int
    rng: random.Random = field(default_factory=random.Random)


async def new_match(stub: Any, players: list[str], game_id: str, seed: int) -> MirroredMatch:
    engine = registry.get_engine(game_id)
    created = await stub.CreateMatch(mpb.CreateMatchRequest(game_id=game_id, seats=[HUMAN, HUMAN], seed=seed),
                                     metadata=auth(players[0]), timeout=10)
    tokens = {}
    for token in players:
        joined = await stub.JoinMatch(mpb.JoinMatchRequest(match_id=created.match.match_id, accept_fixed_seed=True),
                                      metadata=auth(token), timeout=10)
        tokens[joined.seat] = joined.seat_token
        version = joined.match.version
    state = engine.new_game(2, dict(created.match.options), seed)
    return MirroredMatch(created.match.match_id, tokens, state, version, random.Random(seed))


async def submit_next(stub: Any, game: MirroredMatch, game_id: str) -> None:
    engine = registry.get_engine(game_id)
    seat = game.state.core.seat_to_move
    action = game.rng.choice(engine.legal_actions(game.state))
    request = mpb.SubmitActionRequest(match_id=game.match_id, action_id=action, expected_version=game.version,
                                      request_id=uuid.uuid4().hex)
    response = await stub.SubmitAction(request, metadata=auth(game.tokens[seat]), timeout=10)
    engine.apply(game.state, seat, action)
    game.version = response.match.version


async def guests(channel: grpc.aio.Channel, count: int) -> list[str]:
    auth_stub = auth_service_pb2_grpc.AuthServiceStub(channel)
    return [(await auth_stub.CreateGuest(apb.CreateGuestRequest(display_name=f"bench{i}"), timeout=10)).token
            for i in range(count)]


async def submit_rates(target: str, seconds: float, concurrency: int, game_id: str,
                       rounds: int = 3) -> tuple[Rate, Rate]:
    """SubmitAction and the empty call, in alternating rounds so that both see the same machine."""
    async with bench_channel(target) as channel:
        stub = match_service_pb2_grpc.MatchServiceStub(channel)
        players = await guests(channel, 2)
        games = [await new_match(stub, players, game_id, seed=i + 1) for i in range(concurrency)]

        async def submit(index: int) -> None:
            if games[index].state.core.game_over:
                games[index] = await new_match(stub, players, game_id, seed=random.getrandbits(40) + 1)
            await submit_next(stub, games[index], game_id)

        await empty_call_rate(channel, 0.5, concurrency)
        await closed_loop(submit, 0.5, concurrency)  # warm-up
        baseline, submitted = Rate(0, 0.0, []), Rate(0, 0.0, [])
        for _ in range(rounds):
            baseline += await empty_call_rate(channel, seconds / rounds, concurrency)
            submitted += await closed_loop(submit, seconds / rounds, concurrency)
        return submitted, baseline


async def watch_latency(target: str, streams: int, per_match: int, seconds: float, rate: float) -> tuple[int, list]:
    """`streams` WatchMatch streams (per_match on each match); actions submitted at `rate` per second;
    returns (streams that got every update, delivery latencies in seconds)."""
    # Separate connections (a local subchannel pool each), at most 100 streams on any one of them.
    channels = [bench_channel(target, [("grpc.use_local_subchannel_pool", 1)])
                for _ in range(max(1, streams // 100))]
    stub = match_service_pb2_grpc.MatchServiceStub(channels[0])
    players = await guests(channels[0], 2)
    games = [await new_match(stub, players, "grill_party", seed=i + 1) for i in range(streams // per_match)]
    sent: dict[tuple[str, int], float] = {}
    latencies: list[float] = []
    complete = 0
    started = asyncio.Event()
    ready = 0
    finals: dict[str, int] = {}  # the last version of each match, set just before it is made

    async def watch(index: int) -> None:
        nonlocal ready, complete
        game = games[index % len(games)]
        watcher = match_service_pb2_grpc.MatchServiceStub(channels[index % len(channels)])
        call = watcher.WatchMatch(mpb.WatchMatchRequest(match_id=game.match_id, from_version=game.version))
        last = game.version
        async for update in call:
            if update.match.version == game.version and last == game.version and not started.is_set():
                ready += 1
                if ready == streams:
                    started.set()
                continue
            now = time.perf_counter()
            for version in range(last + 1, update.match.version + 1):
                if (game.match_id, version) in sent:
                    latencies.append(now - sent[(game.match_id, version)])
            last = update.match.version
            if game.match_id in finals and last >= finals[game.match_id]:
                complete += 1  # it saw every update up to the match's last version
                break
        call.cancel()

    tasks = [asyncio.create_task(watch(i)) for i in range(streams)]
    setup = time.perf_counter()
    await asyncio.wait_for(started.wait(), 300)
    print(f"  {streams} WatchMatch streams open in {time.perf_counter() - setup:.1f}s", flush=True)
    end = time.perf_counter() + seconds
    index = 0
    while time.perf_counter() < end:
        game = games[index % len(games)]
        index += 1
        if game.state.core.game_over:
            continue
        sent[(game.match_id, game.version + 1)] = time.perf_counter()
        await submit_next(stub, game, "grill_party")
        await asyncio.sleep(1 / rate)
    # One last action in every match tells its watchers the run is over.
    for game in games:
        if not game.state.core.game_over:
            finals[game.match_id] = game.version + 1
            await submit_next(stub, game, "grill_party")
        else:
            finals[game.match_id] = game.version
    await asyncio.wait(tasks, timeout=30)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for channel in channels:
        await channel.close()
    return complete, latencies


def typical_length(game_id: str, games: int = 20) -> int:
    """The mean number of actions of a random game at the smallest table (as the memory run plays)."""
    engine = registry.get_engine(game_id)
    rng = random.Random(11)
    total = 0
    for index in range(games):
        state = engine.new_game(engine.spec.min_players, None, index + 1)
        while not state.core.game_over:
            engine.apply(state, state.core.seat_to_move, rng.choice(engine.legal_actions(state)))
            total += 1
    return total // games


def data_memory(client: redis.Redis) -> int:
    """Redis's used memory less what its client connections' buffers take."""
    memory = client.info("memory")
    return int(memory["used_memory"]) - int(memory.get("mem_clients_normal", 0))


async def memory_per_match(redis_url: str, game_id: str, matches: int, moves: int) -> float:
    """Bytes of Redis memory per live match: `matches` matches created and advanced `moves` actions
    each through the match service's own code, measured with Redis's used_memory less the buffers of
    client connections (mem_clients_normal: the store's pool opens its connections during the run,
    about 25 KiB each, a cost per connection, not per match)."""
    prefix = f"sizzle-bench-{uuid.uuid4().hex[:8]}"
    config = Config(redis_url=redis_url, redis_prefix=prefix)
    store = RedisStore(redis_url, prefix, 3600)
    signer = TokenSigner(config.token_key, 3600)
    core = Matches(config, store, signer)
    client = redis.Redis.from_url(redis_url)
    engine = registry.get_engine(game_id)
    players = engine.spec.min_players
    service = Identity(kind=SERVICE, player_id="bench")
    client.execute_command("MEMORY", "PURGE")
    before = data_memory(client)
    rng = random.Random(7)

    async def one(index: int) -> None:
        seats = [mpb.SeatSpec(kind=mpb.SEAT_KIND_HUMAN, reserved_player_id=f"p{s}") for s in range(players)]
        created = await core.create(service, mpb.CreateMatchRequest(game_id=game_id, seats=seats, seed=index + 1))
        match_id = created.match.match_id
        version = created.match.version
        state = engine.new_game(players, None, index + 1)
        for _ in range(moves):
            if state.core.game_over:
                break
            seat = state.core.seat_to_move
            action = rng.choice(engine.legal_actions(state))
            identity = Identity(kind=SEAT, player_id=f"p{seat}", match_id=match_id, seat=seat)
            response = await core.submit(identity, mpb.SubmitActionRequest(
                match_id=match_id, action_id=action, expected_version=version, request_id=uuid.uuid4().hex))
            engine.apply(state, seat, action)
            version = response.match.version

    for start in range(0, matches, 32):
        await asyncio.gather(*(one(i) for i in range(start, min(matches, start + 32))))
    after = data_memory(client)
    await store.close()
    keys = list(client.scan_iter(match=f"{prefix}:*", count=5000))  # bench clean-up only
    for chunk in range(0, len(keys), 5000):
        client.delete(*keys[chunk:chunk + 5000])
    return (after - before) / matches


def run(redis_url: str, games: list[str], seconds: float = 5.0, quick: bool = False) -> tuple[str, bool]:
    prefix = f"sizzle-bench-{uuid.uuid4().hex[:8]}"
    env = {"SIZZLE_REDIS_URL": redis_url, "SIZZLE_REDIS_PREFIX": prefix,
           "SIZZLE_TOKEN_KEY": "sizzle-bench-key-0123456789abcdefgh"}
    with server_process("match", env) as target:
        submit, baseline = asyncio.run(submit_rates(target, max(seconds, 6.0), 8, "grill_party"))
    ratio = submit.per_second / baseline.per_second
    print(f"submit: {submit.per_second:.0f}/s, baseline {baseline.per_second:.0f}/s", flush=True)
    ok_submit = ratio >= SUBMIT_RATIO_TARGET
    lines = [table(
        f"SubmitAction over gRPC with Redis (target: >= {SUBMIT_RATIO_TARGET:.2f} x the empty call; aim 0.5)",
        ["call", "calls/s", "p50 ms", "p99 ms", "ratio", "verdict"],
        [["SubmitAction (grill_party)", f"{submit.per_second:,.0f}", f"{submit.p50_ms:.2f}", f"{submit.p99_ms:.2f}",
          f"{ratio:.2f}", verdict(ok_submit)],
         ["empty call (health Check)", f"{baseline.per_second:,.0f}", f"{baseline.p50_ms:.2f}",
          f"{baseline.p99_ms:.2f}", "1.00", ""]])]
    streams = 500 if quick else WATCH_STREAMS_TARGET
    with server_process("match", {**env, "SIZZLE_REDIS_PREFIX": prefix + "w"}) as target:
        complete, latencies = asyncio.run(watch_latency(target, streams, 10, seconds, rate=50))
    p99 = percentile(latencies, 99) * 1000
    ok_watch = complete == streams and p99 <= WATCH_P99_TARGET_MS and streams >= WATCH_STREAMS_TARGET
    lines.append(table(
        f"WatchMatch streams served by one process (target: >= {WATCH_STREAMS_TARGET:,} streams, delivery p99 <="
        f" {WATCH_P99_TARGET_MS:.0f} ms)",
        ["streams", "complete", "updates", "p50 ms", "p99 ms", "verdict"],
        [[str(streams), str(complete), str(len(latencies)), f"{percentile(latencies, 50) * 1000:.1f}", f"{p99:.1f}",
          verdict(ok_watch)]]))
    rows = []
    ok_memory = True
    # Enough matches that the per-match figure is steady (Redis's own overhead is a few hundred KiB at
    # most, under 1% of the total), few enough that the section takes minutes, not half an hour: every
    # action goes through the match service's submit path at under 1,000 a second on two cores.
    matches = 300 if quick else 2_000
    mid_matches = 50 if quick else 250
    for game_id in games:
        started = time.perf_counter()
        early = asyncio.run(memory_per_match(redis_url, game_id, matches, moves=20))
        mid_moves = typical_length(game_id) // 2
        mid = asyncio.run(memory_per_match(redis_url, game_id, mid_matches, moves=mid_moves))
        print(f"  memory: {game_id} measured in {time.perf_counter() - started:.0f}s", flush=True)
        good = max(early, mid) / 1024 < MEMORY_TARGET_KIB
        ok_memory &= good
        rows.append([game_id, str(matches), f"{early / 1024:.2f}", str(mid_matches), str(mid_moves),
                     f"{mid / 1024:.2f}", verdict(good)])
    lines.append(table(f"Redis memory per live match (target: < {MEMORY_TARGET_KIB:.0f} KiB), 20 actions in and at"
                       " mid-game (half a random game's actions)",
                       ["game", "matches", "KiB at 20", "matches", "mid-game actions", "KiB at mid-game", "verdict"],
                       rows))
    return "\n\n".join(lines), ok_submit and ok_watch and ok_memory
