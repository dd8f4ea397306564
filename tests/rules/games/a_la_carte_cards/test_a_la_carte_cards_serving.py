"""Scenario tests of round two's rulings (RULINGS.md, "A la carte: the card game"): serving complete
dishes, the restock, the kitchen running out, the final score of dishes served plus dishes in hand."""

from __future__ import annotations

import pytest

from services.kit.errors import GameError
from services.rules.games.a_la_carte_cards import ENGINE, rules
from services.rules.games.a_la_carte_cards.content import CONTENT, LAYOUT
from services.rules.random_source import RandomSource, seed_random
from sizzle.common.v1 import common_pb2
from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb
from tests.rules.games.a_la_carte_cards.a_la_carte_cards_positions import (
    BREAK,
    CLASSIC,
    counts,
    position,
    results,
)

A, M, D = (LAYOUT.discard_base + k for k in range(3))
SERVE_CLASSIC = LAYOUT.serve_base + CLASSIC
SERVE_BREAK = LAYOUT.serve_base + BREAK


def _serve(recipe: int) -> pb.Action:
    return pb.Action(serve=pb.Serve(recipe=recipe))


def test_the_rules_are_revision_two() -> None:
    assert ENGINE.rules_revision == 2
    assert ENGINE.rules_version.startswith("2.")


def test_action_ids_layout() -> None:
    assert (LAYOUT.draw_from_deck, LAYOUT.take_discard) == (0, 1)
    assert (SERVE_CLASSIC, SERVE_BREAK, LAYOUT.done_serving) == (2, 3, 4)
    assert (A, M, D) == (5, 6, 7) and LAYOUT.size == ENGINE.spec.num_distinct_actions == 8
    state = position(["AAMMDD", "AAAMMD"], pile="D")
    assert ENGINE.describe_action(state, 0, ENGINE.id_to_action(state, 0, SERVE_CLASSIC)) == "serve a Classic meal"
    assert ENGINE.describe_action(state, 0, ENGINE.id_to_action(state, 0, SERVE_BREAK)) == "serve a Break the rules"
    assert ENGINE.describe_action(state, 0, ENGINE.id_to_action(state, 0, LAYOUT.done_serving)) == "done serving"
    assert ENGINE.action_to_id(state, 0, _serve(len(CONTENT.recipes))) is None
    assert ENGINE.action_to_id(state, 0, _serve(-1)) is None


def test_the_serve_step_follows_every_draw_dish_or_not() -> None:
    # No complete dish after the draw: the seat may only discard (serving is not offered).
    state = position(["AAAAAA", "MMMDDD"], pile="D", deck_top="D")
    ENGINE.apply(state, 0, LAYOUT.draw_from_deck)
    assert state.phase == pb.PHASE_SERVE
    assert ENGINE.legal_actions(state) == [A, D]
    # With a complete dish it may serve either dish it holds, or serve nothing and discard at once.
    state = position(["AAAMMD", "MMMDDD"], pile="D")
    ENGINE.apply(state, 0, LAYOUT.take_discard)
    assert state.phase == pb.PHASE_SERVE
    assert ENGINE.legal_actions(state) == [SERVE_CLASSIC, SERVE_BREAK, A, M, D]
    # The step itself tells the others nothing: both views show the serve step.
    assert ENGINE.view(state, 1).phase == pb.PHASE_SERVE


def test_serving_nothing_and_discarding_ends_the_turn_without_a_restock() -> None:
    state = position(["AAAMMD", "MMMDDD"], pile="D")
    deck_before = len(state.deck)
    ENGINE.apply(state, 0, LAYOUT.take_discard)
    events = ENGINE.apply(state, 0, A)
    assert list(state.players[0].hand) == counts("AAMMDD")
    assert len(state.deck) == deck_before and list(state.players[0].served) == [0, 0]
    assert state.core.seat_to_move == 1 and state.phase == pb.PHASE_DRAW
    assert "serves nothing" in events[-1].text


def test_serving_a_classic_meal_lays_it_face_up_for_a_point() -> None:
    state = position(["AMDDDD", "MMMDDD"], pile="D", deck_top="M")
    ENGINE.apply(state, 0, LAYOUT.draw_from_deck)
    events = ENGINE.apply(state, 0, _serve(CLASSIC))
    assert list(state.players[0].hand) == counts("DDDM")
    assert list(state.players[0].served) == [1, 0] and state.dishes_served_this_turn == 1
    assert "serves a Classic meal (Appetizer, Main course, Dessert)" in events[-1].text
    # Served dishes are public: every seat and a spectator see them.
    for seat in (-1, 0, 1):
        view = ENGINE.view(state, seat)
        assert list(view.players[0].served) == [1, 0] and view.players[0].served_points == 1
    assert ENGINE.view(state, 0).players[0].score == 1  # one served, no dish left in hand
    assert ENGINE.view(state, 1).players[0].score == 0  # the others see no hand, so no total


def test_break_the_rules_serves_two_appetizers_and_a_main_course() -> None:
    state = position(["AAMDDD", "MMMDDD"], pile="D")
    ENGINE.apply(state, 0, LAYOUT.take_discard)
    ENGINE.apply(state, 0, SERVE_BREAK)
    assert list(state.players[0].hand) == counts("DDDD")
    assert list(state.players[0].served) == [0, 1]


def test_after_a_dish_the_seat_serves_more_or_stops_and_cannot_discard_before_the_restock() -> None:
    state = position(["AAAMMD", "MMMDDD"], pile="D")
    ENGINE.apply(state, 0, LAYOUT.take_discard)  # A A A M M D D
    ENGINE.apply(state, 0, SERVE_CLASSIC)  # A A M D left: both dishes still possible
    assert ENGINE.legal_actions(state) == [SERVE_CLASSIC, SERVE_BREAK, LAYOUT.done_serving]
    with pytest.raises(GameError) as refused:
        ENGINE.apply(state, 0, A)
    assert refused.value.reason == common_pb2.ERROR_REASON_ILLEGAL_ACTION
    ENGINE.apply(state, 0, SERVE_BREAK)  # D left
    assert ENGINE.legal_actions(state) == [LAYOUT.done_serving]
    assert state.phase == pb.PHASE_SERVE  # serving never ends by itself


def test_a_dish_the_hand_does_not_hold_cannot_be_served() -> None:
    state = position(["AAMDDD", "MMMDDD"], pile="D", deck_top="D")
    ENGINE.apply(state, 0, LAYOUT.draw_from_deck)  # A A M D D D D: a Classic meal or Break the rules
    ENGINE.apply(state, 0, SERVE_CLASSIC)  # A D D D left: nothing
    with pytest.raises(GameError) as refused:
        ENGINE.apply(state, 0, _serve(BREAK))
    assert refused.value.reason == common_pb2.ERROR_REASON_ILLEGAL_ACTION
    with pytest.raises(GameError) as refused:
        ENGINE.apply(state, 0, _serve(7))
    assert refused.value.reason == common_pb2.ERROR_REASON_ILLEGAL_ACTION
    with pytest.raises(GameError):
        ENGINE.apply(state, 0, LAYOUT.draw_from_deck)


def test_done_serving_restocks_three_cards_per_dish_then_the_seat_discards() -> None:
    # Deck top last: the restock draws M, D, A, A, D, M in that order.
    state = position(["AAAMMD", "MMMDDD"], pile="D", deck_top="MDAADM")
    ENGINE.apply(state, 0, LAYOUT.take_discard)
    ENGINE.apply(state, 0, SERVE_CLASSIC)
    ENGINE.apply(state, 0, SERVE_BREAK)
    events = ENGINE.apply(state, 0, LAYOUT.done_serving)
    assert list(state.players[0].hand) == counts("D" + "MDAADM")
    assert sum(state.players[0].hand) == CONTENT.hand_size + 1
    assert state.phase == pb.PHASE_DISCARD
    assert ENGINE.legal_actions(state) == [A, M, D]
    restock = events[-1]
    assert restock.text == "seat 0 restocks 6 card(s) from the deck"
    assert restock.secret_seat == 0 and "Main course, Dessert, Appetizer" in restock.secret_text
    # The restocked cards are nobody's knowledge: the other seat sees a hand size only.
    view = ENGINE.view(state, 1)
    assert view.players[0].hand_size == 7 and list(view.players[0].known) == [0, 0, 0]
    ENGINE.apply(state, 0, D)
    assert state.core.seat_to_move == 1 and state.dishes_served_this_turn == 0
    assert list(state.players[0].served) == [1, 1]


def test_serving_a_known_card_makes_the_others_forget_it() -> None:
    state = position(["AAMDDD", "MMMDDD"], pile="M", known=["AD", ""])
    ENGINE.apply(state, 0, LAYOUT.take_discard)
    assert list(state.players[0].known) == counts("AMD")
    ENGINE.apply(state, 0, SERVE_CLASSIC)
    assert list(state.players[0].known) == [0, 0, 0]


def test_the_restock_shuffles_the_discard_pile_below_its_top_when_the_deck_runs_out() -> None:
    state = position(["AMMDDD", "MMMDDD"], pile="A", deck_top="")
    # Every deck card but one goes onto the pile below its top.
    moved = list(state.deck[1:])
    del state.deck[1:]
    state.discard_pile[:] = moved + list(state.discard_pile)
    ENGINE.check_invariants(state)
    ENGINE.apply(state, 0, LAYOUT.take_discard)  # the pile's top: A; the pile keeps its new top
    top = state.discard_pile[-1]
    ENGINE.apply(state, 0, SERVE_CLASSIC)
    events = ENGINE.apply(state, 0, LAYOUT.done_serving)
    assert any("shuffled into a new deck" in e.text for e in events)
    assert list(state.discard_pile) == [top] and state.phase == pb.PHASE_DISCARD
    assert sum(state.players[0].hand) == CONTENT.hand_size + 1
    ENGINE.check_invariants(state)


def small_deck(monkeypatch: pytest.MonkeyPatch, appetizers: int) -> list[int]:
    """A smaller deck than the content's (16 mains, 12 desserts), as a publisher's could be: the
    content's own deck holds too few mains to ever serve the kitchen empty (docs/rules)."""
    deck_counts = [appetizers, 16, 12]
    monkeypatch.setattr(rules, "COUNTS", tuple(deck_counts))
    return deck_counts


def test_the_game_ends_at_once_when_a_restock_finds_no_card_left(monkeypatch: pytest.MonkeyPatch) -> None:
    # One card in the deck, only the top card on the pile: every other card is served or in hand.
    state = position(["AAMMDD", "AAMDDD"], pile="M", deck="A", rest_served_by=1,
                     deck_counts=small_deck(monkeypatch, 22))
    served_by_seat_1 = sum(state.players[1].served)
    ENGINE.apply(state, 0, LAYOUT.draw_from_deck)  # the last deck card: A A A M M D D
    assert ENGINE.legal_actions(state)[:2] == [SERVE_CLASSIC, SERVE_BREAK]
    ENGINE.apply(state, 0, SERVE_CLASSIC)
    events = ENGINE.apply(state, 0, LAYOUT.done_serving)
    assert state.core.game_over and state.end_reason == pb.END_REASON_KITCHEN_EMPTY
    assert "the kitchen ran out of cards" in events[1].text
    assert list(state.players[0].hand) == counts("AAMD")  # no card came: the hand stays short
    # The final score: dishes served plus the best dishes still in hand.
    assert [r.score for r in results(state)] == [1 + 1, served_by_seat_1 + 1]
    ENGINE.check_invariants(state)


def test_with_no_card_to_draw_from_the_deck_the_seat_takes_the_top_of_the_pile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The deck is empty and the pile holds only its top card: drawing from the deck is impossible,
    # but a card is left, so the game goes on.
    state = position(["AAMMDD", "AAMDDD"], pile="M", deck="", rest_served_by=1,
                     deck_counts=small_deck(monkeypatch, 21))
    assert ENGINE.legal_actions(state) == [LAYOUT.take_discard]
    with pytest.raises(GameError) as refused:
        ENGINE.apply(state, 0, LAYOUT.draw_from_deck)
    assert refused.value.reason == common_pb2.ERROR_REASON_ILLEGAL_ACTION
    ENGINE.apply(state, 0, LAYOUT.take_discard)
    assert not state.core.game_over and list(state.discard_pile) == []


def test_the_final_score_is_dishes_served_plus_the_best_dishes_in_hand() -> None:
    # Last turn: seat 1 holds two dishes in hand and one served; seat 0 three served and nothing.
    state = position(
        ["MMMDDD", "AAMMDD"], pile="M", seat=1, round_=2, rounds_limit=2, served=[[2, 1], [0, 1]],
    )
    ENGINE.apply(state, 1, LAYOUT.take_discard)
    ENGINE.apply(state, 1, M)  # serves nothing, keeps A A M M D D
    assert state.core.game_over and state.end_reason == pb.END_REASON_ROUNDS
    assert [(r.score, r.rank, r.winner) for r in results(state)] == [(3, 1, True), (3, 1, True)]


def test_more_served_dishes_win_outright() -> None:
    state = position(["MMMDDD", "AAMMDD"], pile="M", seat=1, round_=2, rounds_limit=2, served=[[3, 1], [0, 1]])
    ENGINE.apply(state, 1, LAYOUT.take_discard)
    ENGINE.apply(state, 1, M)
    assert [(r.score, r.rank, r.winner) for r in results(state)] == [(4, 1, True), (3, 2, False)]


def test_invariants_catch_a_served_dish_that_was_never_dealt() -> None:
    state = position(["AAMMDD", "AAMDDD"], pile="M")
    state.players[0].served[0] += 1  # three cards out of nowhere
    with pytest.raises(AssertionError, match="created or lost"):
        ENGINE.check_invariants(state)


def test_resampling_keeps_served_dishes_and_the_seat_to_moves_serve_step() -> None:
    state = position(["AMDD", "AAMMDD"], pile="M", phase=pb.PHASE_SERVE, served=[[1, 0], [0, 2]],
                     served_this_turn=1)
    source = common_pb2.RandomState()
    seed_random(source, 4)
    for seat in (0, 1):
        sample = ENGINE.resample_hidden(state, seat, RandomSource(source))
        ENGINE.check_invariants(sample)
        assert [list(p.served) for p in sample.players] == [[1, 0], [0, 2]]
        assert ENGINE.view(sample, seat) == ENGINE.view(state, seat)

