"""The stalemate (ours): a turn may end at once, so a table where nobody spends an action would never
end; after `stalemate_rounds` rounds in a row of such quiet turns the game ends, ranked as usual."""

from __future__ import annotations

from services.rules.games.license_to_grill import geometry as geo
from services.rules.games.license_to_grill import kitchen as kit
from services.rules.games.license_to_grill.content import CONTENT
from tests.rules.games.license_to_grill.ltg_positions import (
    ENGINE,
    PORTOBELLO,
    RIBEYE,
    act,
    choose,
    give,
    legal_places,
    new,
    pb,
    place,
    ready,
    served,
    to_move,
)

END = pb.Action(end_turn=pb.EndTurn())
RACK_ROWS = CONTENT.grill.warming_rack_rows


def test_a_quiet_turn_is_counted_and_shown() -> None:
    state = new()
    act(state, END)
    assert state.quiet_turns == 1
    assert ENGINE.view(state, state.core.seat_to_move).quiet_turns == 1
    assert "stalemate at" in ENGINE.render(ENGINE.view(state, 0))


def test_a_turn_that_spends_an_action_resets_the_count() -> None:
    state = new()
    state.quiet_turns = 5
    card = state.meat_on_show[0]
    act(state, choose("prepare", card))
    act(state, place(*min(legal_places(state))))
    act(state, END)  # one action spent, one left unspent: not quiet
    assert state.quiet_turns == 0


def test_free_moves_alone_make_a_quiet_turn() -> None:
    state = new()
    give(state, 0, RIBEYE, pb.SPOT_GRILL, 0, RACK_ROWS, 0, grill_cube=1)
    to_move(state, 0)
    ready(state)
    act(state, choose("move", RIBEYE))
    act(state, place(*min(legal_places(state))))
    assert kit.grill_placement(kit.find_recipe(state.players[0], RIBEYE)).section == geo.WARMING_RACK
    act(state, END)
    assert state.quiet_turns == 1


def test_the_stalemate_ends_the_game_ranked_by_score() -> None:
    state = new(3)
    served(state, 2, 11, 9, 0, 0, 0)  # seat 2 leads
    served(state, 1, 12, 4, 0, 0, 4)
    give(state, 1, PORTOBELLO, pb.SPOT_PREPARE)  # something still to cook: no other end applies
    to_move(state, 0)
    state.quiet_turns = CONTENT.stalemate_rounds * 3 - 1
    ready(state)
    events = act(state, END)
    assert state.core.game_over and state.end_reason == pb.END_REASON_STALEMATE
    assert any("stalemate" in e.text for e in events)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and "stalemate" in outcome.reason
    assert {r.seat: r.rank for r in outcome.results} == {2: 1, 1: 2, 0: 3}
    assert [r.seat for r in outcome.results if r.winner] == [2]
    assert not ENGINE.legal_actions(state)
    assert "stalemate" in ENGINE.render(ENGINE.view(state, -1))


def test_one_quiet_turn_short_of_the_limit_plays_on() -> None:
    state = new(4)
    state.quiet_turns = CONTENT.stalemate_rounds * 4 - 2
    act(state, END)
    assert not state.core.game_over and state.quiet_turns == CONTENT.stalemate_rounds * 4 - 1
    assert state.core.seat_to_move == 1


def test_a_table_that_only_ends_turns_ends_in_a_stalemate() -> None:
    state = new(5)
    for _ in range(CONTENT.stalemate_rounds * 5):
        assert not state.core.game_over
        act(state, END)
    assert state.core.game_over and state.end_reason == pb.END_REASON_STALEMATE
    outcome = ENGINE.outcome(state)
    assert outcome is not None and all(r.winner for r in outcome.results)  # nobody scored: a shared win
