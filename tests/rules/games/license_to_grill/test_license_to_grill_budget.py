"""Rulings of round two: the two actions are a budget, not a duty (a player may end the turn at any
point between actions, leaving actions and covered icons unspent), and cubes and score tokens are
bookkeeping that never runs out."""

from __future__ import annotations

from typing import Any

from services.rules.games.license_to_grill import geometry as geo
from services.rules.games.license_to_grill import kitchen as kit
from services.rules.games.license_to_grill.content import CONTENT, LAYOUT, RECIPES
from tests.rules.games.license_to_grill.ltg_positions import (
    BURGER,
    CORNBREAD,
    ENGINE,
    FILET,
    PORTOBELLO,
    RIBEYE,
    act,
    choose,
    give,
    is_legal,
    legal_kinds,
    legal_places,
    new,
    pb,
    place,
    ready,
    served,
    start_turn_of,
    to_move,
)

END = pb.Action(end_turn=pb.EndTurn())
RACK_ROWS = CONTENT.grill.warming_rack_rows


def _texts(events: list[Any]) -> str:
    return " | ".join(e.text for e in events)


def test_a_turn_may_end_before_any_action() -> None:
    state = new()
    give(state, 0, PORTOBELLO, pb.SPOT_PREPARE)
    to_move(state, 0)
    ready(state)
    assert state.actions_left == CONTENT.actions_per_turn
    assert {"prepare", "season", "grill", "end_turn"} <= legal_kinds(state)
    events = act(state, END)
    assert state.core.seat_to_move == 1 and state.phase == pb.PHASE_ACTION
    assert state.actions_left == CONTENT.actions_per_turn  # seat 1's own two actions
    rip = state.players[0].recipes[0]
    assert (rip.spot, rip.prepare_cube, rip.season_cubes) == (pb.SPOT_PREPARE, 0, 0)  # nothing done
    assert "seat 0 ends the turn, leaving 2 actions unspent" in _texts(events)


def test_the_first_turn_may_end_without_preparing() -> None:
    state = new()
    assert state.core.seat_to_move == 0 and legal_kinds(state) == {"prepare", "end_turn"}
    on_show = [*state.meat_on_show, *state.veggie_on_show]
    act(state, END)
    assert state.core.seat_to_move == 1 and not state.players[0].recipes
    assert [*state.meat_on_show, *state.veggie_on_show] == on_show


def test_a_turn_may_end_after_one_action() -> None:
    state = new()
    give(state, 0, PORTOBELLO, pb.SPOT_PREPARE)
    to_move(state, 0)
    ready(state)
    act(state, choose("season", PORTOBELLO))
    assert state.core.seat_to_move == 0 and state.actions_left == 1
    assert "end_turn" in legal_kinds(state)
    events = act(state, END)
    assert state.core.seat_to_move == 1
    assert state.players[0].recipes[0].season_cubes == 1
    assert "seat 0 ends the turn, leaving 1 action unspent" in _texts(events)


def test_a_free_move_then_stopping_ends_the_turn_with_both_actions_unspent() -> None:
    state = new()
    give(state, 0, RIBEYE, pb.SPOT_GRILL, 0, RACK_ROWS, 0, grill_cube=1)  # on the Main Grill
    give(state, 0, PORTOBELLO, pb.SPOT_PREPARE)
    to_move(state, 0)
    ready(state)
    act(state, choose("move", RIBEYE))
    act(state, place(*min(legal_places(state))))
    ribeye = kit.find_recipe(state.players[0], RIBEYE)
    assert kit.grill_placement(ribeye).section == geo.WARMING_RACK and ribeye.moved_this_turn
    assert state.phase == pb.PHASE_ACTION and state.actions_left == 2  # the move is free
    assert "move" not in legal_kinds(state)  # once per tile per turn
    act(state, END)
    assert state.core.seat_to_move == 1
    assert not kit.find_recipe(state.players[0], RIBEYE).moved_this_turn  # reset for its next turn


def test_the_turn_may_end_while_covered_icons_wait() -> None:
    """Serving RIBEYE onto (0, 3) covers a Grill and a Rest icon; stopping there gives up both icons
    and the action left."""
    state = new()
    give(state, 0, RIBEYE, pb.SPOT_REST, 0, 0, 0, grill_cube=3, rest_cube=1)
    give(state, 0, BURGER, pb.SPOT_PREPARE)
    give(state, 0, FILET, pb.SPOT_GRILL, 0, 2, 0, grill_cube=2)
    to_move(state, 0)
    ready(state)
    act(state, choose("serve", RIBEYE))
    act(state, place(0, 0, 3))
    assert state.phase == pb.PHASE_BONUS and state.actions_left == 1
    assert {"skip_bonus", "end_turn"} <= legal_kinds(state)
    events = act(state, END)
    assert state.core.seat_to_move == 1 and not state.bonus_icons
    player = state.players[0]
    assert kit.find_recipe(player, BURGER).spot == pb.SPOT_PREPARE  # the covered Grill was not used
    assert kit.find_recipe(player, FILET).spot == pb.SPOT_GRILL  # nor the covered Rest
    assert player.score == player.served[0].points > 0  # the dish itself stays served
    text = _texts(events)
    assert "seat 0 ends the turn, leaving the covered" in text and "and 1 action unspent" in text


def test_skipping_the_icons_keeps_the_action_left() -> None:
    """SkipBonus and EndTurn differ: giving up the icons leaves the second action to spend."""
    state = new()
    give(state, 0, RIBEYE, pb.SPOT_REST, 0, 0, 0, grill_cube=3, rest_cube=1)
    give(state, 0, BURGER, pb.SPOT_PREPARE)
    give(state, 0, FILET, pb.SPOT_GRILL, 0, 2, 0, grill_cube=2)
    to_move(state, 0)
    ready(state)
    act(state, choose("serve", RIBEYE))
    act(state, place(0, 0, 3))
    act(state, pb.Action(skip_bonus=pb.SkipBonus()))
    assert state.core.seat_to_move == 0 and state.phase == pb.PHASE_ACTION and state.actions_left == 1


def test_no_end_in_the_middle_of_an_action() -> None:
    state = new()
    give(state, 0, RIBEYE, pb.SPOT_PREPARE)
    to_move(state, 0)
    ready(state)
    act(state, choose("grill", RIBEYE))
    assert state.phase == pb.PHASE_PLACE and not is_legal(state, END)  # the tile must go somewhere
    assert LAYOUT.end_turn not in ENGINE.legal_actions(state)
    act(state, place(0, RACK_ROWS, 0))
    assert state.phase == pb.PHASE_KNOB and not is_legal(state, END)  # the knob: turn it or leave it
    act(state, pb.Action(leave_knobs=pb.LeaveKnobs()))
    assert state.phase == pb.PHASE_ACTION and is_legal(state, END)


def test_no_end_before_time_has_passed() -> None:
    """The advance at the start of a turn is not an action: a yellow tile across the line must get
    its knob before the seat may stop."""
    state = new()
    give(state, 1, CORNBREAD, pb.SPOT_GRILL, 0, 2, 3, grill_cube=0)  # across the line
    state.meat_knob, state.veggie_knob = 0, 2
    ready(state)
    start_turn_of(state, 1)
    assert state.phase == pb.PHASE_ADVANCE and not is_legal(state, END)
    act(state, pb.Action(choose_knob=pb.ChooseKnob(side=pb.GRILL_SIDE_VEGGIE)))
    assert state.phase == pb.PHASE_ACTION and is_legal(state, END)


def test_ending_early_still_counts_as_the_final_turn() -> None:
    state = new(4)
    for index, card in enumerate((11, 12, 13)):
        served(state, 0, card, 5, 0, 0, 3 * index)
    give(state, 0, RIBEYE, pb.SPOT_REST, 0, 0, 0, grill_cube=3, rest_cube=1)
    to_move(state, 0)
    ready(state)
    act(state, choose("serve", RIBEYE))
    act(state, place(0, 2, 3))
    assert state.end_trigger_seat == 0 and state.core.seat_to_move == 0 and state.actions_left == 1
    act(state, END)  # the trigger seat stops with an action unspent
    for seat in (1, 2, 3):
        assert state.core.seat_to_move == seat and not state.core.game_over
        act(state, END)  # each final turn ends at once
    assert state.core.game_over and state.end_reason == pb.END_REASON_DISHES_SERVED


def test_score_tokens_never_run_out() -> None:
    """The printed 107 points of tokens do not limit the game: a dish scores in full past them."""
    state = new()
    served(state, 1, 11, 60, 0, 0, 0)
    served(state, 2, 12, 50, 0, 0, 3)
    give(state, 0, RIBEYE, pb.SPOT_REST, 0, 0, 0, grill_cube=3, rest_cube=1)
    to_move(state, 0)
    ready(state)
    points = kit.dish_points(kit.find_recipe(state.players[0], RIBEYE))
    assert points > 0 and sum(p.score for p in state.players) == 110
    act(state, choose("serve", RIBEYE))
    act(state, place(*min(legal_places(state))))
    assert state.players[0].score == points and sum(p.score for p in state.players) == 110 + points


def _cubes(state: Any) -> int:
    """Cubes on every recipe card in play: one per track in use, one per covered bonus square."""
    total = 0
    for player in state.players:
        for rip in player.recipes:
            total += 1 + rip.season_cubes + rip.sauce_cubes + (rip.grill_cube >= 0) + (rip.rest_cube >= 0)
    return total


def _fill_boards(state: Any) -> None:
    """Every seat's Prepare and Rest areas filled with seasoned and sauced recipes (the Portobello,
    with a Season square left, stays for seat 0 to season)."""
    pool = [r.id for r in RECIPES if r.id != PORTOBELLO]
    for seat in range(state.core.num_players):
        for spot, by_offset, occupied in (
            (pb.SPOT_REST, geo.REST_BY_OFFSET, "rest_squares"),
            (pb.SPOT_PREPARE, geo.PREPARE_BY_OFFSET, "prepare_squares"),
        ):
            for card in list(pool):
                taken = getattr(state.players[seat], occupied)
                free = [o for o, p in sorted(by_offset[card].items()) if not p.mask & taken]
                if not free:
                    continue
                rotation, rest = divmod(free[0], LAYOUT.place_rows * LAYOUT.place_cols)
                row, col = divmod(rest, LAYOUT.place_cols)
                recipe = RECIPES[card]
                if spot == pb.SPOT_REST:
                    give(state, seat, card, spot, rotation, row, col, season=recipe.season, sauce=recipe.sauce)
                else:
                    give(state, seat, card, spot, rotation, row, col, season=recipe.season)
                pool.remove(card)
                kit.settle_squares(state)


def test_cubes_never_run_out() -> None:
    """The printed 50 cubes do not limit the game: with more on the cards, a Season still adds one."""
    state = new(5)
    give(state, 0, PORTOBELLO, pb.SPOT_PREPARE)
    kit.settle_squares(state)
    _fill_boards(state)
    to_move(state, 0)
    ready(state)
    before = _cubes(state)
    assert before > 50
    act(state, choose("season", PORTOBELLO))
    assert _cubes(state) == before + 1
