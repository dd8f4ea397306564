"""Bot benchmarks: a bot turn through Celery and Redis (the previous action applied -> the bot's
action applied, seen by a watching client) beside a Celery no-op round trip measured in the same run,
in alternating slices."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid

import redis

from apps.bench.harness import bench_channel, percentile, server_process, table, verdict
from apps.bench.match import auth, guests
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc

P50_TARGET, P99_TARGET = 3.0, 5.0
SLICE_SECONDS = 2.0  # bot turns between two batches of no-op round trips
DECISION_TARGET = 2.0


def noop_round_trips(broker_url: str, queue: str, count: int) -> list[float]:
    from services.kit.config import Config
    from workers.bots.celery_app import make_celery

    app = make_celery(Config(broker_url=broker_url, bot_queue=queue))
    client = redis.Redis.from_url(broker_url)
    samples = []
    for i in range(count):
        key = f"sizzle-bench-noop-{uuid.uuid4().hex}"
        start = time.perf_counter()
        app.send_task("workers.bots.tasks.noop", args=[key], queue=queue)
        assert client.blpop([key], timeout=30) is not None, "the worker did not answer"
        samples.append(time.perf_counter() - start)
        if i == 0:
            samples.clear()  # the first one warms the worker up
    return samples


async def bot_turn_latencies(target: str, seconds: float) -> list[float]:
    """One person (this client) against one hard bot in Grill Party; every bot action's latency from the
    update before it (the previous action applied) to its own update, seen on WatchMatch. Stops after
    `seconds` once the person is to move (or the match is over)."""
    latencies: list[float] = []
    async with bench_channel(target) as channel:
        stub = match_service_pb2_grpc.MatchServiceStub(channel)
        (token,) = await guests(channel, 1)
        stop = time.perf_counter() + seconds
        while time.perf_counter() < stop:
            seats = [mpb.SeatSpec(kind=mpb.SEAT_KIND_HUMAN),
                     mpb.SeatSpec(kind=mpb.SEAT_KIND_BOT, difficulty=mpb.DIFFICULTY_HARD)]
            created = await stub.CreateMatch(mpb.CreateMatchRequest(game_id="grill_party", seats=seats),
                                             metadata=auth(token), timeout=10)
            joined = await stub.JoinMatch(mpb.JoinMatchRequest(match_id=created.match.match_id),
                                          metadata=auth(token), timeout=10)
            stream = stub.WatchMatch(mpb.WatchMatchRequest(match_id=created.match.match_id, from_version=-1),
                                     metadata=auth(joined.seat_token))
            previous_at, previous_seat = time.perf_counter(), -1
            async for update in stream:
                now = time.perf_counter()
                match = update.match
                if previous_seat == 1 and match.version > 0:
                    latencies.append(now - previous_at)
                previous_at, previous_seat = now, match.seat_to_move
                if match.status == mpb.MATCH_STATUS_FINISHED:
                    break
                if time.perf_counter() > stop and match.seat_to_move == joined.seat:
                    break  # the person's turn: no bot turn is left in flight to slow what is measured next
                if update.legal_actions:
                    choice = update.legal_actions[-1]  # the person plays fast: stop, or the last option
                    await stub.SubmitAction(mpb.SubmitActionRequest(
                        match_id=match.match_id, action_id=choice.action_id, expected_version=match.version,
                        request_id=uuid.uuid4().hex), metadata=auth(joined.seat_token), timeout=10)
                    previous_at = time.perf_counter()  # the person's action is applied now
            stream.cancel()
    return latencies


def run(redis_url: str, seconds: float, games: list[str]) -> tuple[str, bool]:
    run_id = uuid.uuid4().hex[:8]
    broker = redis_url.rsplit("/", 1)[0] + "/11"
    queue, prefix = f"bots-bench-{run_id}", f"sizzle-bench-{run_id}"
    env = {"SIZZLE_REDIS_URL": redis_url, "SIZZLE_REDIS_PREFIX": prefix, "SIZZLE_BROKER_URL": broker,
           "SIZZLE_BOT_QUEUE": queue, "SIZZLE_TOKEN_KEY": "sizzle-bench-key-0123456789abcdefgh"}
    with server_process("match", env) as target:
        worker = subprocess.Popen([sys.executable, "-m", "apps.cli", "worker", "--concurrency", "1",
                                   "--loglevel", "WARNING"], env={**os.environ, **env, "SIZZLE_MATCH_ADDR": target},
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            # Interleaved, a slice of bot turns then a batch of no-ops, so that both see the same
            # moments of the machine (a shared 2-core box drifts by a third within a minute).
            noop, turns = noop_round_trips(broker, queue, 31), []
            stop = time.perf_counter() + seconds
            while time.perf_counter() < stop:
                turns += asyncio.run(bot_turn_latencies(target, min(SLICE_SECONDS, stop - time.perf_counter())))
                noop += noop_round_trips(broker, queue, 31)
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(30)
    n50, n99 = percentile(noop, 50), percentile(noop, 99)
    t50, t99 = percentile(turns, 50), percentile(turns, 99)
    ok = t50 <= P50_TARGET * n50 and t99 <= P99_TARGET * n99
    text = table(
        f"Bot turn through Celery and Redis (targets: p50 <= {P50_TARGET:.0f}x and p99 <= {P99_TARGET:.0f}x a Celery"
        " no-op round trip)",
        ["measure", "samples", "p50 ms", "p99 ms", "p50 ratio", "p99 ratio", "verdict"],
        [["bot turn (grill_party, hard)", len(turns), f"{t50 * 1000:.1f}", f"{t99 * 1000:.1f}", f"{t50 / n50:.2f}",
          f"{t99 / n99:.2f}", verdict(ok)],
         ["Celery no-op round trip", len(noop), f"{n50 * 1000:.1f}", f"{n99 * 1000:.1f}", "1.00", "1.00", ""]])
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=2000))  # bench clean-up only
    if keys:
        client.delete(*keys)
    policy_text, policy_ok = policy_decisions(games)
    return text + "\n\n" + policy_text, ok and policy_ok


def policy_decisions(games: list[str], positions: int = 1000) -> tuple[str, bool]:
    """The ONNX policy's whole decision against a bare onnxruntime call on the same model."""
    from workers.bots.policy_bench import measure

    rows = []
    ok = True
    for game_id in games:
        m = measure(game_id, positions, passes=5)
        good = m["ratio"] <= DECISION_TARGET
        ok &= good
        rows.append([game_id, f"{m['policy_decision_s'] * 1e6:.0f}", f"{m['observation_s'] * 1e6:.0f}",
                     f"{m['observation_in_loop_s'] * 1e6:.0f} + {m['inference_and_pick_in_loop_s'] * 1e6:.0f}",
                     f"{m['bare_onnxruntime_s'] * 1e6:.0f}", f"{m['ratio']:.2f}", verdict(good)])
    return table(f"Policy decision against a bare onnxruntime call (target: <= {DECISION_TARGET:.0f}x)",
                 ["game", "decision us", "observation alone us", "in the loop: observation + inference and pick us",
                  "bare call us", "ratio", "verdict"], rows), ok
