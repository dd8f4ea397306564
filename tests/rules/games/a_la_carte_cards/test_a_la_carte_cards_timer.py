"""Scenario tests: "when the timer runs out, the game is over", as rounds or as wall-clock minutes."""

from __future__ import annotations

import pytest

from services.kit.errors import GameError
from services.rules.games.a_la_carte_cards import ENGINE
from services.rules.games.a_la_carte_cards.content import CONTENT, LAYOUT
from sizzle.common.v1 import common_pb2
from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb
from tests.rules.games.a_la_carte_cards.a_la_carte_cards_positions import counts, position, results


def _play_turn(state: pb.State) -> None:
    """Draws, then serves nothing (or stops serving) and discards: the last legal id each time."""
    seat = state.core.seat_to_move
    ENGINE.apply(state, seat, LAYOUT.draw_from_deck)
    while not state.core.game_over and state.core.seat_to_move == seat:
        ENGINE.apply(state, seat, ENGINE.legal_actions(state)[-1])


def test_round_timer_is_the_default_and_its_range_is_content() -> None:
    options = {o.name: o for o in ENGINE.spec.options}
    assert options["rounds"].default == str(CONTENT.default_rounds)
    assert options["rounds"].allowed[0] == str(CONTENT.min_rounds)
    assert options["rounds"].allowed[-1] == str(CONTENT.max_rounds)
    assert options["minutes"].default == "" and not options["minutes"].allowed
    state = ENGINE.new_game(3, {}, seed=2)
    assert state.rounds_limit == CONTENT.default_rounds and state.clock_minutes == 0
    assert ENGINE.clock_limit_seconds(state) is None


def test_round_timer_ends_the_game_after_every_seat_played_the_last_round() -> None:
    state = ENGINE.new_game(4, {"rounds": "3"}, seed=9)
    turns = [0] * 4
    while not state.core.game_over:
        turns[state.core.seat_to_move] += 1
        _play_turn(state)
    assert turns == [3, 3, 3, 3]  # everyone gets the same number of turns
    assert state.end_reason == pb.END_REASON_ROUNDS and state.round == 3
    assert state.core.seat_to_move == -1 and ENGINE.legal_actions(state) == []


def test_round_timer_does_not_stop_before_the_last_seat() -> None:
    state = position(["AAMMDD", "AAAMMD", "AMDDDD"], pile="M", seat=1, round_=2, rounds_limit=2)
    _play_turn(state)
    assert not state.core.game_over and state.core.seat_to_move == 2
    _play_turn(state)
    assert state.core.game_over


def test_clock_timer_sets_a_deadline_for_the_match_service() -> None:
    state = ENGINE.new_game(3, {"minutes": "7.5"}, seed=2)
    assert state.clock_minutes == 7.5
    assert ENGINE.clock_limit_seconds(state) == 450.0
    assert state.rounds_limit == CONTENT.clock_safety_rounds  # the rounds option is off


def test_clock_running_out_between_turns_ends_the_game_and_tallies_hands() -> None:
    state = position(["AAMMDD", "AAAMMD", "AMDDDD"], pile="M", seat=1, clock_minutes=10)
    events = ENGINE.end_by_clock(state)
    assert state.core.game_over and state.end_reason == pb.END_REASON_CLOCK
    assert "clock ran out" in events[0].text
    assert [r.score for r in results(state)] == [2, 2, 1]
    with pytest.raises(GameError) as refused:
        ENGINE.end_by_clock(state)
    assert refused.value.reason == common_pb2.ERROR_REASON_GAME_OVER


def test_clock_running_out_mid_turn_discards_the_card_the_hand_misses_least() -> None:
    # Seat 0 drew a seventh card (a dessert): A A M M D D D. Dropping a dessert keeps two classic meals.
    state = position(["AAMMDDD", "AAAMMD"], pile="M", seat=0, phase=pb.PHASE_DISCARD, clock_minutes=5)
    events = ENGINE.end_by_clock(state)
    assert list(state.players[0].hand) == counts("AAMMDD")
    assert state.discard_pile[-1] == pb.COURSE_DESSERT
    assert "mid-turn" in events[0].text
    assert [r.score for r in results(state)] == [2, 2]
    ENGINE.check_invariants(state)


def test_clock_running_out_while_serving_restocks_then_discards_the_card_missed_least() -> None:
    # Seat 0 drew to A A M M D D D and served a Classic meal: A M D D left; the clock rings.
    state = position(
        ["AMDD", "AAAMMD"], pile="M", seat=0, phase=pb.PHASE_SERVE, clock_minutes=5, deck_top="MAA",
        served=[[1, 0], [0, 0]], served_this_turn=1,
    )
    events = ENGINE.end_by_clock(state)
    # Restock: A, A, M -> A A A M M D D. Dropping an appetizer or a dessert keeps two dishes; the
    # first course in content order goes.
    assert list(state.players[0].hand) == counts("AAMMDD")
    assert list(state.discard_pile) == [pb.COURSE_MAIN_COURSE, pb.COURSE_APPETIZER]
    assert any("stops serving" in e.text for e in events)
    assert state.end_reason == pb.END_REASON_CLOCK
    assert [r.score for r in results(state)] == [1 + 2, 2]
    ENGINE.check_invariants(state)


def test_a_round_timed_game_has_no_clock_to_run_out() -> None:
    state = ENGINE.new_game(2, {"rounds": "5"}, seed=2)
    with pytest.raises(GameError) as refused:
        ENGINE.end_by_clock(state)
    assert refused.value.reason == common_pb2.ERROR_REASON_ILLEGAL_ACTION
    assert not state.core.game_over


def test_a_clock_game_the_server_never_stops_ends_at_the_safety_limit() -> None:
    last = CONTENT.clock_safety_rounds
    state = position(["AAMMDD", "AAAMMD"], pile="M", seat=1, clock_minutes=5, round_=last, rounds_limit=last)
    events = ENGINE.apply(state, 1, LAYOUT.draw_from_deck) + ENGINE.apply(state, 1, LAYOUT.discard_base)
    assert state.core.game_over and state.end_reason == pb.END_REASON_ROUNDS
    assert any("safety limit" in e.text for e in events)


@pytest.mark.parametrize("minutes", ["0", "-3", "soon", "nan", "inf"])
def test_minutes_must_be_a_positive_number(minutes: str) -> None:
    with pytest.raises(GameError) as refused:
        ENGINE.new_game(2, {"minutes": minutes}, seed=1)
    assert refused.value.reason == common_pb2.ERROR_REASON_INVALID_OPTION


def test_rounds_outside_the_range_are_refused() -> None:
    with pytest.raises(GameError) as refused:
        ENGINE.new_game(2, {"rounds": str(CONTENT.max_rounds + 1)}, seed=1)
    assert refused.value.reason == common_pb2.ERROR_REASON_INVALID_OPTION
