"""Setup, the six recipes on show and their refill, the first turn, and the Prepare action."""

from __future__ import annotations

import pytest

from services.kit.errors import GameError
from services.rules.games.license_to_grill.content import CONTENT, RECIPES
from tests.rules.games.license_to_grill.ltg_positions import (
    BURGER,
    FILET,
    HALLOUMI,
    HOT_DOGS,
    PORTOBELLO,
    RIBEYE,
    act,
    choose,
    empty_cooler,
    give,
    is_legal,
    legal_cards,
    legal_kinds,
    legal_places,
    new,
    pb,
    place,
    ready,
    show,
    start_turn_of,
    to_move,
)

BELL_PEPPER = 25
KEBABS = 14
CORN = 23


def test_setup_shows_three_recipes_from_each_cooler() -> None:
    for players in (3, 4, 5):
        state = new(players, seed=players)
        assert len(state.meat_on_show) == len(state.veggie_on_show) == CONTENT.on_show_per_cooler
        assert all(RECIPES[c].cooler == pb.COOLER_MEAT for c in [*state.meat_on_show, *state.meat_cooler])
        assert all(RECIPES[c].cooler == pb.COOLER_VEGGIE for c in [*state.veggie_on_show, *state.veggie_cooler])
        assert len(state.meat_on_show) + len(state.meat_cooler) == 23
        assert len(state.veggie_on_show) + len(state.veggie_cooler) == 16
        assert state.meat_knob == state.veggie_knob == CONTENT.knobs.start_setting  # the flame icon
        assert state.core.seat_to_move == 0 and state.phase == pb.PHASE_ACTION


def test_prepare_refills_its_place_from_the_same_cooler() -> None:
    state = new()
    before = list(state.meat_on_show)
    top = state.meat_cooler[0]
    act(state, choose("prepare", before[1]))
    (offset,) = sorted(legal_places(state))[:1]
    act(state, place(*offset))
    assert list(state.meat_on_show) == [before[0], top, before[2]]
    assert top not in state.meat_cooler
    assert [r.card for r in state.players[0].recipes] == [before[1]]


def test_refill_leaves_a_gap_when_the_cooler_is_empty() -> None:
    state = new()
    empty_cooler(state, meat=True, veggie=False)
    ready(state)
    card = state.meat_on_show[0]
    act(state, choose("prepare", card))
    act(state, place(*sorted(legal_places(state))[0]))
    assert len(state.meat_on_show) == CONTENT.on_show_per_cooler - 1 and card not in state.meat_on_show


def test_first_turn_can_only_prepare_or_end() -> None:
    state = new()
    assert legal_kinds(state) == {"prepare", "end_turn"}  # ending at once is the player's right (RULINGS)
    assert legal_cards(state, "prepare") == {*state.meat_on_show, *state.veggie_on_show}


def test_first_turn_second_action_may_prepare_season_or_grill() -> None:
    state = new()
    show(state, meat=[RIBEYE, FILET, BURGER])
    ready(state)
    act(state, choose("prepare", RIBEYE))
    act(state, place(0, 0, 0))
    assert state.actions_left == 1
    assert legal_kinds(state) == {"prepare", "season", "grill", "end_turn"}  # nothing is grilling or resting yet


def test_prepare_puts_the_cube_on_the_first_space() -> None:
    state = new()
    show(state, meat=[RIBEYE, FILET, BURGER])
    ready(state)
    act(state, choose("prepare", RIBEYE))
    act(state, place(0, 2, 2))
    rip = state.players[0].recipes[0]
    assert (rip.spot, rip.prepare_cube, rip.grill_cube, rip.rest_cube) == (pb.SPOT_PREPARE, 0, -1, -1)
    assert (rip.row, rip.col) == (2, 2)


def test_prepare_refused_when_the_tile_does_not_fit_the_prepare_area() -> None:
    # Rows 0 and 2 of the 4x4 Prepare area are full: only one-row tiles still fit.
    state = new()
    give(state, 0, HOT_DOGS, pb.SPOT_PREPARE, 0, 0, 0)
    give(state, 0, KEBABS, pb.SPOT_PREPARE, 0, 2, 0)
    show(state, meat=[RIBEYE, FILET, BURGER], veggie=[PORTOBELLO, HALLOUMI, BELL_PEPPER])
    to_move(state, 0)
    ready(state)
    assert legal_cards(state, "prepare") == {FILET, HALLOUMI}
    assert not is_legal(state, choose("prepare", RIBEYE))
    with pytest.raises(GameError) as refused:
        act(state, choose("prepare", RIBEYE))
    assert refused.value.reason_name == "ILLEGAL_ACTION"
    act(state, choose("prepare", FILET))
    assert legal_places(state) == {(0, 1, c) for c in range(3)} | {(0, 3, c) for c in range(3)}


def test_prepare_only_takes_a_recipe_on_show() -> None:
    state = new()
    hidden = state.meat_cooler[0]
    assert not is_legal(state, choose("prepare", hidden))


def test_tiles_never_overlap_in_the_prepare_area() -> None:
    state = new()
    give(state, 0, CORN, pb.SPOT_PREPARE, 1, 0, 0)  # upright in column 0
    show(state, meat=[RIBEYE, FILET, HOT_DOGS])
    to_move(state, 0)
    ready(state)
    act(state, choose("prepare", HOT_DOGS))
    places = legal_places(state)
    assert places == {(1, 0, 1), (1, 0, 2), (1, 0, 3)}  # only upright, beside the corn
    assert not is_legal(state, place(0, 0, 0))


def test_tiles_turn_in_quarter_turns_and_stay_within_the_area() -> None:
    state = new()
    show(state, meat=[RIBEYE, FILET, HOT_DOGS])
    ready(state)
    act(state, choose("prepare", HOT_DOGS))
    places = legal_places(state)
    assert places == {(0, r, 0) for r in range(4)} | {(1, 0, c) for c in range(4)}
    assert not is_legal(state, place(1, 1, 0))  # upright from row 1 would leave the 4-row area
    # A half turn gives the same shape: it is the same placement as no turn at all.
    assert is_legal(state, place(2, 3, 0))
    act(state, place(2, 3, 0))
    rip = state.players[0].recipes[0]
    assert (rip.rotation, rip.row, rip.col) == (0, 3, 0)


def test_a_new_turn_advances_the_prepare_track_by_one() -> None:
    state = new()
    rip = give(state, 1, RIBEYE, pb.SPOT_PREPARE, prepare_cube=0)
    ready(state)
    start_turn_of(state, 1)
    assert state.core.seat_to_move == 1
    assert state.players[1].recipes[0].prepare_cube == 1
    del rip
