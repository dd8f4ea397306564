"""`make loadtest`: python -m services.loadtest [--players N] [--seconds S] [--match-replicas R] ..."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time

from services.bench.harness import bench_channel, percentile
from services.loadtest.players import SimulatedPlayer, Stats, verify
from services.loadtest.topology import Topology
from services.rules import registry


async def drive(topology: Topology, players: int, seconds: float, drain: float, games: list[str],
                queue_share: float) -> tuple:  # type: ignore[type-arg]
    round_robin = [("grpc.lb_policy_name", "round_robin")]
    target = topology.targets(topology.match_ports)
    channels = [bench_channel(target, round_robin) for _ in range(4)]
    mm_channels = [bench_channel(topology.targets(topology.matchmaking_ports), round_robin)
                   for _ in range(2)] if topology.matchmaking_ports else []
    stats = Stats()
    start = time.monotonic()
    stop_at = start + seconds
    sims = [SimulatedPlayer(i, channels[i % len(channels)], stats, games, think=(0.05, 0.3), reconnect_chance=0.02,
                            matchmaking=mm_channels[i % len(mm_channels)] if mm_channels else None,
                            queue_share=queue_share)
            for i in range(players)]
    tasks = [asyncio.create_task(p.run(stop_at)) for p in sims]
    await asyncio.wait(tasks, timeout=seconds + 15)
    for task in tasks:
        task.cancel()  # a straggler's seat is taken over by a bot at its turn limit
    await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.monotonic() - start
    lost, unfinished = await verify(channels[0], stats, drain)
    for channel in channels + mm_channels:
        await channel.close()
    return stats, elapsed, lost, unfinished


def report(stats: Stats, elapsed: float, lost: int, unfinished: int, topology: Topology, players: int) -> str:
    lines = [
        f"Load test: {players} simulated players for {elapsed:.0f}s against {topology.match_replicas} match "
        f"replica(s), {topology.matchmaking_replicas} matchmaking replica(s), {topology.workers} bot worker(s),"
        " one Redis, all on 127.0.0.1",
        f"  actions acknowledged  {len(stats.acked):>8}   {len(stats.acked) / elapsed:8.1f}/s",
        f"  matches started       {len(stats.started):>8}   {len(stats.started) / elapsed:8.2f}/s",
        f"  matches finished      {len(stats.finished):>8}   {len(stats.finished) / elapsed:8.2f}/s",
        f"  stream reconnects     {stats.reconnects:>8}",
        f"  tickets queued        {stats.queued:>8}   seated {stats.seated}, cancelled {stats.cancelled},"
        f" bot seats filled {stats.bot_seats}"
        + (f", time to match p50 {percentile(stats.time_to_match, 50):.1f}s"
           f" p99 {percentile(stats.time_to_match, 99):.1f}s" if stats.time_to_match else ""),
        "  latency per RPC (ms):   calls      p50      p95      p99",
    ]
    for name, samples in sorted(stats.latencies.items()):
        lines.append(f"    {name:<20} {len(samples):>7} {percentile(samples, 50) * 1000:8.1f} "
                     f"{percentile(samples, 95) * 1000:8.1f} {percentile(samples, 99) * 1000:8.1f}")
    lines.append("  errors by code: " + (", ".join(f"{k}: {v}" for k, v in sorted(stats.errors.items())) or "none"))
    lines.append(f"  lost actions: {lost}   (matches not finished by bots within the drain time: {unfinished})")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m services.loadtest")
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--drain", type=float, default=60, help="longest wait for bots to finish the matches")
    parser.add_argument("--match-replicas", type=int, default=2)
    parser.add_argument("--matchmaking-replicas", type=int, default=2)
    parser.add_argument("--queue-share", type=float, default=0.7,
                        help="share of games a player finds through matchmaking (the rest by hand)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--game", action="append", help="games to play (default: all)")
    args = parser.parse_args()
    redis_url = os.environ.get("SIZZLE_LOADTEST_REDIS_URL", "redis://127.0.0.1:6379/10")
    topology = Topology(redis_url, args.match_replicas, args.matchmaking_replicas, args.workers)
    topology.start()
    try:
        stats, elapsed, lost, unfinished = asyncio.run(
            drive(topology, args.players, args.seconds, args.drain, args.game or registry.game_ids(),
                  args.queue_share))
    finally:
        topology.stop()
    print(report(stats, elapsed, lost, unfinished, topology, args.players))
    print(f"  process logs: {topology.logs}")
    return 0 if lost == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
