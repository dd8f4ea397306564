"""The conformance checks every registered game must pass, as plain functions over one engine.

test_conformance.py runs them over random games of every game in the registry, so a new game gets
them for free by registering.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from google.protobuf.descriptor import Descriptor

from services.kit.errors import GameError
from services.rules.engine import Engine
from services.rules.random_source import RandomSource, seed_random
from sizzle.common.v1 import common_pb2

MAX_STEPS = 50_000
R = common_pb2.ErrorReason


def random_setup(engine: Engine, rng: random.Random) -> tuple[int, dict[str, str], int]:
    spec = engine.spec
    num_players = rng.randint(spec.min_players, spec.max_players)
    options = {o.name: rng.choice(o.allowed) for o in spec.options if o.allowed}
    return num_players, options, rng.getrandbits(63)


def expect_refusal(engine: Engine, state: Any, seat: int, action: Any, reason: int) -> None:
    before = state.SerializeToString(deterministic=True)
    try:
        engine.apply(state, seat, action)
    except GameError as error:
        assert error.reason == reason, f"expected {R.Name(reason)}, got {error!r}"
    else:
        raise AssertionError(
            f"{engine.game_id}: action {action!r} by seat {seat} was accepted, expected {R.Name(reason)}")
    assert state.SerializeToString(deterministic=True) == before, "a refused action changed the state"


def check_views_leak_nothing(engine: Engine, state: Any, rng: random.Random) -> int:
    """Every seat's view and tensor are the same in a state whose hidden parts were redrawn.
    Returns how many redrawn states actually differed from the original (to prove the check bites)."""
    differed = 0
    source_state = common_pb2.RandomState()
    seed_random(source_state, rng.getrandbits(63))
    source = RandomSource(source_state)
    for seat in range(state.core.num_players):
        resampled = engine.resample_hidden(state, seat, source)
        engine.check_invariants(resampled)
        if resampled.SerializeToString(deterministic=True) != state.SerializeToString(deterministic=True):
            differed += 1
        view_a, view_b = engine.view(state, seat), engine.view(resampled, seat)
        assert view_a == view_b, f"{engine.game_id}: seat {seat}'s view depends on what it cannot see"
        assert np.array_equal(engine.observation(view_a), engine.observation(view_b))
        # The public view must not change when any seat's hidden information is redrawn.
        assert engine.view(state, -1) == engine.view(resampled, -1), "the public view leaks hidden information"
    return differed


def check_step(engine: Engine, state: Any, legal: list[int], rng: random.Random) -> None:
    """Invariants, the id codec, the mask, the tensor and refusals at one state."""
    spec = engine.spec
    seat = state.core.seat_to_move
    num_players = state.core.num_players
    engine.check_invariants(state)
    assert legal == sorted(set(legal)), "legal ids must be ascending and unique"
    assert 0 <= legal[0] and legal[-1] < spec.num_distinct_actions, "legal id out of range"
    mask = engine.legal_mask(state, seat)
    assert mask.sum() == len(legal)
    for action_id in legal:
        action = engine.id_to_action(state, seat, action_id)
        assert engine.action_to_id(state, seat, action) == action_id, f"id {action_id} does not round trip"
    obs = engine.observe(state, seat)
    assert obs.shape == spec.observation_shape and obs.dtype == np.float32
    assert np.isfinite(obs).all()
    sample = rng.sample(range(spec.num_distinct_actions), min(8, spec.num_distinct_actions))
    illegal = [a for a in sample if not mask[a]]
    if illegal:
        expect_refusal(engine, state, seat, illegal[0], R.ERROR_REASON_ILLEGAL_ACTION)
    expect_refusal(engine, state, seat, spec.num_distinct_actions, R.ERROR_REASON_MALFORMED_ACTION)
    # An action message that names no kind is malformed, not "illegal" with some real action's
    # words (a black-box audit: Grill Party called it "draw back to four cards", legal at the time).
    expect_refusal(engine, state, seat, engine.Action(), R.ERROR_REASON_MALFORMED_ACTION)
    if num_players > 1:
        expect_refusal(engine, state, (seat + 1) % num_players, legal[0], R.ERROR_REASON_NOT_YOUR_TURN)


def play_random_game(engine: Engine, seed: int, thorough: bool) -> dict[str, int]:
    """Plays one random game with every check on; returns counters for the suite's sanity checks."""
    rng = random.Random(seed)
    num_players, options, game_seed = random_setup(engine, rng)
    state = engine.new_game(num_players, options, game_seed)
    history: list[int] = []
    stats = {"steps": 0, "resampled_differed": 0, "leak_checks": 0}
    state_type = type(state)
    while not state.core.game_over:
        assert len(history) < MAX_STEPS, f"{engine.game_id}: game did not end in {MAX_STEPS} steps"
        blob = state.SerializeToString()
        assert state_type.FromString(blob) == state, "state changed in a serialization round trip"
        seat = state.core.seat_to_move
        legal = engine.legal_actions(state)
        assert legal, f"{engine.game_id}: seat {seat} has no legal action"
        # The costlier checks run at every step of the thorough games and at a sample of the others.
        if thorough or rng.random() < 0.04:
            check_step(engine, state, legal, rng)
        if thorough or rng.random() < 0.01:
            stats["resampled_differed"] += check_views_leak_nothing(engine, state, rng)
            stats["leak_checks"] += 1
        choice = rng.choice(legal)
        history.append(choice)
        if rng.random() < 0.5:
            engine.apply(state, seat, choice)
        else:
            engine.apply(state, seat, engine.id_to_action(state, seat, choice))
    stats["steps"] = len(history)
    engine.check_invariants(state)
    assert state_type.FromString(state.SerializeToString()) == state
    outcome = engine.outcome(state)
    assert outcome is not None and len(outcome.results) == num_players
    assert [r.seat for r in outcome.results] == list(range(num_players))
    assert any(r.winner for r in outcome.results) and all(r.winner == (r.rank == 1) for r in outcome.results)
    assert engine.legal_actions(state) == []
    expect_refusal(engine, state, 0, history[-1], R.ERROR_REASON_GAME_OVER)
    # Replaying the seed and the actions reproduces the game exactly.
    replay = engine.new_game(num_players, options, game_seed)
    for action_id in history:
        engine.apply(replay, replay.core.seat_to_move, action_id)
    assert replay == state, "replaying the seed and the actions did not reproduce the game"
    engine.render(engine.view(state, -1))
    return stats


def views_hold_no_random_source(descriptor: Descriptor, seen: set[str] | None = None) -> bool:
    """True when no message reachable from a View descriptor is the random source or a full state."""
    seen = seen if seen is not None else set()
    if descriptor.full_name in seen:
        return True
    seen.add(descriptor.full_name)
    if descriptor.full_name in ("sizzle.common.v1.RandomState", "sizzle.common.v1.CoreState"):
        return False
    return all(
        views_hold_no_random_source(f.message_type, seen) for f in descriptor.fields if f.message_type is not None
    )
