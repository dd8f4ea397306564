"""The action codec (every id round trips; seat targets are relative offsets), the views (the whole
table is open, only the random source is hidden), the observation and the rendered table."""

from __future__ import annotations

import random

import numpy as np
import pytest

from services.kit.errors import GameError
from services.rules.games.a_la_carte.observe import OBSERVATION_SIZE
from services.rules.random_source import RandomSource, seed_random
from sizzle.common.v1 import common_pb2
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb
from tests.rules.games.a_la_carte.scenario import ENGINE, L, kitchen


def _offset(action_id: int) -> int:
    """The seat offset an id names (0 when it names no other seat)."""
    if L.swap_base <= action_id < L.spoons:
        return action_id - L.swap_base + 1
    if L.reseason_base <= action_id < L.lower_base:
        return (action_id - L.reseason_base) // L.condiments + 1
    if L.take_cup_base <= action_id < L.trash:
        return (action_id - L.take_cup_base) // L.cup_kinds + 1
    return 0


def test_codec_every_id_round_trips_for_every_table_size() -> None:
    for n in (2, 3, 4):
        state = kitchen(num_players=n, dishes=(0, 4, 8, 12)[:n])
        for seat in range(n):
            for action_id in range(L.size):
                if _offset(action_id) >= n:
                    continue  # an offset beyond a smaller table names no seat: never legal there
                action = ENGINE.id_to_action(state, seat, action_id)
                assert ENGINE.action_to_id(state, seat, action) == action_id, (n, seat, action_id)


def test_codec_seat_targets_are_relative_offsets() -> None:
    state = kitchen(num_players=3, dishes=(0, 4, 8))
    swap_left = ENGINE.id_to_action(state, 2, L.swap_base)
    assert swap_left.swap_stoves.seat == 0
    assert ENGINE.action_to_id(state, 1, pb.Action(swap_stoves=pb.SwapStoves(seat=1))) is None, "not oneself"
    assert ENGINE.action_to_id(state, 1, pb.Action(swap_stoves=pb.SwapStoves(seat=7))) is None


def test_codec_malformed_structured_actions_have_no_id() -> None:
    state = kitchen()
    for action in (
        pb.Action(),
        pb.Action(season=pb.Season()),
        pb.Action(choose_heat=pb.ChooseHeat(amount=4)),
        pb.Action(choose_dish=pb.ChooseDish(dish=20)),
        pb.Action(lower_heat=pb.LowerHeat(amount=0)),
        pb.Action(take_cup=pb.TakeCup(seat=1)),
    ):
        assert ENGINE.action_to_id(state, 0, action) is None


def test_codec_layout_covers_every_choice() -> None:
    assert ENGINE.spec.num_distinct_actions == L.size == 66


def test_view_shows_the_whole_table_but_never_the_random_source() -> None:
    state = kitchen()
    view = ENGINE.view(state, 1)
    assert view.players[0].stove == state.players[0].stove
    assert list(view.tray) == list(state.tray) and list(view.supply) == list(state.supply)
    assert "random" not in str(view) and ENGINE.view(state, -1).core.viewer == -1


def test_view_is_the_same_whatever_the_random_source() -> None:
    state = kitchen()
    random_state = common_pb2.RandomState()
    seed_random(random_state, 11)
    other = ENGINE.resample_hidden(state, 0, RandomSource(random_state))
    assert other != state and ENGINE.view(other, 0) == ENGINE.view(state, 0)


def test_observation_is_relative_to_the_viewer() -> None:
    state = kitchen(num_players=3, dishes=(0, 4, 8))
    obs0, obs1 = ENGINE.observe(state, 0), ENGINE.observe(state, 1)
    assert obs0.shape == (OBSERVATION_SIZE,) and obs0.dtype == np.float32
    assert not np.array_equal(obs0, obs1)
    state.players[1].stove.heat = 3
    assert ENGINE.observe(state, 1)[0:40].tolist() != obs1[0:40].tolist(), "own block comes first"


def test_render_final_table_shows_scores_and_ranks() -> None:
    rng = random.Random(4)
    state = ENGINE.new_game(4, {}, 5)
    while not state.core.game_over:
        ENGINE.apply(state, state.core.seat_to_move, rng.choice(ENGINE.legal_actions(state)))
    text = ENGINE.render(ENGINE.view(state, -1))
    assert "GAME OVER" in text and "final standings" in text and "rank 1" in text and "points" in text
    assert "seat 3" in text


def test_validate_state_refuses_a_kitchen_that_breaks_the_rules() -> None:
    state = kitchen()
    state.dispensers[0].pieces += 1  # a paprika piece out of nowhere
    with pytest.raises(GameError) as error:
        ENGINE.validate_state(state)
    assert error.value.reason_name == "MALFORMED_STATE"
