"""How games end: for tables of one kind of bot, the share of each ending (the outcome's reason, up to
its first colon) per table size, with 95% intervals.

    python -m workers.training.endings --game grill_party --bots expert [--games 1000]

Published in the games' rules notes (Grill Party's stalemate among experts, for one).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from services.rules.registry import get_engine
from workers.bots.heuristic import heuristic_bot
from workers.bots.interface import Bot, RandomBot
from workers.training.arena import play_out
from workers.training.tournament import default_table_sizes, wilson


def make_bot(kind: str, game_id: str, rng: random.Random) -> Bot:
    if kind == "expert":
        from workers.training.experts import expert_bot

        return expert_bot(game_id, rng)
    if kind == "heuristic":
        return heuristic_bot(game_id, rng)
    return RandomBot(rng)


def ending(reason: str) -> str:
    return reason.split(":", 1)[0].strip() or "(none)"


def _play(task: tuple[str, str, int, list[int]]) -> tuple[int, Counter[str]]:
    game_id, kind, players, seeds = task
    engine = get_engine(game_id)
    counts: Counter[str] = Counter()
    for seed in seeds:
        rng = random.Random(seed)
        state = engine.new_game(players, {}, seed)
        play_out(engine, state, [make_bot(kind, game_id, rng) for _ in range(players)])
        outcome = engine.outcome(state)
        counts[ending(outcome.reason) if outcome is not None else "never ended"] += 1
    return players, counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--bots", choices=("expert", "heuristic", "random"), default="heuristic")
    parser.add_argument("--games", type=int, default=1000, help="games per table size")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=20_261_205)
    args = parser.parse_args(argv)
    sizes = default_table_sizes(args.game)
    tasks = [(args.game, args.bots, n, list(range(args.seed + n * 1_000_000 + k, args.seed + n * 1_000_000 + args.games,
                                                   args.workers)))
             for n in sizes for k in range(args.workers)]
    totals: dict[int, Counter[str]] = {n: Counter() for n in sizes}
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for players, counts in pool.map(_play, tasks):
            totals[players].update(counts)
    print(f"{args.game}: how {args.bots} tables end ({args.games} games a size, {time.perf_counter() - started:.0f} s)")
    for players, counts in totals.items():
        games = sum(counts.values())
        cells = []
        for name, count in counts.most_common():
            low, high = wilson(count, games)
            cells.append(f"{name} {count / games:.1%} [{low:.1%}, {high:.1%}]")
        print(f"  {players} players: " + "; ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
