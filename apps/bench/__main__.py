"""Runs every benchmark (or those chosen) and prints the tables; exits 1 when a target is missed."""

from __future__ import annotations

import argparse
import os
import sys

from services.rules import registry


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m apps.bench")
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--only", choices=["engines", "match", "bots", "matchmaking", "records"], action="append",
                        help="only these sections")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each timed run")
    parser.add_argument("--quick", action="store_true", help="smaller runs (a smoke test of the benchmarks)")
    args = parser.parse_args()
    games = [args.game] if args.game else registry.game_ids()
    redis_url = os.environ.get("SIZZLE_BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
    postgres_url = os.environ.get("SIZZLE_BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
    sections = args.only or ["engines", "match", "bots", "matchmaking", "records"]
    ok = True
    if "engines" in sections:
        from apps.bench import engines

        text, good = engines.run(games, args.seconds)
        print(text + "\n", flush=True)
        ok &= good
    if "match" in sections:
        from apps.bench import match

        text, good = match.run(redis_url, games, args.seconds, args.quick)
        print(text + "\n", flush=True)
        ok &= good
    if "bots" in sections:
        from apps.bench import bots

        text, good = bots.run(redis_url, max(args.seconds, 10.0), games)
        print(text + "\n", flush=True)
        ok &= good
    if "matchmaking" in sections:
        from apps.bench import matchmaking

        text, good = matchmaking.run(redis_url, args.seconds, args.quick)
        print(text + "\n", flush=True)
        ok &= good
    if "records" in sections:
        from apps.bench import records

        text, good = records.run(redis_url, postgres_url, args.quick)
        print(text + "\n", flush=True)
        ok &= good
    print("all targets met" if ok else "SOME TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
