"""Time passing at the start of a turn: the Prepare, Grill and Rest tracks, the knobs' advance on the
Main Grill and the Warming Rack, the yellow tile across the line, and ruin."""

from __future__ import annotations

import pytest

from services.rules.games.license_to_grill.content import MAIN_ADVANCE, RACK_ADVANCE
from tests.rules.games.license_to_grill.ltg_positions import (
    CORNBREAD,
    HALLOUMI,
    MEAT,
    PORTOBELLO,
    RIBEYE,
    SALMON,
    SHRIMP,
    VEGGIE,
    act,
    give,
    legal_kinds,
    new,
    pb,
    ready,
    start_turn_of,
)


@pytest.mark.parametrize("setting", [0, 1, 2])
def test_grill_track_advances_by_the_knob_on_the_main_grill(setting: int) -> None:
    state = new()
    give(state, 1, RIBEYE, pb.SPOT_GRILL, 0, 2, 0, grill_cube=0)
    state.meat_knob = setting
    state.veggie_knob = 2 - setting  # the other side's knob does not matter
    ready(state)
    start_turn_of(state, 1)
    assert state.players[1].recipes[0].grill_cube == MAIN_ADVANCE[setting] == setting + 1


@pytest.mark.parametrize("setting", [0, 1, 2])
def test_grill_track_advances_less_on_the_warming_rack(setting: int) -> None:
    state = new()
    give(state, 1, PORTOBELLO, pb.SPOT_GRILL, 0, 0, 4, grill_cube=0)
    state.veggie_knob = setting
    ready(state)
    start_turn_of(state, 1)
    assert state.players[1].recipes[0].grill_cube == RACK_ADVANCE[setting] == max(1, setting)


def test_yellow_tile_across_the_line_lets_its_owner_choose_the_knob() -> None:
    state = new()
    give(state, 1, CORNBREAD, pb.SPOT_GRILL, 0, 2, 3, grill_cube=0)  # squares in columns 3 and 4
    state.meat_knob, state.veggie_knob = 0, 2
    ready(state)
    start_turn_of(state, 1)
    assert state.phase == pb.PHASE_ADVANCE and list(state.advance_queue) == [CORNBREAD]
    assert legal_kinds(state) == {"choose_knob"}
    act(state, pb.Action(choose_knob=pb.ChooseKnob(side=VEGGIE)))
    assert state.players[1].recipes[0].grill_cube == MAIN_ADVANCE[2]
    assert state.phase == pb.PHASE_ACTION and not state.advance_queue


def test_yellow_tile_across_the_line_may_take_the_cooler_knob() -> None:
    state = new()
    give(state, 1, CORNBREAD, pb.SPOT_GRILL, 0, 2, 3, grill_cube=0)
    state.meat_knob, state.veggie_knob = 0, 2
    ready(state)
    start_turn_of(state, 1)
    act(state, pb.Action(choose_knob=pb.ChooseKnob(side=MEAT)))
    assert state.players[1].recipes[0].grill_cube == MAIN_ADVANCE[0]


def test_yellow_tile_across_the_line_needs_no_choice_when_both_knobs_agree() -> None:
    state = new()
    give(state, 1, CORNBREAD, pb.SPOT_GRILL, 0, 2, 3, grill_cube=0)
    state.meat_knob = state.veggie_knob = 1
    ready(state)
    start_turn_of(state, 1)
    assert state.phase == pb.PHASE_ACTION
    assert state.players[1].recipes[0].grill_cube == MAIN_ADVANCE[1]


def test_yellow_tile_on_one_side_uses_that_side_s_knob() -> None:
    state = new()
    give(state, 1, CORNBREAD, pb.SPOT_GRILL, 0, 2, 0, grill_cube=0)  # wholly on the meat side
    state.meat_knob, state.veggie_knob = 0, 2
    ready(state)
    start_turn_of(state, 1)
    assert state.phase == pb.PHASE_ACTION
    assert state.players[1].recipes[0].grill_cube == MAIN_ADVANCE[0]


def test_rest_track_advances_by_one() -> None:
    state = new()
    give(state, 1, RIBEYE, pb.SPOT_REST, 0, 0, 0, grill_cube=3, rest_cube=0)
    ready(state)
    start_turn_of(state, 1)
    assert state.players[1].recipes[0].rest_cube == 1


def test_prepare_track_stops_once_the_food_is_grilling() -> None:
    state = new()
    give(state, 1, RIBEYE, pb.SPOT_GRILL, 0, 2, 0, prepare_cube=1, grill_cube=0)
    ready(state)
    start_turn_of(state, 1)
    rip = state.players[1].recipes[0]
    assert rip.prepare_cube == 1 and rip.grill_cube > 0


def test_only_the_seat_to_move_s_tracks_advance() -> None:
    state = new()
    give(state, 1, RIBEYE, pb.SPOT_PREPARE)
    give(state, 2, PORTOBELLO, pb.SPOT_PREPARE)
    ready(state)
    start_turn_of(state, 1)
    assert state.players[1].recipes[0].prepare_cube == 1
    assert state.players[2].recipes[0].prepare_cube == 0


def test_prepare_track_reaching_its_ruined_space_ruins_the_recipe() -> None:
    state = new()
    give(state, 1, SALMON, pb.SPOT_PREPARE, prepare_cube=2)  # track [2, 1, -1] then ruined
    give(state, 1, HALLOUMI, pb.SPOT_PREPARE, 0, 3, 0)
    ready(state)
    events = start_turn_of(state, 1)
    assert [r.card for r in state.players[1].recipes] == [HALLOUMI]
    assert SALMON in state.ruined
    assert state.players[1].prepare_squares == 0b11 << 12  # the salmon's squares are free again
    assert any("ruined" in e.text for e in events)


def test_grill_track_overshooting_its_ruined_space_ruins_the_recipe() -> None:
    state = new()
    give(state, 1, SHRIMP, pb.SPOT_GRILL, 0, 2, 0, grill_cube=2)  # track [1, 3, 2, -1] then ruined
    state.meat_knob = 2  # +3 would pass the ruined space: the cube stops on it
    ready(state)
    start_turn_of(state, 1)
    assert not state.players[1].recipes and SHRIMP in state.ruined
    assert state.grill_squares == 0


def test_grill_track_one_short_of_ruin_survives() -> None:
    state = new()
    give(state, 1, SHRIMP, pb.SPOT_GRILL, 0, 2, 0, grill_cube=2)
    state.meat_knob = 0
    ready(state)
    start_turn_of(state, 1)
    assert state.players[1].recipes[0].grill_cube == 3  # the last scoring space


def test_rest_track_reaching_its_ruined_space_ruins_the_recipe() -> None:
    state = new()
    give(state, 1, HALLOUMI, pb.SPOT_REST, 0, 0, 0, grill_cube=2, rest_cube=1)  # rest track [2, 0]
    ready(state)
    start_turn_of(state, 1)
    assert not state.players[1].recipes and HALLOUMI in state.ruined
    assert state.players[1].rest_squares == 0
