"""Golden playthroughs, as OpenSpiel keeps them: per game, a few recorded games under
`tests/rules/games/<game>/playthroughs/`, each with its rules version, seed, table size, the
action ids played, a digest of every seat's view (and the spectator's) after every action, the
final state's digest and the outcome. `test_playthroughs.py` plays each again with today's engine:

- same rules version, same play: the engine is unchanged;
- same rules version, different play: the rules changed without a version bump (a defect: bump the
  engine's `rules_revision`, or undo the change);
- another rules version: the rules changed on purpose; regenerate the playthroughs and review them:

    .venv/bin/python -m tests.rules.playthroughs [--game G]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from services.rules.registry import game_ids, get_engine
from workers.bots.heuristic import heuristic_bot

GAMES_DIR = Path(__file__).resolve().parent / "games"
# (seed, table size index): the smallest and the largest table of every game, two deals.
RECORDINGS = ((11, 0), (29, -1))
MAX_ACTIONS = 5_000


def digest(message: Any) -> str:
    return hashlib.sha256(message.SerializeToString(deterministic=True)).hexdigest()[:16]


def folder(game_id: str) -> Path:
    return GAMES_DIR / game_id / "playthroughs"


def play(game_id: str, seed: int, players: int, actions: list[int] | None = None) -> dict[str, Any]:
    """A game from `seed`: heuristic bots choose (or `actions` are replayed); every step recorded."""
    engine = get_engine(game_id)
    state = engine.new_game(players, {}, seed)
    rng = random.Random(seed)
    bots = [heuristic_bot(game_id, rng) for _ in range(players)]
    played: list[int] = []
    views = [[digest(engine.view(state, seat)) for seat in range(-1, players)]]
    while not state.core.game_over and len(played) < MAX_ACTIONS:
        seat = state.core.seat_to_move
        if actions is not None:
            if len(played) == len(actions):
                break
            action = actions[len(played)]
        else:
            legal = engine.legal_actions(state)
            action = bots[seat].step(engine.view(state, seat), legal)
        engine.apply(state, seat, action)
        played.append(action)
        views.append([digest(engine.view(state, s)) for s in range(-1, players)])
    outcome = engine.outcome(state)
    return {
        "game_id": game_id,
        "rules_version": engine.rules_version,
        "seed": seed,
        "players": players,
        "actions": played,
        "views": views,  # per step: the spectator's view, then seat 0, 1, ...
        "final_state": digest(state),
        "outcome": [[r.seat, r.score, r.rank] for r in outcome.results] if outcome is not None else None,
    }


def recordings(game_id: str) -> list[tuple[int, int]]:
    spec = get_engine(game_id).spec
    sizes = list(range(spec.min_players, spec.max_players + 1))
    return [(seed, sizes[index]) for seed, index in RECORDINGS]


def write(game_id: str) -> list[Path]:
    out = folder(game_id)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.json"):
        old.unlink()
    written = []
    for seed, players in recordings(game_id):
        path = out / f"seed{seed}_{players}p.json"
        path.write_text(json.dumps(play(game_id, seed, players), indent=1) + "\n")  # a diff a person can read
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="regenerate the golden playthroughs (after a rules version bump)")
    parser.add_argument("--game", action="append", help="a game id (repeatable; default: every game)")
    args = parser.parse_args(argv)
    for game_id in args.game or game_ids():
        for path in write(game_id):
            print(f"wrote {path.relative_to(GAMES_DIR.parent.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
