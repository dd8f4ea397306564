"""Every golden playthrough (tests/rules/playthroughs.py) plays again exactly under today's engine,
or its game's rules version says the rules changed on purpose."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from services.rules.registry import game_ids, get_engine
from tests.rules.playthroughs import folder, play, recordings

CASES = [(g, p) for g in game_ids() for p in sorted(folder(g).glob("*.json"))]


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_has_its_playthroughs(game_id: str) -> None:
    names = {p.name for p in folder(game_id).glob("*.json")}
    assert names == {f"seed{s}_{n}p.json" for s, n in recordings(game_id)}, (
        f"regenerate: .venv/bin/python -m tests.rules.playthroughs --game {game_id}")


@pytest.mark.parametrize(("game_id", "path"), CASES, ids=[f"{g}-{p.stem}" for g, p in CASES])
def test_a_playthrough_plays_again_exactly(game_id: str, path: Path) -> None:
    recorded = json.loads(path.read_text())
    engine = get_engine(game_id)
    assert recorded["rules_version"] == engine.rules_version, (
        f"{game_id}'s rules changed from {recorded['rules_version']} to {engine.rules_version}: review the change, "
        f"then regenerate: .venv/bin/python -m tests.rules.playthroughs --game {game_id}")
    again = play(game_id, recorded["seed"], recorded["players"], recorded["actions"])
    for step, (was, now) in enumerate(zip(recorded["views"], again["views"], strict=True)):
        assert was == now, (f"{game_id} {path.name}: the views differ after action {step} under the same rules "
                            f"version {engine.rules_version}: a rule change must bump {type(engine).__name__}"
                            ".rules_revision")
    assert again["final_state"] == recorded["final_state"] and again["outcome"] == recorded["outcome"]
