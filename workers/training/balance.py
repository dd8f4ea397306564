"""The balance gate: single-minded plans and seat positions against heuristic players.

    python -m workers.training.balance [--game G] [--games N] [--seat-games N] [--workers W]

For every game (or --game), each plan of `workers.bots.plans.<game>` plays N games (default 1,000)
against heuristic opponents, cycling through every table size and seat, under each option set the
game's plans module names (`OPTION_SETS`: Grill Party's tactical variant too); its win share (shared
wins split) with a 95% Wilson interval is compared with chance. The pass mark (shared/RULINGS.md,
"Balance of what is ours"): no plan above 1.25x chance over the games of every table size; each
table size's own ratio is printed below the plan's line, published, not a mark (a few hundred games
a size are too few to judge one). Then heuristic-only tables of every size
play --seat-games games each (default 1,000) and every seat's win share is printed with its interval;
where one of our rulings decides the seat order (`SEATS_RULED_BY_US` in the plans module) every
seat must stay within 0.8x-1.25x of chance. `make balance` runs it; a short form runs in `make test`
(tests/bots/test_balance_gate.py).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from services.rules.registry import game_ids, get_engine
from workers.bots.heuristic import heuristic_bot
from workers.bots.interface import Bot
from workers.bots.plans import SingleMindedBot, game_plans
from workers.training.arena import play_game
from workers.training.tournament import Standing, default_table_sizes, seatings, wilson

PLAN_LIMIT = 1.25  # no single-minded plan may win more than this many times chance
SEAT_RANGE = (0.8, 1.25)  # each seat's share of chance where our ruling decides the seat order


def seats_ruled_by_us(game_id: str) -> bool:
    """Whether one of our rulings (not the rulebook) decides what the seat order is worth."""
    try:
        module = importlib.import_module(f"workers.bots.plans.{game_id}")
    except ModuleNotFoundError:
        return False
    return bool(getattr(module, "SEATS_RULED_BY_US", False))


def option_sets(game_id: str) -> tuple[dict[str, str], ...]:
    """The match options a game's plans are measured under (`OPTION_SETS` in its plans module): a
    variant a player may switch on is part of the game, and a plan may pay only there."""
    try:
        module = importlib.import_module(f"workers.bots.plans.{game_id}")
    except ModuleNotFoundError:
        return ({},)
    return tuple(getattr(module, "OPTION_SETS", ({},)))


def plan_key(name: str, options: dict[str, str]) -> str:
    """A plan's name in the results: under options other than the defaults, the options follow it."""
    return name if not options else f"{name} [{', '.join(f'{k}={v}' for k, v in sorted(options.items()))}]"


Task = tuple[str, str | None, list[tuple[int, int, int]], dict[str, str]]


def _play(task: Task) -> list[tuple[int, int, list[float]]]:
    """Plays games in a worker process: (game, plan name or None for all heuristics, [(players,
    hero seat, seed)], options) -> [(players, hero seat, win shares by seat)]."""
    game_id, plan_name, games, options = task
    engine = get_engine(game_id)
    plan = next((p for p in game_plans(game_id) if p.name == plan_name), None) if plan_name else None
    out = []
    for players, hero_seat, seed in games:
        rng = random.Random(seed)
        bots: list[Bot] = [heuristic_bot(game_id, rng) for _ in range(players)]
        if plan is not None:
            bots[hero_seat] = SingleMindedBot(game_id, plan, rng)
        shares, _ = play_game(engine, bots, rng.getrandbits(63), options or None)
        out.append((players, hero_seat, shares))
    return out


def _chunks(items: list[tuple[int, int, int]], parts: int) -> list[list[tuple[int, int, int]]]:
    return [items[i::parts] for i in range(parts) if items[i::parts]]


@dataclass
class SeatTable:
    """Every seat's win share at one table size of heuristic players."""

    players: int
    games: int = 0
    wins: list[float] = field(default_factory=list)

    def interval(self, seat: int) -> tuple[float, float]:
        return wilson(self.wins[seat], self.games)

    def ratio(self, seat: int) -> float:
        return self.wins[seat] / self.games * self.players if self.games else 0.0

    def within(self) -> bool:
        low, high = SEAT_RANGE
        return all(low <= self.ratio(seat) <= high for seat in range(self.players))

    def line(self, game_id: str, ruled: bool) -> str:
        cells = []
        for seat in range(self.players):
            low, high = self.interval(seat)
            cells.append(f"seat {seat} {self.wins[seat] / self.games:6.1%} [{low:5.1%}, {high:5.1%}]")
        mark = ("PASS" if self.within() else "FAIL") if ruled else "published"
        return f"{game_id:18s} {self.players}p {self.games:5d} games  " + "  ".join(cells) + f"  {mark}"

    def summary(self) -> dict[str, object]:
        return {
            "players": self.players,
            "games": self.games,
            "seats": [
                {"seat": s, "win_share": round(self.wins[s] / self.games, 4),
                 "ci95": [round(x, 4) for x in self.interval(s)], "ratio": round(self.ratio(s), 3)}
                for s in range(self.players)
            ],
        }


@dataclass
class GameBalance:
    game_id: str
    plans: dict[str, Standing] = field(default_factory=dict)
    seats: dict[int, SeatTable] = field(default_factory=dict)
    seats_ruled: bool = False

    def plan_passes(self, name: str) -> bool:
        return self.plans[name].ratio <= PLAN_LIMIT

    def passes(self) -> bool:
        plans_ok = all(self.plan_passes(name) for name in self.plans)
        seats_ok = not self.seats_ruled or all(t.within() for t in self.seats.values())
        return plans_ok and seats_ok

    def summary(self) -> dict[str, object]:
        return {
            "plans": {name: s.summary() for name, s in self.plans.items()},
            "seats": [t.summary() for _, t in sorted(self.seats.items())],
            "seats_ruled_by_us": self.seats_ruled,
            "passes": self.passes(),
        }


def measure(game_id: str, games: int, seat_games: int, workers: int, seed: int = 20_261_205,
            table_sizes: Sequence[int] | None = None, plans: Sequence[str] | None = None) -> GameBalance:
    """Plays every plan of the game against heuristics, under each of its option sets, and
    heuristic-only tables of every size (default options)."""
    sizes = list(table_sizes or default_table_sizes(game_id))
    rng = random.Random(seed)
    result = GameBalance(game_id, seats_ruled=seats_ruled_by_us(game_id))
    tasks: list[Task] = []
    orders = seatings(sizes)
    names = [p.name for p in game_plans(game_id) if plans is None or p.name in plans]

    def plan_tasks(options: dict[str, str]) -> None:
        for name in names:
            series = [(*orders[i % len(orders)], rng.getrandbits(63)) for i in range(games)]
            tasks.extend((game_id, name, chunk, options) for chunk in _chunks(series, max(1, workers)))

    # The seeds are drawn in this order (the first option set's plans, the seat tables, the other
    # option sets' plans), so a game's published tables stay put when an option set is added.
    first, *others = option_sets(game_id)
    plan_tasks(first)
    if seat_games:
        series = [(n, -1, rng.getrandbits(63)) for n in sizes for _ in range(seat_games)]
        tasks.extend((game_id, None, chunk, {}) for chunk in _chunks(series, max(1, workers)))
    for options in others:
        plan_tasks(options)
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        for (_, hero, _, options), played in zip(tasks, pool.map(_play, tasks), strict=True):
            plan_name = plan_key(hero, options) if hero is not None else None
            for players, hero_seat, shares in played:
                if plan_name is None:
                    table = result.seats.setdefault(players, SeatTable(players, wins=[0.0] * players))
                    table.games += 1
                    for seat, share in enumerate(shares):
                        table.wins[seat] += share
                    continue
                standing = result.plans.setdefault(plan_name, Standing("heuristic"))
                standing.add(shares[hero_seat], players)
                standing.by_players.setdefault(players, Standing("heuristic", players=str(players))).add(
                    shares[hero_seat], players)
    return result


def plan_line(game_id: str, name: str, standing: Standing) -> str:
    low, high = standing.interval
    chance = standing.chance
    mark = "PASS" if standing.ratio <= PLAN_LIMIT else "FAIL"
    return (f"{game_id:18s} {name:32s} games {standing.games:5d}  win {standing.share:6.1%} "
            f"[{low:6.1%}, {high:6.1%}]  chance {chance:6.1%}  ratio {standing.ratio:4.2f}x "
            f"[{low / chance:4.2f}, {high / chance:4.2f}]  {mark}")


def markdown(balance: GameBalance, command: str) -> str:
    """The tables docs/rules/<game>.md publishes: the plans, then every seat at every table size."""
    lines = [f"Measured with `{command}`.", "", "| plan | games | win share [95%] | chance | ratio [95%] | |",
             "| --- | --- | --- | --- | --- | --- |"]
    for name, standing in balance.plans.items():
        low, high = standing.interval
        chance = standing.chance
        lines.append(f"| {name} | {standing.games} | {standing.share:.1%} [{low:.1%}, {high:.1%}] | {chance:.1%} | "
                     f"{standing.ratio:.2f}x [{low / chance:.2f}, {high / chance:.2f}] | "
                     f"{'PASS' if balance.plan_passes(name) else 'FAIL'} |")
    widest = max(balance.seats, default=0)
    lines += ["", "| players | games | " + " | ".join(f"seat {s}" for s in range(widest)) + " |",
              "| --- | --- | " + " | ".join("---" for _ in range(widest)) + " |"]
    for players, table in sorted(balance.seats.items()):
        cells = []
        for seat in range(widest):
            if seat < players:
                low, high = table.interval(seat)
                cells.append(f"{table.wins[seat] / table.games:.1%} [{low:.1%}, {high:.1%}] {table.ratio(seat):.2f}x")
            else:
                cells.append("")
        lines.append(f"| {players} | {table.games} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game id (repeatable; default: every game)")
    parser.add_argument("--plan", action="append", help="only this plan (repeatable)")
    parser.add_argument("--games", type=int, default=1000, help="games per plan (default 1000)")
    parser.add_argument("--seat-games", type=int, default=1000, help="heuristic games per table size (default 1000)")
    parser.add_argument("--players", type=int, action="append", help="table size (repeatable; default: all)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=20_261_205)
    parser.add_argument("--json", type=Path, help="also write the results as JSON to this file")
    parser.add_argument("--markdown", type=Path, help="also write each game's tables as Markdown to DIR/<game>.md")
    args = parser.parse_args(argv)
    report: dict[str, object] = {}
    all_pass = True
    for game_id in args.game or game_ids():
        start = time.perf_counter()
        balance = measure(game_id, args.games, args.seat_games, args.workers, args.seed, args.players, args.plan)
        for name, standing in balance.plans.items():
            print(plan_line(game_id, name, standing), flush=True)
            print(f"{'':18s}   by table size: " + ", ".join(
                f"{players}p {sub.ratio:.2f}x [{sub.interval[0] / sub.chance:.2f}, {sub.interval[1] / sub.chance:.2f}]"
                for players, sub in sorted(standing.by_players.items())), flush=True)
        for _, table in sorted(balance.seats.items()):
            print(table.line(game_id, balance.seats_ruled), flush=True)
        print(f"{game_id:18s} {time.perf_counter() - start:.0f} s", flush=True)
        all_pass &= balance.passes()
        report[game_id] = balance.summary()
        if args.markdown:
            args.markdown.mkdir(parents=True, exist_ok=True)
            command = f"make balance GAME={game_id}"
            (args.markdown / f"{game_id}.md").write_text(markdown(balance, command))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    print("balanced: every target met" if all_pass else "NOT balanced: some targets missed")
    return 0 if all_pass else 1


if __name__ == "__main__":
    sys.exit(main())
