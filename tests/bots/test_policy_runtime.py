"""The ONNX policy runtime: legal actions from shipped models, difficulties, and the fallback."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from services.kit.metrics import MODEL_FALLBACKS
from services.rules.registry import game_ids, get_engine
from workers.bots import policy
from workers.bots.interface import RandomBot
from workers.bots.policy import Difficulty, FallbackBot, GuardedPolicy, OnnxPolicy, make_bot

SHIPPED = game_ids()  # every registered game ships a model (test_policy_models checks the files)
POSITIONS_PER_GAME = 150


def random_positions(game_id: str, count: int, seed: int = 3) -> list[tuple[object, list[int]]]:
    """(view, legal ids) of the seat to move at positions of random games, every table size."""
    engine = get_engine(game_id)
    rng = random.Random(seed)
    spec = engine.spec
    positions: list[tuple[object, list[int]]] = []
    while len(positions) < count:
        players = rng.randint(spec.min_players, spec.max_players)
        options = {o.name: rng.choice(o.allowed) for o in spec.options if o.allowed}
        state = engine.new_game(players, options, rng.getrandbits(63))
        walker = RandomBot(rng)
        while not state.core.game_over and len(positions) < count:
            seat = state.core.seat_to_move
            legal = engine.legal_actions(state)
            view = engine.view(state, seat)
            if rng.random() < 0.2:
                positions.append((view, legal))
            engine.apply(state, seat, walker.step(view, legal))
    return positions


def fallback_count(game_id: str, reason: str) -> float:
    value = MODEL_FALLBACKS.labels(game_id, reason)._value.get()
    return float(value)


@pytest.mark.parametrize("game_id", SHIPPED)
def test_shipped_policy_always_picks_a_legal_action(game_id: str) -> None:
    for difficulty in Difficulty:
        bot = make_bot(game_id, difficulty, random.Random(1))
        assert isinstance(bot, GuardedPolicy), f"{game_id}'s shipped model did not load"
        for view, legal in random_positions(game_id, POSITIONS_PER_GAME):
            assert bot.step(view, legal) in legal


@pytest.mark.parametrize("game_id", SHIPPED)
def test_hard_is_deterministic_and_easy_varies(game_id: str) -> None:
    positions = random_positions(game_id, POSITIONS_PER_GAME, seed=11)
    first = OnnxPolicy(game_id, "hard", random.Random(1))
    second = OnnxPolicy(game_id, Difficulty.HARD, random.Random(2))
    assert [first.step(v, legal) for v, legal in positions] == [second.step(v, legal) for v, legal in positions]
    easy = OnnxPolicy(game_id, "easy", random.Random(3))
    choices = [v for v, legal in positions if len(legal) > 1]
    assert choices, "no position with a choice"
    picks = {tuple(easy.step(v, legal) for v, legal in positions) for _ in range(3)}
    assert len(picks) > 1, "easy should sample, not always pick the same"


@pytest.mark.parametrize("game_id", SHIPPED)
def test_hard_takes_the_legal_id_of_the_highest_logit(game_id: str) -> None:
    """Few legal ids are compared one by one, many are gathered: both give the first best legal id
    of the model's own logits."""
    import numpy as np

    engine = get_engine(game_id)
    hard = OnnxPolicy(game_id, "hard", random.Random(1))
    session = hard.model.session
    name = session.get_inputs()[0].name
    for view, legal in random_positions(game_id, POSITIONS_PER_GAME, seed=5):
        observation = engine.observation(view)
        logits = session.run(None, {name: observation[None]})[0][0]
        expected = legal[int(np.argmax(logits[legal]))]
        assert hard.choose(observation, legal) == expected
        many = list(range(engine.spec.num_distinct_actions))  # every id: the gathering path
        assert hard.choose(observation, many) == int(np.argmax(logits))


def test_difficulty_parsing() -> None:
    assert Difficulty.parse("HARD") is Difficulty.HARD
    with pytest.raises(ValueError):
        Difficulty.parse("impossible")


def test_missing_model_falls_back_to_the_heuristic_and_counts(tmp_path: Path) -> None:
    game_id = "grill_party"
    before = fallback_count(game_id, "missing")
    bot = make_bot(game_id, "hard", random.Random(0), models_dir=tmp_path)
    assert isinstance(bot, FallbackBot) and bot.reason == "missing"
    assert type(bot.bot).__name__.endswith("Heuristic")
    view, legal = random_positions(game_id, 1)[0]
    assert bot.step(view, legal) in legal
    assert fallback_count(game_id, "missing") == before + 1


def test_corrupt_model_falls_back_and_counts(tmp_path: Path) -> None:
    game_id = "grill_party"
    policy.model_path(game_id, tmp_path).write_bytes(b"this is not an onnx model")
    before = fallback_count(game_id, "load_error")
    bot = make_bot(game_id, "medium", random.Random(0), models_dir=tmp_path)
    assert isinstance(bot, FallbackBot) and bot.reason == "load_error"
    for view, legal in random_positions(game_id, 5):
        assert bot.step(view, legal) in legal
    assert fallback_count(game_id, "load_error") == before + 5


def test_model_not_matching_its_card_falls_back(tmp_path: Path) -> None:
    game_id = SHIPPED[0]
    shutil.copyfile(policy.model_path(game_id), policy.model_path(game_id, tmp_path))
    policy.card_path(game_id, tmp_path).write_text(json.dumps({"onnx_sha256": "0" * 64}))
    bot = make_bot(game_id, "hard", random.Random(0), models_dir=tmp_path)
    assert isinstance(bot, FallbackBot) and bot.reason == "checksum"


def test_model_of_another_shape_falls_back(tmp_path: Path) -> None:
    a, b = next(
        (a, b) for a in SHIPPED for b in SHIPPED
        if get_engine(a).spec.observation_shape != get_engine(b).spec.observation_shape
    )
    shutil.copyfile(policy.model_path(a), policy.model_path(b, tmp_path))
    bot = make_bot(b, "hard", random.Random(0), models_dir=tmp_path)
    assert isinstance(bot, FallbackBot) and bot.reason == "shape_mismatch"


def test_a_model_failing_at_run_time_hands_the_decision_to_the_heuristic(monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = SHIPPED[0]
    bot = make_bot(game_id, "hard", random.Random(0))
    assert isinstance(bot, GuardedPolicy)

    def broken(obs: object, legal: object) -> int:
        raise RuntimeError("onnxruntime exploded")

    monkeypatch.setattr(bot.policy, "choose", broken)
    before = fallback_count(game_id, "inference_error")
    view, legal = next((v, legal) for v, legal in random_positions(game_id, 50) if len(legal) > 1)
    assert bot.step(view, legal) in legal
    assert fallback_count(game_id, "inference_error") == before + 1


def test_a_model_is_loaded_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = SHIPPED[0]
    first = policy.load_model(game_id)
    assert policy.load_model(game_id) is first
    # A forked worker has another pid: it must build its own session, not reuse the parent's.
    monkeypatch.setattr(policy.os, "getpid", lambda: -12345)
    child = policy.load_model(game_id)
    assert child is not first
    assert policy.load_model(game_id) is child
