"""The ladder: random, the heuristic, the ONNX policy at easy, medium and hard, and the reference
search player meet at mixed tables of every size, and OpenSkill rates them per game, with the same
model (Plackett-Luce) and the same update (`rate_table`) that matchmaking rates people with, less
the skill drift (LADDER_MODEL).

    python -m workers.training.ladder [--game G] [--games N] [--search-games M] [--write]

Table k has the k-th table size in turn; its seats are drawn from the entrants without repeats
while they last (a six-seat table repeats one), in a random order, and every `games / M`-th table
seats the search player (ISMCTS, `--search-iterations`, 200 is the reference) on one seat: search
takes about a second a decision, so it sits at fewer tables and its interval is the widest. A
table's ranks are the engine's outcome's (a tie shares a rank).

It prints each entrant's rating (mu with a 95% interval, mu +- 1.96 sigma), its tables and its win
share against chance at them, and checks the difficulty ladder: easy < medium < hard, each step
separated (the gap in mu more than 1.96 times the combined sigma), and easy beats random but loses
to the heuristic. `--write` stores the ratings in services/matchmaking/bot_ratings.json, which
matchmaking reads for its bot seats' starting ratings (docs/bots.md, "The ladder").
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from openskill.models import PlackettLuce

from services.matchmaking.model import RatingRecord
from services.matchmaking.ratings import START, rate_table
from services.rules.registry import game_ids, get_engine
from workers.bots.heuristic import heuristic_bot
from workers.bots.interface import Bot, RandomBot
from workers.bots.policy import (
    DEFAULT_PLAY,
    Difficulty,
    OnnxModel,
    OnnxPolicy,
    Play,
    clear_model_cache,
    difficulties_path,
    model_path,
)
from workers.training.arena import deal, play_out, win_shares
from workers.training.search import REFERENCE_ITERATIONS, SearchPlayer
from workers.training.tournament import Z95, default_table_sizes, play_match_series

# Matchmaking's model with no skill drift (tau 0): a bot is a fixed program, so its sigma is what the
# tables have not told yet, and shrinks as they are played (with matchmaking's drift, sigma settles
# near 1.7 however many tables are played, and no interval could separate two difficulties).
LADDER_MODEL = PlackettLuce(tau=0.0)
ENTRANTS = ("random", "heuristic", "easy", "medium", "hard", "search")
DIFFICULTY_STEPS = (("random", "easy"), ("easy", "medium"), ("medium", "hard"))
BOT_RATINGS = Path(__file__).resolve().parents[2] / "services" / "matchmaking" / "bot_ratings.json"


@dataclass
class Entry:
    """One entrant's rating in a game and what it did at its tables."""

    name: str
    rating: RatingRecord = field(default_factory=lambda: RatingRecord(START.mu, START.sigma))
    tables: int = 0
    wins: float = 0.0
    chance: float = 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return self.rating.mu - Z95 * self.rating.sigma, self.rating.mu + Z95 * self.rating.sigma

    @property
    def ratio(self) -> float:
        return self.wins / self.chance if self.chance else 0.0

    def summary(self) -> dict[str, object]:
        low, high = self.interval
        return {"mu": round(self.rating.mu, 3), "sigma": round(self.rating.sigma, 3),
                "ci95": [round(low, 3), round(high, 3)], "tables": self.tables,
                "win_share": round(self.wins / self.tables, 4) if self.tables else None,
                "ratio_to_chance": round(self.ratio, 3)}


def separated(lower: Entry, higher: Entry) -> bool:
    """Whether `higher` is rated above `lower` by more than 1.96 times their combined sigma."""
    gap = higher.rating.mu - lower.rating.mu
    return gap > Z95 * math.hypot(lower.rating.sigma, higher.rating.sigma)


@dataclass
class Ladder:
    game_id: str
    entries: dict[str, Entry]
    games: int = 0
    seconds: float = 0.0
    search_seconds: float = 0.0
    search_decisions: int = 0
    search_iterations: int = REFERENCE_ITERATIONS

    def checks(self) -> list[tuple[str, bool]]:
        """The difficulty ladder's marks: each step up separated, easy below the heuristic."""
        e = self.entries
        marks = [(f"{a} < {b}", separated(e[a], e[b])) for a, b in DIFFICULTY_STEPS if a in e and b in e]
        if "easy" in e and "heuristic" in e:
            marks.append(("easy < heuristic", e["easy"].rating.mu < e["heuristic"].rating.mu))
        return marks

    def lines(self) -> list[str]:
        out = [f"{self.game_id}: {self.games} tables in {self.seconds:.0f} s"]
        for entry in sorted(self.entries.values(), key=lambda x: -x.rating.mu):
            low, high = entry.interval
            out.append(f"  {entry.name:9s} mu {entry.rating.mu:6.2f} [{low:6.2f}, {high:6.2f}]  sigma "
                       f"{entry.rating.sigma:4.2f}  tables {entry.tables:5d}  win share {entry.ratio:4.2f}x chance")
        if self.search_decisions:
            out.append(f"  search: {self.search_decisions} decisions, "
                       f"{self.search_seconds / self.search_decisions * 1000:.0f} ms a decision")
        out.append("  " + "  ".join(f"{name}: {'yes' if ok else 'NO'}" for name, ok in self.checks()))
        return out

    def summary(self) -> dict[str, object]:
        out: dict[str, object] = {"tables": self.games, "entrants": {n: e.summary() for n, e in self.entries.items()},
                                  "checks": dict(self.checks())}
        if self.search_decisions:
            out["search"] = {"iterations": self.search_iterations, "decisions": self.search_decisions,
                             "ms_per_decision": round(self.search_seconds / self.search_decisions * 1000, 1)}
        return out


def seats_for(rng: random.Random, players: int, pool: Sequence[str], with_search: bool) -> list[str]:
    """A table's entrants by seat: distinct while the pool lasts, then repeats, in a random order."""
    chosen = ["search"] if with_search else []
    rest = list(pool)
    rng.shuffle(rest)
    chosen += rest[: players - len(chosen)]
    while len(chosen) < players:
        chosen.append(rng.choice(list(pool)))
    rng.shuffle(chosen)
    return chosen


def run_ladder(game_id: str, games: int = 6000, search_games: int = 0, seed: int = 20_261_205,
               table_sizes: Sequence[int] | None = None, search_iterations: int = REFERENCE_ITERATIONS,
               entrants: Sequence[str] = ENTRANTS) -> Ladder:
    """`games` mixed tables of `game_id`, `search_games` of them with the search player, rated."""
    engine = get_engine(game_id)
    names = [n for n in entrants if n != "search" or search_games > 0]
    pool = [n for n in names if n != "search"]
    model = OnnxModel(engine, model_path(game_id)) if {"easy", "medium", "hard"} & set(names) else None
    searchers: list[SearchPlayer] = []

    def make(name: str, rng: random.Random) -> Bot:
        if name == "random":
            return RandomBot(rng)
        if name == "heuristic":
            return heuristic_bot(game_id, rng)
        if name == "search":
            player = SearchPlayer(game_id, rng, search_iterations)
            searchers.append(player)
            return player
        return OnnxPolicy(game_id, Difficulty(name), rng, model=model)

    ladder = Ladder(game_id, {n: Entry(n) for n in names}, search_iterations=search_iterations)
    sizes = list(table_sizes or default_table_sizes(game_id))
    every = games // search_games if search_games else 0
    rng = random.Random(seed)
    start = time.perf_counter()
    for index in range(games):
        players = sizes[index % len(sizes)]
        with_search = bool(every) and index % every == every - 1 and index // every < search_games
        seated = seats_for(rng, players, pool, with_search)
        bot_rng = random.Random(rng.getrandbits(63))
        bots = [make(name, bot_rng) for name in seated]
        state = deal(engine, bots, rng.getrandbits(63))
        play_out(engine, state, bots)
        outcome = engine.outcome(state)  # none only for a game stopped at the arena's cap: a draw
        ranks = [1] * players if outcome is None else [r.rank for r in sorted(outcome.results, key=lambda r: r.seat)]
        current = {name: ladder.entries[name].rating for name in seated}
        for name, rating in rate_table(seated, ranks, current, {}, LADDER_MODEL).items():
            ladder.entries[name].rating = rating
        for name, share in zip(seated, win_shares(engine, state), strict=True):
            entry = ladder.entries[name]
            entry.tables += 1
            entry.chance += 1.0 / players
            entry.wins += share
        ladder.games += 1
    ladder.seconds = time.perf_counter() - start
    ladder.search_seconds = sum(p.seconds for p in searchers)
    ladder.search_decisions = sum(p.decisions for p in searchers)
    return ladder


# Tuning: easy's blunder rate is set so that it wins EASY_TARGET times chance against heuristic
# tables (it loses to the heuristic, and beats random by far); medium's so that it lands halfway
# between easy and hard. Temperatures stay at the defaults; each probe plays TUNE_GAMES games.
EASY_TARGET = 0.6
TUNE_GAMES = 400
TUNE_STEPS = 7


def ratio_against_heuristic(game_id: str, model: OnnxModel, play: Play, games: int, seed: int) -> float:
    """The policy at `play` against heuristic tables of every size: its win share over chance."""
    def hero(rng: random.Random) -> Bot:
        return OnnxPolicy(game_id, Difficulty.MEDIUM, rng, model=model, play=play)

    return play_match_series(game_id, hero, "heuristic", games, default_table_sizes(game_id), seed).ratio


def tune_blunder(game_id: str, model: OnnxModel, temperature: float, target: float, games: int = TUNE_GAMES,
                 seed: int = 20_261_206, steps: int = TUNE_STEPS) -> tuple[Play, float]:
    """The blunder rate at `temperature` whose ratio against heuristics is nearest `target`, by
    bisection (the ratio falls as the rate rises; every probe plays the same deals)."""
    low, high = 0.0, 1.0
    best: tuple[float, Play, float] | None = None
    for _ in range(steps):
        play = Play(temperature, (low + high) / 2)
        ratio = ratio_against_heuristic(game_id, model, play, games, seed)
        if best is None or abs(ratio - target) < best[0]:
            best = (abs(ratio - target), play, ratio)
        if ratio > target:
            low = play.blunder
        else:
            high = play.blunder
    assert best is not None
    return best[1], best[2]


def tune_difficulties(game_id: str, games: int = TUNE_GAMES) -> dict[str, dict[str, float | None]]:
    """Easy's and medium's play for a game's shipped model, and the ratios they were tuned to."""
    engine = get_engine(game_id)
    model = OnnxModel(engine, model_path(game_id))
    hard = ratio_against_heuristic(game_id, model, DEFAULT_PLAY[Difficulty.HARD], games, 20_261_206)
    easy, easy_ratio = tune_blunder(game_id, model, DEFAULT_PLAY[Difficulty.EASY].temperature or 1.0,
                                    EASY_TARGET, games)
    medium_target = (EASY_TARGET + hard) / 2
    medium, medium_ratio = tune_blunder(game_id, model, DEFAULT_PLAY[Difficulty.MEDIUM].temperature or 0.5,
                                        medium_target, games)
    print(f"{game_id}: hard {hard:.2f}x; easy blunders {easy.blunder:.3f} -> {easy_ratio:.2f}x (aim "
          f"{EASY_TARGET:.2f}x); medium blunders {medium.blunder:.3f} -> {medium_ratio:.2f}x (aim "
          f"{medium_target:.2f}x) against heuristic tables", flush=True)
    return {"easy": {**easy.as_json(), "ratio_vs_heuristic": round(easy_ratio, 3)},
            "medium": {**medium.as_json(), "ratio_vs_heuristic": round(medium_ratio, 3)},
            "hard": {**DEFAULT_PLAY[Difficulty.HARD].as_json(), "ratio_vs_heuristic": round(hard, 3)}}


def write_difficulties(tuned: dict[str, dict[str, dict[str, float | None]]], path: Path | None = None) -> None:
    target = path or difficulties_path()
    stored = json.loads(target.read_text()) if target.is_file() else {}
    stored.update(tuned)
    target.write_text(json.dumps(stored, indent=2, sort_keys=True) + "\n")
    clear_model_cache()


def write_bot_ratings(ladders: Sequence[Ladder], path: Path = BOT_RATINGS) -> None:
    """Merges the games' ladders into the file matchmaking reads (other games' entries are kept)."""
    stored = json.loads(path.read_text()) if path.is_file() else {}
    for ladder in ladders:
        stored[ladder.game_id] = ladder.summary()
    path.write_text(json.dumps(stored, indent=2, sort_keys=True) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game id (repeatable; default: every game with a model)")
    parser.add_argument("--games", type=int, default=6000, help="tables per game (default 6000)")
    parser.add_argument("--search-games", type=int, default=0,
                        help="of those, tables with the search player on a seat (default 0)")
    parser.add_argument("--search-iterations", type=int, default=REFERENCE_ITERATIONS)
    parser.add_argument("--players", type=int, action="append", help="table size (repeatable; default: all)")
    parser.add_argument("--seed", type=int, default=20_261_205)
    parser.add_argument("--write", action="store_true", help=f"store the ratings in {BOT_RATINGS.name} for matchmaking")
    parser.add_argument("--json", type=Path, help="also write the results as JSON to this file")
    parser.add_argument("--tune", action="store_true",
                        help="first tune easy's and medium's blunder rates and store them in difficulties.json")
    args = parser.parse_args(argv)
    chosen = args.game or [g for g in game_ids() if model_path(g).is_file()]
    if args.tune:
        write_difficulties({game_id: tune_difficulties(game_id) for game_id in chosen})
    ladders = []
    for game_id in chosen:  # each game's figures are written as soon as it is done
        ladder = run_ladder(game_id, args.games, args.search_games, args.seed, args.players, args.search_iterations)
        print("\n".join(ladder.lines()), flush=True)
        ladders.append(ladder)
        if args.write:
            write_bot_ratings([ladder])
        if args.json:
            args.json.write_text(json.dumps({lad.game_id: lad.summary() for lad in ladders}, indent=2) + "\n")
    met = all(ok for lad in ladders for _, ok in lad.checks())
    print("every difficulty step separated" if met else "some difficulty steps NOT separated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
