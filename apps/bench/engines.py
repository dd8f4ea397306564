"""Engine benchmarks per registered game: random-playout steps per second on one core, the 99th
percentile of listing legal actions, and ApplyAction over gRPC beside the empty-call baseline."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from apps.bench.harness import bench_channel, closed_loop, empty_call_rate, server_process, table, verdict
from services.rules import registry
from services.rules.service import wrap_state
from sizzle.rules.v1 import rules_service_pb2 as pb
from sizzle.rules.v1 import rules_service_pb2_grpc

STEPS_TARGET = 5_000
LEGAL_P99_TARGET_MS = 1.0
GRPC_RATIO_TARGET = 0.5


def playout_speed(game_id: str, seconds: float) -> tuple[float, float]:
    """(steps per second, p99 of legal_actions in ms) over random playouts for `seconds`."""
    engine = registry.get_engine(game_id)
    rng = random.Random(1)
    spec = engine.spec
    steps = 0
    legal_times: list[float] = []
    stop = time.perf_counter() + seconds
    start = time.perf_counter()
    game = 0
    while time.perf_counter() < stop:
        state = engine.new_game(rng.randint(spec.min_players, spec.max_players), None, game)
        game += 1
        while not state.core.game_over:
            t0 = time.perf_counter()
            legal = engine.legal_actions(state)
            legal_times.append(time.perf_counter() - t0)
            engine.apply(state, state.core.seat_to_move, rng.choice(legal))
            steps += 1
    elapsed = time.perf_counter() - start
    legal_times.sort()
    return steps / elapsed, legal_times[int(0.99 * (len(legal_times) - 1))] * 1000


def midgame_request(game_id: str) -> pb.ApplyActionRequest:
    engine = registry.get_engine(game_id)
    rng = random.Random(3)
    state = engine.new_game(engine.spec.min_players, None, 3)
    for _ in range(10):
        engine.apply(state, state.core.seat_to_move, rng.choice(engine.legal_actions(state)))
    return pb.ApplyActionRequest(state=wrap_state(engine, state), seat=state.core.seat_to_move,
                                 action_id=engine.legal_actions(state)[0])


async def grpc_rates(target: str, games: list[str], seconds: float, concurrency: int) -> dict[str, tuple]:
    results = {}
    async with bench_channel(target) as channel:
        stub = rules_service_pb2_grpc.RulesServiceStub(channel)
        await empty_call_rate(channel, 0.5, concurrency)  # warm up
        for game_id in games:
            request = midgame_request(game_id)
            baseline = await empty_call_rate(channel, seconds, concurrency)
            def apply_call(_: int, r: pb.ApplyActionRequest = request) -> Any:
                return stub.ApplyAction(r, timeout=10)

            apply = await closed_loop(apply_call, seconds, concurrency)
            results[game_id] = (apply, baseline)
    return results


def run(games: list[str], seconds: float = 3.0) -> tuple[str, bool]:
    rows = []
    ok = True
    with server_process("rules") as target:
        rates = asyncio.run(grpc_rates(target, games, seconds, concurrency=8))
    for game_id in games:
        steps, legal_p99 = playout_speed(game_id, seconds)
        apply, baseline = rates[game_id]
        ratio = apply.per_second / baseline.per_second
        good = steps >= STEPS_TARGET and legal_p99 < LEGAL_P99_TARGET_MS and ratio >= GRPC_RATIO_TARGET
        ok &= good
        rows.append([game_id, f"{steps:,.0f}", f"{legal_p99:.3f}", f"{apply.per_second:,.0f}",
                     f"{baseline.per_second:,.0f}", f"{ratio:.2f}", verdict(good)])
    text = table(
        f"Engines (targets: >= {STEPS_TARGET:,} steps/s on one core, legal actions p99 < {LEGAL_P99_TARGET_MS} ms,"
        f" ApplyAction >= {GRPC_RATIO_TARGET} x the empty call)",
        ["game", "steps/s", "legal p99 ms", "ApplyAction/s", "empty call/s", "ratio", "verdict"], rows)
    return text, ok
