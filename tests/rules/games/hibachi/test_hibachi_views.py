"""Views, the observation tensor and the text rendering."""

from __future__ import annotations

import random

import numpy as np

from services.rules.games.hibachi.content import BOARD, CHIP_VALUES
from services.rules.games.hibachi.table import RECIPE_KINDS
from services.rules.games.hibachi.views import (
    CHIP_SIZE,
    CHIPS_ON_BONUS_AT,
    CHIPS_ON_KIND_AT,
    GLOBAL_SIZE,
    LACKS_AT,
    PLAN_COST_AT,
    PLANNED_AT,
    PLAYER_SIZE,
    RECIPE_SIZE,
    SPARE_AT,
    UNKNOWN_RECIPE,
    V,
    plan_outlook,
)
from services.rules.random_source import RandomSource, seed_random
from sizzle.common.v1 import common_pb2
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb
from tests.rules.games.hibachi.hibachi_builders import (
    ENGINE,
    centre,
    give,
    ingredient_space,
    new_table,
    put_chip,
    put_on,
    to_cleaning,
)

EGG_SPACE = ingredient_space(pb.INGREDIENT_EGG)
K = len(BOARD.spaces) - 4
CHIPS_START = GLOBAL_SIZE + 4 * PLAYER_SIZE + K + 18 * RECIPE_SIZE


def test_observation_encodes_chip_positions_and_spaces() -> None:
    state = new_table(players=2)
    put_chip(state, 1, 400, 200.0, 120.0)
    obs = ENGINE.observe(state, 0)
    # Seat 1 is one seat to the left of the viewer: its first chip (by arrival) is chip slot 4.
    j = CHIPS_START + (1 * V + 0) * CHIP_SIZE
    assert obs[j] == 1.0 and obs[j + 1 + 1] == 1.0  # present, on the board
    assert obs[j + 5] == np.float32(200.0 / BOARD.width) and obs[j + 6] == np.float32(120.0 / BOARD.height)
    assert obs[j + 7] == 0.0  # face down: the value is unknown to seat 0
    spaces = obs[j + 8 + V : j + 8 + V + len(BOARD.spaces)]
    assert spaces.sum() >= 1.0


def test_observation_is_relative_to_the_viewer() -> None:
    state = new_table(players=3)
    put_on(state, 2, 600, EGG_SPACE)
    for seat in range(3):
        obs = ENGINE.observe(state, seat)
        rel = (2 - seat) % 3
        j = CHIPS_START + rel * V * CHIP_SIZE
        assert obs[j + 2] == 1.0  # the on-board chip sits in seat 2's block, seen from the viewer
        if seat == 2:
            assert obs[j + 8 + CHIP_VALUES.index(600)] == 1.0


def test_own_hand_is_in_the_observation_but_not_others() -> None:
    state = new_table(players=2)
    give(state, 1, 0, 3)
    assert ENGINE.observe(state, 0)[GLOBAL_SIZE + 4 * PLAYER_SIZE] == 0.0
    assert ENGINE.observe(state, 1)[GLOBAL_SIZE + 4 * PLAYER_SIZE] > 0.0


def test_the_plan_outlook_finds_the_cheapest_recipes_from_the_hand() -> None:
    state = new_table(players=2)
    state.recipes_on_show[:] = [0, 1, 2]
    del state.players[0].reserve[:]
    for k in RECIPE_KINDS[0]:  # recipe 0 complete in hand, plus one more of its first kind
        give(state, 0, k)
    give(state, 0, RECIPE_KINDS[0][0])
    obs = ENGINE.observe(state, 0)
    lacks, spare, planned, cost = plan_outlook(tuple(state.players[0].hand), 3, (0, 1, 2), ())
    assert set(planned) == {0, 1, 2}  # the three recipes on show are the only ones known
    assert [obs[PLANNED_AT + r] for r in range(3)] == [1.0, 1.0, 1.0] and obs[PLANNED_AT + 3] == 0.0
    # recipe 0 takes its cards first; the others lack every card the hand no longer holds
    expected = [0] * K
    left = list(state.players[0].hand)
    for k in RECIPE_KINDS[0]:
        left[k] -= 1
    for recipe in (1, 2):
        for k in RECIPE_KINDS[recipe]:
            if left[k] > 0:
                left[k] -= 1
            else:
                expected[k] += 1
    assert list(lacks) == expected
    assert [round(float(x) * 3) for x in obs[LACKS_AT : LACKS_AT + K]] == expected
    assert list(spare) == left and sum(left) == 0 and not obs[SPARE_AT : SPARE_AT + K].any()
    assert cost == sum(expected) + 3 + 3 * 0.35
    assert obs[PLAN_COST_AT] > 0.0
    # the spectator has no hand: no outlook
    assert not ENGINE.observe(state, -1)[LACKS_AT:].any()


def test_the_plan_outlook_prices_recipes_not_yet_seen_and_counts_chips_on_the_board() -> None:
    state = new_table(players=2)
    state.recipes_on_show[:] = [0]
    del state.players[0].reserve[:]
    _, _, planned, cost = plan_outlook(tuple(state.players[0].hand), 3, (0,), ())
    assert planned == (0,) and cost == 3 + 1 + 0.35 + 2 * UNKNOWN_RECIPE  # cards, cook, risk, two unseen
    put_on(state, 0, 600, EGG_SPACE)
    obs = ENGINE.observe(state, 0)
    egg = [k for k in range(K) if ingredient_space_of_kind(k) == EGG_SPACE]
    assert obs[CHIPS_ON_KIND_AT + egg[0]] == np.float32(1 / V) and obs[CHIPS_ON_BONUS_AT] == 0.0
    assert not ENGINE.observe(state, 1)[CHIPS_ON_KIND_AT : CHIPS_ON_KIND_AT + K].any()  # not seat 1's chip


def ingredient_space_of_kind(k: int) -> int:
    from services.rules.games.hibachi.content import INGREDIENT_SPACE

    return INGREDIENT_SPACE[k]


def test_views_do_not_change_when_hidden_things_are_redrawn() -> None:
    rng = random.Random(2)
    state = ENGINE.new_game(4, {}, 11)
    source_state = common_pb2.RandomState()
    seed_random(source_state, 9)
    source = RandomSource(source_state)
    differed = 0
    while not state.core.game_over and state.round < 4:
        for seat in range(4):
            sample = ENGINE.resample_hidden(state, seat, source)
            ENGINE.check_invariants(sample)
            assert ENGINE.view(sample, seat) == ENGINE.view(state, seat)
            assert ENGINE.view(sample, -1) == ENGINE.view(state, -1)
            differed += any(a.arrival != b.arrival for a, b in zip(sample.chips, state.chips, strict=True))
        ENGINE.apply(state, state.core.seat_to_move, rng.choice(ENGINE.legal_actions(state)))
    assert differed > 0  # face-down chip values really were redrawn


def test_render_draws_the_board_with_its_chips_as_text() -> None:
    state = new_table(players=2)
    put_on(state, 0, 400, EGG_SPACE)
    put_chip(state, 1, 200, 450.0, 300.0)
    text = ENGINE.render(ENGINE.view(state, 0))
    assert "EGG" in text and "CHILI" in text and "#" in text
    assert "04" in text  # seat 0's own 400 chip
    assert "1?" in text  # seat 1's chip, face down
    to_cleaning(state)
    assert "12" in ENGINE.render(ENGINE.view(state, 0))  # turned face up for cleaning


def test_render_final_table_shows_ranks() -> None:
    state = ENGINE.new_game(3, {}, 4)
    rng = random.Random(0)
    while not state.core.game_over:
        ENGINE.apply(state, state.core.seat_to_move, rng.choice(ENGINE.legal_actions(state)))
    text = ENGINE.render(ENGINE.view(state, -1))
    assert "GAME OVER" in text and "final table" in text and "rank 1" in text and "WINNER" in text
    outcome = ENGINE.outcome(state)
    winner = [r.seat for r in outcome.results if r.winner][0]
    assert f"rank 1: seat {winner}" in text


def test_centres_are_inside_the_board() -> None:
    for space in BOARD.spaces:
        x, y = centre(space.id)
        assert BOARD.edge_width < x < BOARD.width - BOARD.edge_width
        assert BOARD.edge_width < y < BOARD.height - BOARD.edge_width
