"""The action codec, the fast legality test, views, the observation tensor, the table render and the
heuristic bot."""

from __future__ import annotations

import random

import numpy as np

from services.rules.games.license_to_grill import kitchen as kit
from services.rules.games.license_to_grill import views
from services.rules.games.license_to_grill.content import LAYOUT
from services.rules.games.license_to_grill.rules import ALL_ACTIONS
from services.rules.random_source import RandomSource, seed_random
from sizzle.common.v1 import common_pb2
from tests.rules.games.license_to_grill.ltg_positions import (
    ENGINE,
    PORTOBELLO,
    RIBEYE,
    give,
    new,
    pb,
    ready,
    to_move,
)
from workers.bots.heuristic.license_to_grill import LicenseToGrillHeuristic
from workers.bots.interface import RandomBot


def _random_states(games: int, every: int = 7) -> list[pb.State]:
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        state = new(3 + seed % 3, seed)
        step = 0
        while not state.core.game_over:
            if step % every == 0:
                copy = pb.State()
                copy.CopyFrom(state)
                out.append(copy)
            ENGINE.apply(state, state.core.seat_to_move, rng.choice(ENGINE.legal_actions(state)))
            step += 1
    return out


def test_every_action_id_decodes_and_encodes_back() -> None:
    state = new()
    for action_id in range(LAYOUT.size):
        action = ENGINE.id_to_action(state, 0, action_id)
        assert ENGINE.action_to_id(state, 0, action) == action_id
        assert ENGINE.describe_action(state, 0, action)


def test_action_id_layout() -> None:
    assert LAYOUT.size == ENGINE.spec.num_distinct_actions
    assert LAYOUT.place_base == 7 * 39
    assert LAYOUT.end_turn == LAYOUT.size - 1


def test_the_fast_legality_tests_agree_with_the_legal_lists() -> None:
    for state in _random_states(6):
        legal = set(ENGINE.legal_actions(state))
        assert all(ENGINE.is_legal_id(state, a) == (a in legal) for a in range(LAYOUT.size))
        for seat in range(state.core.num_players):
            assert kit.any_choice(state, seat) == bool(kit.choose_ids(state, seat, ALL_ACTIONS))
            assert kit.any_move(state, seat) == bool(kit.move_ids(state, seat))


def test_views_hide_the_order_of_the_coolers() -> None:
    state = new()
    source_state = common_pb2.RandomState()
    seed_random(source_state, 7)
    resampled = ENGINE.resample_hidden(state, 1, RandomSource(source_state))
    assert list(resampled.meat_cooler) != list(state.meat_cooler)
    for seat in (-1, 0, 1, 2):
        assert ENGINE.view(state, seat) == ENGINE.view(resampled, seat)
    view = ENGINE.view(state, 0)
    assert view.meat_cooler_size == len(state.meat_cooler) and view.veggie_cooler_size == len(state.veggie_cooler)
    assert not hasattr(view, "meat_cooler")


def test_observation_is_relative_to_the_viewer() -> None:
    state = new()
    give(state, 1, RIBEYE, pb.SPOT_PREPARE, 0, 0, 0)
    to_move(state, 1)
    ready(state)
    own = ENGINE.observe(state, 1)
    other = ENGINE.observe(state, 0)
    first_board = slice(views.BOARDS_AT, views.BOARDS_AT + views.BOARD_CELLS)
    second_board = slice(views.BOARDS_AT + views.BOARD_CELLS, views.BOARDS_AT + 2 * views.BOARD_CELLS)
    assert own[first_board].sum() == 4 and own[second_board].sum() == 0
    assert other[first_board].sum() == 0 and other[second_board].sum() == 4
    assert own.shape == ENGINE.spec.observation_shape and own.dtype == np.float32


def test_observation_covers_grill_knobs_table_and_turn() -> None:
    state = new()
    give(state, 0, PORTOBELLO, pb.SPOT_GRILL, 0, 0, 4, grill_cube=1)
    to_move(state, 0)
    ready(state)
    obs = ENGINE.observe(state, 0)
    grill = obs[views.GRILL_AT : views.BOARDS_AT]
    assert grill.sum() == 4  # the viewer's tile on the grill
    knobs = obs[views.KNOBS_AT : views.KNOBS_AT + 2 * views.SETTINGS]
    assert knobs.sum() == 2
    assert obs[views.TURN_AT + pb.PHASE_ACTION] == 1.0
    assert np.isfinite(obs).all() and np.abs(obs).max() <= 1.0


def test_render_prints_the_final_table() -> None:
    state = new()
    rng = random.Random(3)
    while not state.core.game_over:
        ENGINE.apply(state, state.core.seat_to_move, rng.choice(ENGINE.legal_actions(state)))
    text = ENGINE.render(ENGINE.view(state, -1))
    assert "final table" in text and "winner" in text and "tablecloth" in text


def test_heuristic_bot_plays_whole_games_and_beats_random_play() -> None:
    wins = 0
    for seed in range(6):
        state = new(3, seed)
        bots = [LicenseToGrillHeuristic(random.Random(seed)), RandomBot(random.Random(1)), RandomBot(random.Random(2))]
        while not state.core.game_over:
            seat = state.core.seat_to_move
            legal = ENGINE.legal_actions(state)
            choice = bots[seat].step(ENGINE.view(state, seat), legal)
            assert choice in legal
            ENGINE.apply(state, seat, choice)
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        wins += outcome.results[0].winner
    assert wins >= 5
