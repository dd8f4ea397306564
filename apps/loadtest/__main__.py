"""`make loadtest`: python -m apps.loadtest [--players N] [--seconds S] [--match-replicas R] ...

The local driver of the load tests' one scenario (apps/loadtest/scenario.py): a thread a
simulated player, against the local topology on 127.0.0.1; then the lost-action check and a report.
The cluster's load-test Job drives the same scenario with locust (deploy/load/locustfile.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time

import grpc

from apps.bench.harness import calls_tls, percentile
from apps.loadtest.lost_actions import count_lost_actions
from apps.loadtest.scenario import Habits, SimulatedPlayer, Stats
from apps.loadtest.topology import Topology
from services.kit.tls import open_channel
from services.rules import registry

# After the run's end, how long players still in a call get before the check starts (every call has
# a deadline; a straggler's seat is taken over by a bot at its turn limit).
STRAGGLER_SECONDS = 15


def drive(topology: Topology, players: int, seconds: float, drain: float, games: list[str],
          queue_share: float) -> tuple[Stats, float, int, int]:
    round_robin = [("grpc.lb_policy_name", "round_robin")]
    match_channels = [open_channel(topology.targets(topology.match_ports), calls_tls(), round_robin)
                      for _ in range(4)]
    matchmaking_channels: list[grpc.Channel] = [
        open_channel(topology.targets(topology.matchmaking_ports), calls_tls(), round_robin)
        for _ in range(2)] if topology.matchmaking_ports else []
    stats = Stats()
    habits = Habits(queue_share=queue_share)
    simulated = [SimulatedPlayer(index, match_channels[index % len(match_channels)], stats, games, habits,
                                 matchmaking_channels[index % len(matchmaking_channels)]
                                 if matchmaking_channels else None)
                 for index in range(players)]
    start = time.monotonic()
    stop_at = start + seconds
    threads = [threading.Thread(target=player.run, args=(stop_at,), name=player.name, daemon=True)
               for player in simulated]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, stop_at + STRAGGLER_SECONDS - time.monotonic()))
    elapsed = time.monotonic() - start
    lost, unfinished = count_lost_actions(match_channels[0], stats, drain)
    for channel in match_channels + matchmaking_channels:
        channel.close()
    return stats, elapsed, lost, unfinished


def report(stats: Stats, elapsed: float, lost: int, unfinished: int, topology: Topology, players: int) -> str:
    lines = [
        f"Load test: {players} simulated players for {elapsed:.0f}s against {topology.match_replicas} match "
        f"replica(s), {topology.matchmaking_replicas} matchmaking replica(s), {topology.workers} bot worker(s),"
        " one Redis, all on 127.0.0.1",
        f"  actions acknowledged  {len(stats.acked):>8}   {len(stats.acked) / elapsed:8.1f}/s",
        f"  matches started       {len(stats.started):>8}   {len(stats.started) / elapsed:8.2f}/s",
        f"  matches finished      {len(stats.finished):>8}   {len(stats.finished) / elapsed:8.2f}/s",
        f"  stream reconnects     {stats.counts['reconnects']:>8}",
        f"  tickets queued        {stats.counts['queued']:>8}   seated {stats.counts['seated']},"
        f" cancelled {stats.counts['cancelled']}, bot seats filled {stats.counts['bot seats']}"
        + (f", time to match p50 {percentile(stats.time_to_match, 50):.1f}s"
           f" p99 {percentile(stats.time_to_match, 99):.1f}s" if stats.time_to_match else ""),
        "  latency per RPC (ms):   calls      p50      p95      p99",
    ]
    for name, samples in sorted(stats.latencies.items()):
        lines.append(f"    {name:<20} {len(samples):>7} {percentile(samples, 50) * 1000:8.1f} "
                     f"{percentile(samples, 95) * 1000:8.1f} {percentile(samples, 99) * 1000:8.1f}")
    lines.append("  errors by code: " + (", ".join(f"{call_and_code}: {times}" for call_and_code, times
                                                   in sorted(stats.errors.items())) or "none"))
    lines.append(f"  lost actions: {lost}   (matches not finished by bots within the drain time: {unfinished})")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m apps.loadtest")
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--drain", type=float, default=60, help="longest wait for bots to finish the matches")
    parser.add_argument("--match-replicas", type=int, default=2)
    parser.add_argument("--matchmaking-replicas", type=int, default=2)
    parser.add_argument("--queue-share", type=float, default=Habits.queue_share,
                        help="share of games a player finds through matchmaking (the rest by hand)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--game", action="append", help="games to play (default: all)")
    args = parser.parse_args()
    redis_url = os.environ.get("SIZZLE_LOADTEST_REDIS_URL", "redis://127.0.0.1:6379/10")
    topology = Topology(redis_url, args.match_replicas, args.matchmaking_replicas, args.workers)
    topology.start()
    try:
        stats, elapsed, lost, unfinished = drive(topology, args.players, args.seconds, args.drain,
                                                 args.game or registry.game_ids(), args.queue_share)
    finally:
        topology.stop()
    print(report(stats, elapsed, lost, unfinished, topology, args.players))
    print(f"  process logs: {topology.logs}")
    return 0 if lost == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
