"""The Grill action: where tiles may go on the grill, the knob turn after it, the rule against resting
a tile on the turn it went on, and the free move between the Main Grill and the Warming Rack."""

from __future__ import annotations

from typing import Any

from services.rules.games.license_to_grill.content import CONTENT
from tests.rules.games.license_to_grill.ltg_positions import (
    BURGER,
    CORNBREAD,
    FILET,
    HOT_DOGS,
    MEAT,
    PORTERHOUSE,
    PORTOBELLO,
    RIBEYE,
    VEGGIE,
    act,
    choose,
    finish_turn,
    give,
    is_legal,
    legal,
    legal_cards,
    legal_kinds,
    legal_places,
    new,
    pb,
    place,
    ready,
    to_move,
)

RACK_ROWS = CONTENT.grill.warming_rack_rows
LEAVE = pb.Action(leave_knobs=pb.LeaveKnobs())
KEBABS = 14  # red I tetromino
CHEESEBURGER = 5  # red P pentomino


def _grill_cells(places: set[tuple[int, int, int]]) -> set[int]:
    """Columns a 2x2 tile covers over all its placements."""
    return {c for _, _, col in places for c in (col, col + 1)}


def _holding(card: int, seat: int = 0) -> Any:
    state = new()
    give(state, seat, card, pb.SPOT_PREPARE)
    to_move(state, seat)
    return ready(state)


def test_meat_grills_only_on_the_meat_side() -> None:
    state = _holding(RIBEYE)
    act(state, choose("grill", RIBEYE))
    assert _grill_cells(legal_places(state)) == set(range(CONTENT.grill.meat_cols))


def test_veggies_grill_only_on_the_veggie_side() -> None:
    state = _holding(PORTOBELLO)
    act(state, choose("grill", PORTOBELLO))
    assert _grill_cells(legal_places(state)) == set(range(CONTENT.grill.meat_cols, CONTENT.grill.cols))


def test_yellow_grills_on_either_side_or_across_the_line() -> None:
    state = _holding(CORNBREAD)
    act(state, choose("grill", CORNBREAD))
    places = legal_places(state)
    assert _grill_cells(places) == set(range(CONTENT.grill.cols))
    assert (0, RACK_ROWS, CONTENT.grill.meat_cols - 1) in places  # across the line


def test_grill_tile_must_touch_an_edge_or_another_tile() -> None:
    state = _holding(RIBEYE)
    act(state, choose("grill", RIBEYE))
    inner = {(0, 3, 1), (0, 3, 2), (0, 4, 1), (0, 4, 2)}  # Main Grill rows 2-6: these touch no edge
    assert not inner & legal_places(state)
    # With a tile beside it, an inner square is fine.
    state = new()
    give(state, 1, FILET, pb.SPOT_GRILL, 0, 2, 1, grill_cube=1)  # row 2, columns 1-2
    give(state, 0, RIBEYE, pb.SPOT_PREPARE)
    to_move(state, 0)
    ready(state)
    act(state, choose("grill", RIBEYE))
    assert (0, 3, 1) in legal_places(state) and (0, 4, 1) not in legal_places(state)


def test_grill_tiles_never_overlap_and_stay_in_one_section() -> None:
    state = new()
    give(state, 1, BURGER, pb.SPOT_GRILL, 0, 2, 0, grill_cube=1)
    give(state, 0, RIBEYE, pb.SPOT_PREPARE)
    to_move(state, 0)
    ready(state)
    act(state, choose("grill", RIBEYE))
    places = legal_places(state)
    assert (0, 2, 0) not in places and (0, 2, 1) not in places and (0, 3, 0) not in places
    assert (0, 1, 0) not in places  # rows 1-2 would straddle the Warming Rack and the Main Grill
    assert (0, 0, 0) in places and (0, 2, 2) in places


def test_grill_is_refused_when_no_placement_is_left() -> None:
    state = new()
    give(state, 1, RIBEYE, pb.SPOT_GRILL, 0, 0, 0, grill_cube=1)  # the meat rack: two squares of 2x2
    give(state, 1, BURGER, pb.SPOT_GRILL, 0, 0, 2, grill_cube=1)
    give(state, 2, HOT_DOGS, pb.SPOT_GRILL, 0, 2, 0, grill_cube=1)  # Main Grill rows 2 and 3
    give(state, 2, KEBABS, pb.SPOT_GRILL, 0, 3, 0, grill_cube=1)
    give(state, 1, PORTERHOUSE, pb.SPOT_GRILL, 0, 4, 0, grill_cube=1)  # rows 4-6, leaving (6, 1)
    give(state, 2, CHEESEBURGER, pb.SPOT_GRILL, 0, 4, 2, grill_cube=1)  # rows 4-6, leaving (6, 3)
    give(state, 0, FILET, pb.SPOT_PREPARE)
    give(state, 0, PORTOBELLO, pb.SPOT_PREPARE, 0, 2, 0)
    to_move(state, 0)
    ready(state)
    free = {(r, c) for r in range(7) for c in range(4) if not state.grill_squares >> (r * 8 + c) & 1}
    assert free == {(6, 1), (6, 3)}  # two lone squares: no domino fits on the meat side
    assert legal_cards(state, "grill") == {PORTOBELLO}
    assert not is_legal(state, choose("grill", FILET))


def test_grill_puts_the_cube_on_the_first_space_then_offers_the_knob() -> None:
    state = _holding(RIBEYE)
    act(state, choose("grill", RIBEYE))
    act(state, place(0, 2, 0))
    rip = state.players[0].recipes[0]
    assert (rip.spot, rip.grill_cube, rip.grilled_this_turn) == (pb.SPOT_GRILL, 0, True)
    assert state.phase == pb.PHASE_KNOB
    knobs = {(a.turn_knob.side, a.turn_knob.clicks) for a in legal(state) if a.HasField("turn_knob")}
    assert knobs == {(MEAT, -1), (MEAT, +1)}  # the meat side's knob only
    assert "leave_knobs" in legal_kinds(state)


def test_knob_turns_one_click_after_grilling() -> None:
    state = _holding(RIBEYE)
    act(state, choose("grill", RIBEYE))
    act(state, place(0, 2, 0))
    act(state, pb.Action(turn_knob=pb.TurnKnob(side=MEAT, clicks=1)))
    assert (state.meat_knob, state.veggie_knob) == (CONTENT.knobs.start_setting + 1, CONTENT.knobs.start_setting)
    assert state.phase == pb.PHASE_ACTION and state.actions_left == 1


def test_knob_limits_keep_it_within_its_settings() -> None:
    last = len(CONTENT.knobs.settings) - 1
    for setting, allowed in ((0, {(MEAT, 1)}), (last, {(MEAT, -1)})):
        state = _holding(RIBEYE)
        state.meat_knob = setting
        act(state, choose("grill", RIBEYE))
        act(state, place(0, 2, 0))
        knobs = {(a.turn_knob.side, a.turn_knob.clicks) for a in legal(state) if a.HasField("turn_knob")}
        assert knobs == allowed
        down_from_low = pb.Action(turn_knob=pb.TurnKnob(side=MEAT, clicks=-1 if setting == 0 else 1))
        assert not is_legal(state, down_from_low)


def test_knob_across_the_line_may_turn_either_knob_but_only_one() -> None:
    state = _holding(CORNBREAD)
    act(state, choose("grill", CORNBREAD))
    act(state, place(0, RACK_ROWS, CONTENT.grill.meat_cols - 1))
    knobs = {(a.turn_knob.side, a.turn_knob.clicks) for a in legal(state) if a.HasField("turn_knob")}
    assert knobs == {(MEAT, -1), (MEAT, 1), (VEGGIE, -1), (VEGGIE, 1)}
    act(state, pb.Action(turn_knob=pb.TurnKnob(side=VEGGIE, clicks=-1)))
    assert state.phase == pb.PHASE_ACTION  # one turn only: the choice is over
    assert state.meat_knob == CONTENT.knobs.start_setting


def test_knob_turns_only_after_a_grill_action() -> None:
    state = new()
    give(state, 0, RIBEYE, pb.SPOT_GRILL, 0, 2, 0, grill_cube=1)
    to_move(state, 0)
    ready(state)
    assert "turn_knob" not in legal_kinds(state)
    act(state, choose("move", RIBEYE))
    act(state, place(0, 0, 0))
    assert state.phase == pb.PHASE_ACTION and "turn_knob" not in legal_kinds(state)


def test_no_rest_on_the_turn_the_tile_went_on_the_grill() -> None:
    state = _holding(RIBEYE)
    act(state, choose("grill", RIBEYE))
    act(state, place(0, 2, 0))
    act(state, LEAVE)
    assert RIBEYE not in legal_cards(state, "rest") and not is_legal(state, choose("rest", RIBEYE))
    # Next turn it may rest.
    while state.core.seat_to_move != 0 or state.players[0].recipes[0].grilled_this_turn:
        finish_turn(state)
    assert not state.players[0].recipes[0].grilled_this_turn
    assert RIBEYE in legal_cards(state, "rest")


def test_rest_needs_room_in_the_rest_area() -> None:
    state = new()
    give(state, 0, RIBEYE, pb.SPOT_GRILL, 0, 2, 0, grill_cube=2)
    give(state, 0, 26, pb.SPOT_REST, 0, 1, 0, grill_cube=2)  # Zucchini Spears across the middle row
    to_move(state, 0)
    ready(state)
    assert RIBEYE not in legal_cards(state, "rest")


def test_rest_moves_the_tile_and_starts_the_rest_track() -> None:
    state = new()
    give(state, 0, RIBEYE, pb.SPOT_GRILL, 0, 2, 0, grill_cube=3)
    to_move(state, 0)
    ready(state)
    act(state, choose("rest", RIBEYE))
    act(state, place(0, 1, 2))
    rip = state.players[0].recipes[0]
    assert (rip.spot, rip.grill_cube, rip.rest_cube) == (pb.SPOT_REST, 3, 0)  # the grill cube stays
    assert state.grill_squares == 0 and state.players[0].rest_squares


def test_free_move_costs_no_action_and_happens_once_per_tile_per_turn() -> None:
    state = new()
    give(state, 0, RIBEYE, pb.SPOT_GRILL, 0, 2, 0, grill_cube=1)
    give(state, 0, BURGER, pb.SPOT_GRILL, 0, 5, 0, grill_cube=1)
    to_move(state, 0)
    ready(state)
    assert legal_cards(state, "move") == {RIBEYE, BURGER}
    act(state, choose("move", RIBEYE))
    assert all(row < RACK_ROWS for _, row, _ in legal_places(state))  # to the Warming Rack
    act(state, place(0, 0, 0))
    assert state.actions_left == 2
    assert state.players[0].recipes[0].moved_this_turn
    assert legal_cards(state, "move") == {BURGER}
    for _ in range(state.core.num_players):
        finish_turn(state)
    assert RIBEYE in legal_cards(state, "move")  # a new turn, a new free move


def test_free_move_respects_the_placement_rules() -> None:
    state = new()
    give(state, 0, PORTOBELLO, pb.SPOT_GRILL, 0, 0, 4, grill_cube=1)  # veggie, on the rack
    to_move(state, 0)
    ready(state)
    act(state, choose("move", PORTOBELLO))
    places = legal_places(state)
    assert places and all(row >= RACK_ROWS and col >= CONTENT.grill.meat_cols for _, row, col in places)
    assert (0, 3, 5) not in places  # touches no edge and no tile


def test_free_moves_stay_open_after_the_two_actions() -> None:
    state = new()
    give(state, 0, RIBEYE, pb.SPOT_GRILL, 0, 2, 0, grill_cube=1)
    give(state, 0, PORTOBELLO, pb.SPOT_PREPARE)
    to_move(state, 0)
    ready(state)
    act(state, choose("season", PORTOBELLO))
    act(state, choose("season", PORTOBELLO))
    assert state.phase == pb.PHASE_FREE_MOVES and state.core.seat_to_move == 0
    assert legal_kinds(state) == {"move", "end_turn"}
    act(state, pb.Action(end_turn=pb.EndTurn()))
    assert state.core.seat_to_move == 1
