"""Every shipped model: its card matches the file and the game's tensor shapes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from services.rules.registry import game_ids, get_engine
from workers.bots.policy import MODELS_DIR

MODELS = sorted(MODELS_DIR.glob("*.onnx"))
MAX_BYTES = 5 * 1024 * 1024


def test_every_registered_game_ships_a_model_and_nothing_else() -> None:
    assert sorted(m.stem for m in MODELS) == sorted(game_ids())


@pytest.mark.parametrize("model", MODELS, ids=[m.stem for m in MODELS])
def test_card_matches_model_and_game(model: Path) -> None:
    card_file = model.with_name(f"{model.stem}.card.json")
    assert card_file.is_file(), f"{model.name} has no card"
    card = json.loads(card_file.read_text())
    data = model.read_bytes()
    assert card["game"] == model.stem
    assert card["onnx_sha256"] == hashlib.sha256(data).hexdigest(), "the card's checksum is not the file's"
    assert card["onnx_bytes"] == len(data) < MAX_BYTES
    spec = get_engine(model.stem).spec
    assert card["input"]["shape"] == ["batch", *spec.observation_shape]
    assert card["output"]["shape"] == ["batch", spec.num_distinct_actions]
    training = card["training"]
    assert training["seed"] is not None
    # cards since the relative parity bound record it; older ones met the absolute bound of 1e-4
    assert training.get("parity_relative_diff", 0.0) < 1e-5 and (
        "parity_relative_diff" in training or training["parity_max_abs_diff"] < 1e-4)
    opponents = {r["opponent"]: r for r in card["strength"]["results"]}
    assert {"heuristic", "random"} <= set(opponents)
    for result in opponents.values():
        assert result["games"] >= 1000 and len(result["ci95"]) == 2


@pytest.mark.parametrize("model", MODELS, ids=[m.stem for m in MODELS])
def test_model_session_matches_the_spec(model: Path) -> None:
    import onnxruntime as ort

    spec = get_engine(model.stem).spec
    session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    (inp,), out = session.get_inputs(), session.get_outputs()
    assert not isinstance(inp.shape[0], int), "the batch axis must be dynamic"
    assert tuple(inp.shape[1:]) == tuple(spec.observation_shape)
    assert out[0].shape[-1] == spec.num_distinct_actions
