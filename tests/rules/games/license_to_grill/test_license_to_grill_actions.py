"""Two actions a turn, Season, Sauce, Serve onto the tablecloth, the covered icons and scoring."""

from __future__ import annotations

from typing import Any

from services.rules.games.license_to_grill import kitchen as kit
from tests.rules.games.license_to_grill.ltg_positions import (
    BURGER,
    CORN,
    FILET,
    HALLOUMI,
    HOT_DOGS,
    PORTOBELLO,
    RIBEYE,
    SHRIMP,
    act,
    choose,
    give,
    is_legal,
    legal_cards,
    legal_kinds,
    legal_places,
    new,
    pb,
    place,
    ready,
    served,
    to_move,
)

KEBABS = 14
BRATWURST = 7
ZUCCHINI = 26
DATES = 19  # Bacon-Wrapped Dates, an L tromino
SKIP = pb.Action(skip_bonus=pb.SkipBonus())


def test_two_actions_a_turn() -> None:
    state = new()
    give(state, 0, PORTOBELLO, pb.SPOT_PREPARE)
    to_move(state, 0)
    ready(state)
    act(state, choose("season", PORTOBELLO))
    assert state.core.seat_to_move == 0 and state.actions_left == 1
    act(state, choose("season", PORTOBELLO))
    assert state.core.seat_to_move == 1 and state.actions_left == 2  # nothing to move: the turn passed


def test_season_only_in_the_prepare_area_with_a_square_uncovered() -> None:
    state = new()
    give(state, 0, PORTOBELLO, pb.SPOT_PREPARE)  # two Season squares
    give(state, 0, RIBEYE, pb.SPOT_GRILL, 0, 2, 0, grill_cube=1)  # one Season square, but grilling
    give(state, 0, HOT_DOGS, pb.SPOT_PREPARE, 0, 3, 0)  # no Season square
    to_move(state, 0)
    ready(state)
    assert legal_cards(state, "season") == {PORTOBELLO}
    act(state, choose("season", PORTOBELLO))
    assert state.players[0].recipes[0].season_cubes == 1
    act(state, choose("season", PORTOBELLO))
    assert state.players[0].recipes[0].season_cubes == 2
    to_move(state, 0)
    assert PORTOBELLO not in legal_cards(state, "season")  # both squares covered


def test_sauce_only_on_the_grill_with_a_square_uncovered() -> None:
    state = new()
    give(state, 0, BURGER, pb.SPOT_GRILL, 0, 2, 0, grill_cube=1)  # one Sauce square
    give(state, 0, RIBEYE, pb.SPOT_GRILL, 0, 5, 0, grill_cube=1)  # no Sauce square
    give(state, 0, PORTOBELLO, pb.SPOT_PREPARE)  # a Sauce square, but not on the grill
    to_move(state, 0)
    ready(state)
    assert legal_cards(state, "sauce") == {BURGER}
    act(state, choose("sauce", BURGER))
    assert state.players[0].recipes[0].sauce_cubes == 1
    assert BURGER not in legal_cards(state, "sauce")


def test_serve_places_the_tile_on_the_tablecloth_and_scores_it() -> None:
    state = new()
    # Prepare 1 + Season 1 + Grill 5 + Rest 4 = 11 (Ribeye: prepare [1..], grill [.., 5 at 3], rest [.., 4 at 2]).
    give(state, 0, RIBEYE, pb.SPOT_REST, 0, 0, 0, prepare_cube=0, season=1, grill_cube=3, rest_cube=2)
    to_move(state, 0)
    ready(state)
    act(state, choose("serve", RIBEYE))
    act(state, place(0, 2, 1))  # plain squares (2,1) (2,2) (3,1) (3,2): no icon
    player = state.players[0]
    assert not player.recipes and [(d.card, d.points) for d in player.served] == [(RIBEYE, 11)]
    assert player.score == 11 and player.rest_squares == 0
    assert [(p.seat, p.card, p.row, p.col) for p in state.table] == [(0, RIBEYE, 2, 1)]
    assert state.phase == pb.PHASE_ACTION and state.actions_left == 1


def test_a_dish_never_scores_below_zero() -> None:
    state = new()
    # Prepare -2 + Grill -1 + Rest 0 = -3: counts as 0.
    give(state, 0, SHRIMP, pb.SPOT_REST, 0, 0, 0, prepare_cube=2, grill_cube=3, rest_cube=1)
    to_move(state, 0)
    ready(state)
    assert kit.dish_points(state.players[0].recipes[0]) == 0
    act(state, choose("serve", SHRIMP))
    act(state, place(0, 1, 1))
    assert state.players[0].served[0].points == 0 and state.players[0].score == 0


def test_serve_impossible_when_the_table_is_full() -> None:
    state = new()
    # Rows 0 and 2 of the 4 x 12 tablecloth are taken: only one-row tiles still fit.
    for seat, card, row, col in (
        (1, HOT_DOGS, 0, 0),
        (1, KEBABS, 0, 4),
        (2, CORN, 0, 8),
        (1, BRATWURST, 2, 0),
        (2, ZUCCHINI, 2, 3),
        (2, FILET, 2, 6),
        (1, SHRIMP, 2, 8),
        (2, HALLOUMI, 2, 10),
    ):
        served(state, seat, card, 3, 0, row, col)
    give(state, 0, RIBEYE, pb.SPOT_REST, 0, 0, 0, grill_cube=3, rest_cube=1)
    give(state, 0, DATES, pb.SPOT_REST, 1, 0, 2, grill_cube=2, rest_cube=0)
    to_move(state, 0)
    ready(state)
    assert RIBEYE not in legal_cards(state, "serve") and not is_legal(state, choose("serve", RIBEYE))
    assert legal_cards(state, "serve") == set()  # the L tromino needs two rows as well


def test_serve_may_use_any_gap_the_tile_fits() -> None:
    state = new()
    for seat, card, row, col in ((1, HOT_DOGS, 0, 0), (1, KEBABS, 0, 4), (2, CORN, 0, 8)):
        served(state, seat, card, 3, 0, row, col)
    give(state, 0, FILET, pb.SPOT_REST, 0, 0, 0, grill_cube=2, rest_cube=0)
    to_move(state, 0)
    ready(state)
    act(state, choose("serve", FILET))
    places = legal_places(state)
    assert all(row >= 1 for rotation, row, _ in places if rotation == 0)
    assert (1, 0, 0) not in places and (1, 1, 0) in places


def _serving_over_two_icons() -> Any:
    """Seat 0 serves a 2x2 dish onto (0, 3): it covers a Grill icon at (0, 4) and a Rest icon at (1, 3)."""
    state = new()
    give(state, 0, RIBEYE, pb.SPOT_REST, 0, 0, 0, grill_cube=3, rest_cube=1)
    give(state, 0, BURGER, pb.SPOT_PREPARE)
    give(state, 0, FILET, pb.SPOT_GRILL, 0, 2, 0, grill_cube=2)
    to_move(state, 0)
    ready(state)
    act(state, choose("serve", RIBEYE))
    act(state, place(0, 0, 3))
    return state


def test_serve_grants_the_covered_icons_in_the_order_the_player_chooses() -> None:
    state = _serving_over_two_icons()
    assert state.phase == pb.PHASE_BONUS
    assert sorted(state.bonus_icons) == sorted([pb.ACTION_KIND_GRILL, pb.ACTION_KIND_REST])
    assert legal_kinds(state) == {"grill", "rest", "skip_bonus", "end_turn"}
    # Rest first, then grill: the player's order; neither costs one of the two actions.
    act(state, choose("rest", FILET))
    act(state, place(0, 0, 0))
    assert list(state.bonus_icons) == [pb.ACTION_KIND_GRILL] and state.phase == pb.PHASE_BONUS
    assert legal_kinds(state) == {"grill", "skip_bonus", "end_turn"}
    act(state, choose("grill", BURGER))
    act(state, place(0, 2, 0))
    act(state, pb.Action(leave_knobs=pb.LeaveKnobs()))
    assert not state.bonus_icons and state.phase == pb.PHASE_ACTION and state.actions_left == 1


def test_covered_icons_not_taken_are_lost() -> None:
    state = _serving_over_two_icons()
    act(state, choose("grill", BURGER))
    act(state, place(0, 2, 2))
    act(state, pb.Action(leave_knobs=pb.LeaveKnobs()))
    assert state.phase == pb.PHASE_BONUS
    act(state, SKIP)
    assert not state.bonus_icons and state.phase == pb.PHASE_ACTION and state.actions_left == 1


def test_unusable_covered_icons_are_lost_at_once() -> None:
    state = new()
    give(state, 0, RIBEYE, pb.SPOT_REST, 0, 0, 0, grill_cube=3, rest_cube=1)  # nothing else to cook
    to_move(state, 0)
    ready(state)
    act(state, choose("serve", RIBEYE))
    events = act(state, place(0, 0, 3))
    assert not state.bonus_icons and state.phase == pb.PHASE_ACTION
    assert any("cannot use" in e.text for e in events)


def test_a_covered_prepare_icon_takes_a_recipe_from_the_coolers() -> None:
    state = new()
    give(state, 0, SHRIMP, pb.SPOT_REST, 0, 0, 0, grill_cube=1, rest_cube=0)
    to_move(state, 0, actions_left=1)
    ready(state)
    act(state, choose("serve", SHRIMP))
    act(state, place(1, 2, 0))  # upright over (2, 0) Prepare and (3, 0)
    assert list(state.bonus_icons) == [pb.ACTION_KIND_PREPARE]
    card = state.meat_on_show[0]
    act(state, choose("prepare", card))
    act(state, place(*sorted(legal_places(state))[0]))
    assert [r.card for r in state.players[0].recipes] == [card]
    assert state.core.seat_to_move == 1  # the serve was the last action and nothing can move
