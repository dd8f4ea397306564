"""The end: a fourth served dish, one more turn for every other player, the tie breaks, the coolers
running out, and turns where nothing can be done."""

from __future__ import annotations

from typing import Any

from services.rules.games.license_to_grill.content import CONTENT
from tests.rules.games.license_to_grill.ltg_positions import (
    BURGER,
    ENGINE,
    FILET,
    HALLOUMI,
    PORTERHOUSE,
    PORTOBELLO,
    RIBEYE,
    SHRIMP,
    act,
    choose,
    empty_cooler,
    finish_turn,
    give,
    new,
    pb,
    place,
    ready,
    served,
    to_move,
)


def _game_over(state: Any) -> Any:
    state.core.game_over = True
    state.core.seat_to_move = -1
    state.end_reason = pb.END_REASON_DISHES_SERVED
    return ready(state)


def _outcome(state: Any) -> Any:
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    return outcome


def _results(state: Any) -> list[tuple[int, bool]]:
    return [(r.rank, r.winner) for r in _outcome(state).results]


def test_fourth_dish_gives_every_other_player_one_final_turn() -> None:
    state = new(4)
    for index, card in enumerate((11, 12, 13)):
        served(state, 0, card, 5, 0, 0, 3 * index)
    give(state, 0, RIBEYE, pb.SPOT_REST, 0, 0, 0, grill_cube=3, rest_cube=1)
    to_move(state, 0)
    ready(state)
    act(state, choose("serve", RIBEYE))
    events = act(state, place(0, 2, 3))
    assert len(state.players[0].served) == CONTENT.dishes_to_end
    assert state.end_trigger_seat == 0 and any("one more turn" in e.text for e in events)
    assert state.core.seat_to_move == 0 and state.actions_left == 1  # the player finishes the turn
    finish_turn(state)
    assert state.final_turns_left == 3
    for seat in (1, 2, 3):
        assert state.core.seat_to_move == seat and not state.core.game_over
        finish_turn(state)
    assert state.core.game_over and state.end_reason == pb.END_REASON_DISHES_SERVED
    assert ENGINE.legal_actions(state) == []


def test_a_later_fourth_dish_does_not_extend_the_last_round() -> None:
    state = new(3)
    state.end_trigger_seat = 0
    state.final_turns_left = 1  # seat 2 takes the very last turn
    for index, card in enumerate((11, 12, 13)):
        served(state, 2, card, 5, 0, 0, 3 * index)
    give(state, 2, FILET, pb.SPOT_REST, 0, 0, 0, grill_cube=2, rest_cube=0)
    to_move(state, 2, actions_left=1)
    ready(state)
    act(state, choose("serve", FILET))
    act(state, place(0, 3, 3))
    assert state.core.game_over and state.end_trigger_seat == 0


def test_highest_score_wins() -> None:
    state = new(3)
    served(state, 0, RIBEYE, 9, 0, 0, 0)
    served(state, 1, BURGER, 7, 0, 0, 2)
    served(state, 2, FILET, 8, 0, 0, 4)
    _game_over(state)
    assert _results(state) == [(1, True), (3, False), (2, False)]


def test_tie_broken_by_most_recipes_served() -> None:
    state = new(3)
    served(state, 0, RIBEYE, 9, 0, 0, 0)
    served(state, 1, FILET, 4, 0, 0, 2)
    served(state, 1, SHRIMP, 5, 0, 0, 4)
    served(state, 2, BURGER, 1, 0, 2, 0)
    _game_over(state)
    assert _results(state) == [(2, False), (1, True), (3, False)]


def test_tie_then_broken_by_the_largest_single_recipe() -> None:
    state = new(3)
    served(state, 0, PORTERHOUSE, 6, 0, 0, 0)  # 5 squares
    served(state, 0, FILET, 3, 0, 0, 2)
    served(state, 1, RIBEYE, 6, 0, 0, 4)  # 4 squares
    served(state, 1, SHRIMP, 3, 0, 0, 6)
    _game_over(state)
    assert _results(state) == [(1, True), (2, False), (3, False)]


def test_full_tie_shares_the_win() -> None:
    state = new(3)
    served(state, 0, RIBEYE, 6, 0, 0, 0)
    served(state, 1, PORTOBELLO, 6, 0, 0, 2)  # also 4 squares
    served(state, 2, HALLOUMI, 2, 0, 0, 4)
    _game_over(state)
    assert _results(state) == [(1, True), (1, True), (3, False)]
    outcome = _outcome(state)
    assert [r.score for r in outcome.results] == [6, 6, 2]


def test_game_ends_when_the_coolers_are_empty_and_nothing_is_left_to_cook() -> None:
    state = new(3)
    empty_cooler(state)
    state.ruined.extend([*state.meat_on_show, *state.veggie_on_show])
    del state.meat_on_show[:]
    del state.veggie_on_show[:]
    give(state, 0, RIBEYE, pb.SPOT_REST, 0, 0, 0, grill_cube=3, rest_cube=1)
    to_move(state, 0, actions_left=1)
    ready(state)
    act(state, choose("serve", RIBEYE))
    act(state, place(0, 0, 0))
    assert state.core.game_over and state.end_reason == pb.END_REASON_COOLERS_EMPTY
    assert _outcome(state).results[0].winner


def test_a_seat_that_can_do_nothing_passes() -> None:
    state = new(3)
    empty_cooler(state)
    state.ruined.extend([*state.meat_on_show, *state.veggie_on_show])
    del state.meat_on_show[:]
    del state.veggie_on_show[:]
    give(state, 2, PORTOBELLO, pb.SPOT_PREPARE)  # seat 2 still has something to cook
    to_move(state, 0, pb.PHASE_FREE_MOVES, actions_left=0)
    ready(state)
    events = act(state, pb.Action(end_turn=pb.EndTurn()))
    assert state.core.seat_to_move == 2 and not state.core.game_over
    assert any("seat 1 can do nothing and passes" in e.text for e in events)


def test_end_turn_is_offered_when_only_free_moves_are_left() -> None:
    state = new(3)
    empty_cooler(state)
    state.ruined.extend([*state.meat_on_show, *state.veggie_on_show])
    del state.meat_on_show[:]
    del state.veggie_on_show[:]
    give(state, 0, RIBEYE, pb.SPOT_GRILL, 0, 2, 0, grill_cube=0, grilled_this_turn=True)  # no Rest yet
    to_move(state, 0, actions_left=1)
    ready(state)
    kinds = {ENGINE.id_to_action(state, 0, a).WhichOneof("kind") for a in ENGINE.legal_actions(state)}
    assert kinds == {"move", "end_turn"}
    act(state, pb.Action(end_turn=pb.EndTurn()))
    assert state.core.game_over is False and state.core.seat_to_move == 0  # seats 1 and 2 pass
