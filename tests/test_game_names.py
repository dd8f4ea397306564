"""Adding a game touches the game's own places only (README, "Adding a game"): its folder
services/rules/games/<game>/, its proto, its bot files (workers/bots/heuristic/<game>.py,
workers/bots/plans/<game>.py, workers/training/experts/<game>.py, workers/models/<game>.*). Anywhere
else, code and configuration that name two or more games hold a list of games, which must read the
registry instead (services/rules/registry.py: game_ids(), get_engine(id).spec). One game named as an
example or a default is a choice, not a list."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from services.rules import registry

ROOT = Path(__file__).resolve().parents[1]
SEARCHED = ("apps", "services", "workers", "clients", "deploy", "scripts")
SUFFIXES = (".py", ".yaml", ".yml")
NOT_SEARCHED = {"node_modules", "dist", "gen", "__pycache__"}  # installed, built or generated
# Files that may name several games, each with its reason.
ALLOWED = {
    "deploy/prometheus/tests/sizzle.rules.test.yml":
        "promtool's alert tests: each test's example series carries one game label; no list of games",
}


def searched_files() -> Iterator[Path]:
    for top in SEARCHED:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file() and not NOT_SEARCHED & set(path.parts):
                yield path


def own_game(relative: str, game_ids: list[str]) -> str | None:
    """The game whose own place the file is, or None."""
    for game_id in game_ids:
        if (relative.startswith(f"services/rules/games/{game_id}/")
                or relative in (f"workers/bots/heuristic/{game_id}.py", f"workers/bots/plans/{game_id}.py",
                                f"workers/training/experts/{game_id}.py")
                or relative.startswith(f"workers/models/{game_id}.")):
            return game_id
    return None


def games_named(text: str, game_ids: list[str]) -> set[str]:
    # Whole ids only: "a_la_carte" is not named inside "a_la_carte_cards" (nor inside grill_party_pb2).
    longest_first = sorted(game_ids, key=len, reverse=True)
    pattern = r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, longest_first)) + r")(?![A-Za-z0-9_])"
    return set(re.findall(pattern, text))


def test_only_a_games_own_places_name_several_games() -> None:
    game_ids = registry.game_ids()
    assert len(game_ids) >= 2
    lists: dict[str, list[str]] = {}
    for path in searched_files():
        relative = path.relative_to(ROOT).as_posix()
        named = games_named(path.read_text(errors="replace"), game_ids) - {own_game(relative, game_ids)}
        if len(named) >= 2 and relative not in ALLOWED:
            lists[relative] = sorted(named)
    assert not lists, ("these files list games; read services/rules/registry.py instead (or, with a reason, "
                       f"add the file to ALLOWED): {lists}")


def test_every_allowed_file_still_names_several_games() -> None:
    game_ids = registry.game_ids()
    for relative, reason in ALLOWED.items():
        assert reason
        path = ROOT / relative
        assert path.is_file() and len(games_named(path.read_text(), game_ids)) >= 2, (
            f"{relative} no longer needs its place in ALLOWED")


def test_the_search_finds_lists_and_spares_choices() -> None:
    game_ids = ["a_la_carte", "a_la_carte_cards", "grill_party"]
    assert games_named('GAMES = ("a_la_carte", "grill_party")', game_ids) == {"a_la_carte", "grill_party"}
    assert games_named("from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2", game_ids) == {
        "a_la_carte_cards"}
    assert games_named('parser.add_argument("--game", default="grill_party")', game_ids) == {"grill_party"}
    assert own_game("services/rules/games/grill_party/standings.py", game_ids) == "grill_party"
    assert own_game("workers/training/experts/a_la_carte_cards.py", game_ids) == "a_la_carte_cards"
    assert own_game("apps/bench/records.py", game_ids) is None
