"""Grill Party's stalemate (our rule): the quiet-turn count, and the end after `stalemate_rounds`
rounds in a row with no card played, every seat ranked by cards left."""

from __future__ import annotations

import numpy as np

from services.rules.games.grill_party.content import CONTENT, LAYOUT
from services.rules.games.grill_party.rules import MY_HAND_AT
from services.rules.registry import get_engine
from sizzle.games.grill_party.v1 import grill_party_pb2 as pb

QUIET_AT = MY_HAND_AT + LAYOUT.cards + 3 + 3  # after the phase one-hot and the other turn fields


def quiet_turn(engine, state) -> list:  # type: ignore[no-untyped-def]
    """The seat to move exchanges and stops without playing; returns the turn's events."""
    seat = state.core.seat_to_move
    exchange = next(a for a in engine.legal_actions(state) if a < LAYOUT.play_base)
    engine.apply(state, seat, exchange)
    return list(engine.apply(state, seat, LAYOUT.stop))


def test_a_quiet_turn_is_counted_and_shown() -> None:
    engine = get_engine("grill_party")
    state = engine.new_game(3, None, 5)
    quiet_turn(engine, state)
    assert state.quiet_turns == 1
    view = engine.view(state, state.core.seat_to_move)
    assert view.quiet_turns == 1
    limit = CONTENT.stalemate_rounds * 3
    assert engine.observation(view)[QUIET_AT] == np.float32(1 / limit)


def test_a_turn_that_plays_resets_the_count() -> None:
    engine = get_engine("grill_party")
    for seed in range(200):  # a game whose first seat can play after some exchange
        state = engine.new_game(2, None, seed)
        state.quiet_turns = 7
        seat = state.core.seat_to_move
        for exchange in engine.legal_actions(state):
            trial = pb.State()
            trial.CopyFrom(state)
            engine.apply(trial, seat, exchange)
            plays = [a for a in engine.legal_actions(trial) if LAYOUT.play_base <= a < LAYOUT.stop]
            if plays:
                engine.apply(trial, seat, plays[0])
                engine.apply(trial, seat, LAYOUT.stop)
                assert trial.quiet_turns == 0
                return
    raise AssertionError("no seed let the first seat play a card")


def test_the_stalemate_ends_the_game_ranked_by_cards_left() -> None:
    engine = get_engine("grill_party")
    state = engine.new_game(3, None, 11)
    # seat 2 has played two cards more than the others: fewest cards left, the only winner
    for card in list(state.players[2].deck[:2]):
        state.players[2].deck.remove(card)
        state.players[2].score_pile.append(card)
    state.quiet_turns = CONTENT.stalemate_rounds * 3 - 1
    events = quiet_turn(engine, state)
    assert state.core.game_over and state.core.seat_to_move == -1
    assert state.supergrillmaster == -1
    assert any("stalemate" in event.text for event in events)
    outcome = engine.outcome(state)
    assert outcome is not None and "stalemate" in outcome.reason
    ranks = {result.seat: result.rank for result in outcome.results}
    assert ranks == {2: 1, 0: 2, 1: 2}
    assert [result.seat for result in outcome.results if result.winner] == [2]
    assert not engine.legal_actions(state)


def test_one_quiet_turn_short_of_the_limit_plays_on() -> None:
    engine = get_engine("grill_party")
    state = engine.new_game(2, None, 3)
    state.quiet_turns = CONTENT.stalemate_rounds * 2 - 2
    quiet_turn(engine, state)
    assert not state.core.game_over and state.quiet_turns == CONTENT.stalemate_rounds * 2 - 1
