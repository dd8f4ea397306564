"""The tournament: the hard ONNX bot against heuristic and against random opponents, in-process.

    python -m workers.training.tournament [--game G] [--games N]

For each opponent kind it plays N games (default 1,000) cycling through every table size the game
allows (or --players) and every seat of the ONNX bot at that size, the other seats all taken by the
opponent kind. It prints the ONNX bot's win share (a tie for first shares the win) with a 95% Wilson
interval, the share expected by chance (the mean of 1/players), their ratio and the games per
second. The pass mark: against the heuristic at least 1.5x chance; against random at least 2x
chance, or 90% at two-player tables.

`--hero expert` measures the game's expert bot (the training teacher) instead of the ONNX bot, and
`--hero heuristic` the heuristic itself (the control: it comes out at chance); `--opponent` picks
the opponent kinds.

Only numpy and onnxruntime: it runs without the `train` extra.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from services.rules.registry import game_ids, get_engine
from workers.bots.heuristic import heuristic_bot
from workers.bots.interface import Bot, RandomBot
from workers.bots.policy import MODELS_DIR, Difficulty, OnnxModel, OnnxPolicy, model_path
from workers.training.arena import play_game

Z95 = 1.959963984540054
TARGET_VS = {"heuristic": 1.5, "random": 2.0}
TWO_PLAYER_RANDOM_TARGET = 0.9


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Standing:
    """The ONNX bot's results against one opponent kind (overall or at one table size)."""

    opponent: str
    games: int = 0
    wins: float = 0.0
    chance_sum: float = 0.0
    seconds: float = 0.0
    players: str = "all"
    by_players: dict[int, Standing] = field(default_factory=dict)

    def add(self, share: float, players: int) -> None:
        self.games += 1
        self.wins += share
        self.chance_sum += 1.0 / players

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def chance(self) -> float:
        return self.chance_sum / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def ratio(self) -> float:
        return self.share / self.chance if self.chance else 0.0

    def target_met(self) -> bool:
        if self.opponent == "random" and self.chance == 0.5:
            return self.share >= TWO_PLAYER_RANDOM_TARGET or self.ratio >= TARGET_VS["random"]
        return self.ratio >= TARGET_VS.get(self.opponent, 1.0)

    def summary(self) -> dict[str, object]:
        low, high = self.interval
        out: dict[str, object] = {
            "opponent": self.opponent,
            "players": self.players,
            "games": self.games,
            "win_share": round(self.share, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "chance": round(self.chance, 4),
            "ratio": round(self.ratio, 3),
            "ratio_ci95": [round(low / self.chance, 3), round(high / self.chance, 3)] if self.chance else None,
            "target_met": self.target_met(),
        }
        if self.seconds:
            out["games_per_second"] = round(self.games / self.seconds, 1)
        if self.by_players:
            out["by_players"] = [s.summary() for _, s in sorted(self.by_players.items())]
        return out

    def line(self, game_id: str) -> str:
        low, high = self.interval
        speed = f"  {self.games / self.seconds:6.1f} games/s" if self.seconds else ""
        mark = "PASS" if self.target_met() else "FAIL"
        return (
            f"{game_id:18s} vs {self.opponent:9s} players {self.players:>4s}  games {self.games:5d}  "
            f"win {self.share:6.1%} [{low:6.1%}, {high:6.1%}]  chance {self.chance:6.1%}  "
            f"ratio {self.ratio:4.2f}x  {mark}{speed}"
        )


def seatings(table_sizes: Sequence[int]) -> list[tuple[int, int]]:
    """Every (table size, seat of the ONNX bot) once."""
    return [(n, seat) for n in table_sizes for seat in range(n)]


def opponent_bot(game_id: str, opponent: str, rng: random.Random) -> Bot:
    """An opponent of the hero: "heuristic", "random", or "onnx" (the shipped model, hard)."""
    if opponent == "heuristic":
        return heuristic_bot(game_id, rng)
    if opponent == "random":
        return RandomBot(rng)
    if opponent == "onnx":
        return OnnxPolicy(game_id, Difficulty.HARD, rng)  # the model is loaded once a process
    raise ValueError(f"unknown opponent {opponent!r}")


def play_match_series(
    game_id: str,
    hero: Callable[[random.Random], Bot],
    opponent: str,
    games: int,
    table_sizes: Sequence[int],
    seed: int,
) -> Standing:
    """`games` games of `hero` against `opponent` bots over every seating, in turn."""
    engine = get_engine(game_id)
    standing = Standing(opponent)
    orders = seatings(table_sizes)
    rng = random.Random(seed)
    start = time.perf_counter()
    for index in range(games):
        players, hero_seat = orders[index % len(orders)]
        bot_rng = random.Random(rng.getrandbits(63))
        bots: list[Bot] = [opponent_bot(game_id, opponent, bot_rng) for _ in range(players)]
        bots[hero_seat] = hero(bot_rng)
        shares, _ = play_game(engine, bots, rng.getrandbits(63))
        standing.add(shares[hero_seat], players)
        standing.by_players.setdefault(players, Standing(opponent, players=str(players))).add(
            shares[hero_seat], players
        )
    standing.seconds = time.perf_counter() - start
    return standing


def default_table_sizes(game_id: str) -> list[int]:
    spec = get_engine(game_id).spec
    return list(range(spec.min_players, spec.max_players + 1))


HEROES = ("onnx", "expert", "heuristic")


def run_tournament(
    game_id: str,
    games: int = 1000,
    models_dir: Path | None = None,
    difficulty: Difficulty = Difficulty.HARD,
    table_sizes: Sequence[int] | None = None,
    opponents: Sequence[str] = ("heuristic", "random"),
    seed: int = 20_260_000,
    hero_kind: str = "onnx",
) -> list[Standing]:
    """The hero (the ONNX policy at `difficulty`; or, to measure a teacher, the expert bot, or the
    heuristic itself, which should come out at chance) against each opponent kind."""
    hero: Callable[[random.Random], Bot]
    if hero_kind == "onnx":
        engine = get_engine(game_id)
        model = OnnxModel(engine, model_path(game_id, models_dir))  # raises when missing: no silent fallback

        def hero(rng: random.Random) -> Bot:
            return OnnxPolicy(game_id, difficulty, rng, model=model)
    elif hero_kind == "expert":
        from workers.training.experts import expert_bot

        def hero(rng: random.Random) -> Bot:
            return expert_bot(game_id, rng)
    elif hero_kind == "heuristic":
        def hero(rng: random.Random) -> Bot:
            return heuristic_bot(game_id, rng)
    else:
        raise ValueError(f"unknown hero {hero_kind!r}: one of {', '.join(HEROES)}")

    sizes = list(table_sizes or default_table_sizes(game_id))
    results = []
    for k, opponent in enumerate(opponents):
        results.append(play_match_series(game_id, hero, opponent, games, sizes, seed + 1_000 * k))
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game id (repeatable; default: every game with a model)")
    parser.add_argument("--games", type=int, default=1000, help="games per opponent kind (default 1000)")
    parser.add_argument("--players", type=int, action="append", help="table size (repeatable; default: all)")
    parser.add_argument("--difficulty", default="hard", choices=[d.value for d in Difficulty])
    parser.add_argument("--models-dir", type=Path, default=MODELS_DIR)
    parser.add_argument("--seed", type=int, default=20_260_000)
    parser.add_argument("--json", type=Path, help="also write the results as JSON to this file")
    parser.add_argument("--per-players", action="store_true", help="print a line per table size too")
    parser.add_argument("--hero", default="onnx", choices=HEROES,
                        help="the bot measured: the ONNX policy (default), the expert teacher or the heuristic")
    parser.add_argument("--opponent", action="append", choices=list(TARGET_VS),
                        help="opponent kind (repeatable; default: heuristic and random)")
    args = parser.parse_args(argv)
    games = args.game or [
        g for g in game_ids() if args.hero != "onnx" or model_path(g, args.models_dir).is_file()
    ]
    if not games:
        print(f"no models in {args.models_dir}", file=sys.stderr)
        return 1
    report: dict[str, object] = {}
    all_met = True
    for game_id in games:
        standings = run_tournament(
            game_id, args.games, args.models_dir, Difficulty(args.difficulty), args.players, seed=args.seed,
            opponents=args.opponent or tuple(TARGET_VS), hero_kind=args.hero,
        )
        for standing in standings:
            print(standing.line(game_id), flush=True)
            if args.per_players:
                for _, sub in sorted(standing.by_players.items()):
                    print("  " + sub.line(game_id), flush=True)
            all_met &= standing.target_met()
        report[game_id] = [s.summary() for s in standings]
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    print("all targets met" if all_met else "some targets NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
