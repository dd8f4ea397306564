"""Scenario tests: setup, the draw, the discard, the reshuffle (rulebook "How to play")."""

from __future__ import annotations

import pytest

from services.kit.errors import GameError
from services.rules.games.a_la_carte_cards import ENGINE
from services.rules.games.a_la_carte_cards.content import CONTENT, LAYOUT
from sizzle.common.v1 import common_pb2
from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb
from tests.rules.games.a_la_carte_cards.a_la_carte_cards_positions import COUNTS, counts, courses, position

A, M, D = (LAYOUT.discard_base + k for k in range(3))


def test_deck_is_shuffled_by_course_and_six_dealt_to_each_player() -> None:
    for n in range(CONTENT.min_players, CONTENT.max_players + 1):
        state = ENGINE.new_game(n, {}, seed=n)
        assert [sum(p.hand) for p in state.players] == [CONTENT.hand_size] * n
        assert len(state.discard_pile) == CONTENT.discard_pile_at_setup
        assert len(state.deck) == sum(COUNTS) - n * CONTENT.hand_size - 1
        ENGINE.check_invariants(state)  # every card of the content deck is somewhere, once


def test_first_player_starts_by_drawing() -> None:
    state = ENGINE.new_game(3, {}, seed=1)
    assert state.core.seat_to_move == 0 and state.phase == pb.PHASE_DRAW and state.round == 1
    assert ENGINE.legal_actions(state) == [LAYOUT.draw_from_deck, LAYOUT.take_discard]


def test_draw_from_deck_takes_its_top_card_in_secret() -> None:
    state = position(["AAMMDD", "AAAMMD"], pile="M", deck_top="D")
    events = ENGINE.apply(state, 0, LAYOUT.draw_from_deck)
    assert list(state.players[0].hand) == counts("AAMMDDD")
    assert list(state.players[0].known) == [0, 0, 0]  # nobody saw what was drawn
    assert "Dessert" not in events[-1].text and "Dessert" in events[-1].secret_text
    assert events[-1].secret_seat == 0
    assert state.phase == pb.PHASE_SERVE and state.core.seat_to_move == 0


def test_take_discard_takes_the_top_card_for_everyone_to_see() -> None:
    state = position(["AAMMDD", "AAAMMD"], pile="AD")
    events = ENGINE.apply(state, 0, pb.Action(take_discard=pb.TakeDiscard()))
    assert list(state.players[0].hand) == counts("AAMMDDD")
    assert list(state.players[0].known) == counts("D")
    assert list(state.discard_pile) == courses("A")
    assert "Dessert" in events[-1].text
    # The other seat's view shows the known card.
    assert list(ENGINE.view(state, 1).players[0].known) == counts("D")


def test_after_taking_a_card_one_must_be_discarded() -> None:
    state = position(["AAAAAA", "MMMDDD"], pile="D")
    ENGINE.apply(state, 0, LAYOUT.take_discard)
    assert ENGINE.legal_actions(state) == [A, D]  # only courses in hand; no second draw
    with pytest.raises(GameError) as refused:
        ENGINE.apply(state, 0, LAYOUT.draw_from_deck)
    assert refused.value.reason == common_pb2.ERROR_REASON_ILLEGAL_ACTION


def test_discard_goes_on_top_of_the_pile_and_passes_the_turn() -> None:
    state = position(["AAMMDD", "AAAMMD"], pile="M", deck_top="A")
    ENGINE.apply(state, 0, LAYOUT.draw_from_deck)
    ENGINE.apply(state, 0, pb.Action(discard=pb.Discard(course=pb.COURSE_MAIN_COURSE)))
    assert list(state.players[0].hand) == counts("AAAMDD")
    assert list(state.discard_pile) == courses("MM")
    assert state.core.seat_to_move == 1 and state.phase == pb.PHASE_DRAW


def test_the_card_just_taken_may_be_discarded_again() -> None:
    # The rulebook does not forbid it: taking a dessert and discarding a dessert leaves the hand as it was.
    state = position(["AAMMDD", "AAAMMD"], pile="D")
    ENGINE.apply(state, 0, LAYOUT.take_discard)
    assert D in ENGINE.legal_actions(state)
    ENGINE.apply(state, 0, D)
    assert list(state.players[0].hand) == counts("AAMMDD")
    assert list(state.players[0].known) == [0, 0, 0]
    assert list(state.discard_pile) == courses("D")


def test_discarding_a_known_card_makes_it_unknown_again() -> None:
    state = position(["AAAMDD", "AMMMDD"], pile="A", seat=1, known=["", "MD"])
    ENGINE.apply(state, 1, LAYOUT.take_discard)
    assert list(state.players[1].known) == counts("AMD")
    ENGINE.apply(state, 1, M)
    # Seat 1 still holds two mains, but everyone only knows of the appetizer and the dessert.
    assert list(state.players[1].known) == counts("AD")


def test_deck_running_out_shuffles_the_discard_pile_except_its_top_into_a_new_deck() -> None:
    state = position(["AAMMDD", "AAAMMD"], pile="AMD")
    # Move every deck card onto the pile (below the top), as if the game had gone on for long.
    below = list(state.deck)
    del state.deck[:]
    state.discard_pile[:] = below + list(state.discard_pile)
    top = state.discard_pile[-1]
    events = ENGINE.apply(state, 0, LAYOUT.draw_from_deck)
    assert "shuffled into a new deck" in events[0].text
    assert list(state.discard_pile) == [top]
    assert len(state.deck) == len(below) + 2 - 1  # the whole pile but its top, less the card drawn
    ENGINE.check_invariants(state)


def test_an_empty_deck_with_only_the_top_card_left_cannot_happen() -> None:
    # Content holds enough cards that the deck and the pile below its top always feed a draw.
    assert sum(COUNTS) >= CONTENT.max_players * CONTENT.hand_size + CONTENT.discard_pile_at_setup + 1


def test_actions_are_refused_out_of_turn() -> None:
    state = position(["AAMMDD", "AAAMMD"], pile="M")
    with pytest.raises(GameError) as refused:
        ENGINE.apply(state, 1, LAYOUT.draw_from_deck)
    assert refused.value.reason == common_pb2.ERROR_REASON_NOT_YOUR_TURN


def test_action_ids_round_trip_and_read_in_plain_words() -> None:
    state = position(["AAMMDD", "AAAMMD"], pile="D")
    for action_id in range(LAYOUT.size):
        action = ENGINE.id_to_action(state, 0, action_id)
        assert ENGINE.action_to_id(state, 0, action) == action_id
    take = ENGINE.id_to_action(state, 0, LAYOUT.take_discard)
    assert ENGINE.describe_action(state, 0, take) == "take a Dessert from the discard pile"
    assert ENGINE.describe_action(state, 0, ENGINE.id_to_action(state, 0, A)) == "discard an Appetizer"
    assert ENGINE.action_to_id(state, 0, pb.Action(discard=pb.Discard())) is None
