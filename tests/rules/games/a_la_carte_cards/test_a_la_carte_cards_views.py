"""Scenario tests: what each seat sees, the observation, the final table and the heuristic bot."""

from __future__ import annotations

import random

import numpy as np

from services.rules.games.a_la_carte_cards import ENGINE
from services.rules.games.a_la_carte_cards.content import LAYOUT
from services.rules.games.a_la_carte_cards.encoding import OBSERVATION_SIZE, unseen_counts
from services.rules.random_source import RandomSource, seed_random
from sizzle.common.v1 import common_pb2
from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb
from tests.rules.games.a_la_carte_cards.a_la_carte_cards_positions import COUNTS, counts, position, results
from workers.bots.heuristic.a_la_carte_cards import ALaCarteCardsHeuristic


def test_a_seat_sees_its_own_hand_but_only_the_size_and_known_cards_of_others() -> None:
    state = position(["AAMMDD", "AAAMMD"], pile="M", known=["", "M"])
    view = ENGINE.view(state, 0)
    assert list(view.players[0].hand) == counts("AAMMDD") and view.players[0].score == 2
    assert not view.players[1].hand and view.players[1].hand_size == 6
    assert list(view.players[1].known) == counts("M")
    # The same seat-0 view whatever seat 1 holds beyond what it was seen taking.
    other = position(["AAMMDD", "AMDDDM"], pile="M", known=["", "M"])
    assert ENGINE.view(other, 0) == view
    assert not ENGINE.view(state, -1).players[0].hand


def test_the_whole_discard_pile_is_public_and_the_deck_only_by_size() -> None:
    state = position(["AAMMDD", "AAAMMD"], pile="ADM")
    view = ENGINE.view(state, 1)
    assert list(view.discard_pile) == [pb.COURSE_APPETIZER, pb.COURSE_DESSERT, pb.COURSE_MAIN_COURSE]
    assert view.deck_size == len(state.deck)
    # Unseen by seat 1: everything but its hand and the pile.
    seen = zip(COUNTS, counts("AAAMMD"), counts("ADM"), strict=True)
    assert unseen_counts(view) == [c - h - p for c, h, p in seen]


def test_every_hand_is_shown_once_the_game_is_over() -> None:
    state = position(["AAMMDD", "AAAMMD"], pile="M", seat=1, round_=1, rounds_limit=1)
    ENGINE.apply(state, 1, LAYOUT.draw_from_deck)
    ENGINE.apply(state, 1, ENGINE.legal_actions(state)[0])
    public = ENGINE.view(state, -1)
    assert [p.score for p in public.players] == [2, results(state)[1].score]
    table = ENGINE.render(public)
    assert "GAME OVER" in table and "rank" in table and "Classic meal x2" in table


def test_resampling_keeps_the_known_cards_of_the_others() -> None:
    state = position(["AAMMDD", "MMMMDD"], pile="A", known=["", "MMMM"])
    source = common_pb2.RandomState()
    seed_random(source, 3)
    for _ in range(20):
        sample = ENGINE.resample_hidden(state, 0, RandomSource(source))
        ENGINE.check_invariants(sample)
        assert list(sample.players[0].hand) == counts("AAMMDD")
        assert sample.players[1].hand[1] >= 4
        assert ENGINE.view(sample, 0) == ENGINE.view(state, 0)


def test_observation_is_computed_from_the_view() -> None:
    state = position(["AAMMDD", "AAAMMD"], pile="M")
    obs = ENGINE.observe(state, 0)
    assert obs.shape == (OBSERVATION_SIZE,) and obs.dtype == np.float32
    assert not np.array_equal(obs, ENGINE.observe(state, 1))


def test_heuristic_takes_the_discard_that_completes_a_dish() -> None:
    bot = ALaCarteCardsHeuristic(random.Random(1))
    # A A A M M D already holds two dishes: another appetizer adds nothing, so it draws from the deck.
    state = position(["AAAMMD", "MMMDDD"], pile="A", rounds_limit=1)
    assert bot.step(ENGINE.view(state, 0), ENGINE.legal_actions(state)) == LAYOUT.draw_from_deck
    # A M M D D D holds one: the appetizer on the pile makes a second classic meal for sure.
    state = position(["AMMDDD", "MMMDDD"], pile="A", rounds_limit=1)
    assert bot.step(ENGINE.view(state, 0), ENGINE.legal_actions(state)) == LAYOUT.take_discard
    ENGINE.apply(state, 0, LAYOUT.take_discard)
    choice = bot.step(ENGINE.view(state, 0), ENGINE.legal_actions(state))
    assert choice == LAYOUT.discard_base + 2  # a dessert: A A M M D D keeps two dishes
