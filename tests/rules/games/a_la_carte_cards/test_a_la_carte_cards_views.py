"""Scenario tests: what each seat sees, the observation, the final table and the heuristic bot."""

from __future__ import annotations

import random

import numpy as np

from services.rules.games.a_la_carte_cards import ENGINE, encoding
from services.rules.games.a_la_carte_cards.content import CONTENT, COURSES, DECK_SIZE, LAYOUT
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
    state = position(["AAMMDD", "AAAMMD"], pile="M", seat=1, round_=1, rounds_limit=1, served=[[0, 1], [0, 0]])
    ENGINE.apply(state, 1, LAYOUT.draw_from_deck)
    ENGINE.apply(state, 1, ENGINE.legal_actions(state)[-1])  # serves nothing: discards
    public = ENGINE.view(state, -1)
    assert [p.score for p in public.players] == [1 + 2, results(state)[1].score]
    assert list(public.players[1].hand) == list(state.players[1].hand)
    table = ENGINE.render(public)
    assert "GAME OVER" in table and "rank" in table and "Classic meal x2" in table and "Break the rules x1" in table


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
    # M M M D D D holds no appetizer: the one on the pile makes a Classic meal for sure.
    state = position(["MMMDDD", "MMMDDD"], pile="A", rounds_limit=1)
    assert bot.step(ENGINE.view(state, 0), ENGINE.legal_actions(state)) == LAYOUT.take_discard
    # A dessert adds nothing to it: it draws from the deck.
    state = position(["MMMDDD", "MMMDDD"], pile="D", rounds_limit=1)
    assert bot.step(ENGINE.view(state, 0), ENGINE.legal_actions(state)) == LAYOUT.draw_from_deck


def _plain_observation(view: pb.View) -> np.ndarray:
    """The layout of encoding.py written field by field (the reference the fast builder must equal)."""
    deck = float(DECK_SIZE)
    hand_max = float(CONTENT.hand_size + 1)
    served_scale = float(CONTENT.max_rounds)
    viewer, n = view.core.viewer, view.core.num_players
    out: list[float] = []
    out += [float(view.phase == p) for p in (pb.PHASE_DRAW, pb.PHASE_SERVE, pb.PHASE_DISCARD)]
    out.append(float(viewer >= 0 and view.core.seat_to_move == viewer))
    limit = float(max(view.rounds_limit, 1))
    out += [(view.round - 1) / limit, max(view.rounds_limit - view.round, 0) / limit]
    out += [float(view.clock_minutes > 0), view.dishes_served_this_turn / hand_max]
    if viewer >= 0:
        me = view.players[viewer]
        out += [c / hand_max for c in me.hand]
        out.append((me.score - me.served_points) / hand_max)
        out += [c / hand_max for c in me.dishes]
    else:
        out += [0.0] * (3 + 1 + 2)
    pile = list(view.discard_pile)
    out += [view.deck_size / deck, (view.deck_size + max(len(pile) - 1, 0)) / deck]
    out += [float(bool(pile) and pile[-1] == c) for c in COURSES]
    out += [pile.count(c) / deck for c in COURSES]
    out += [c / deck for c in unseen_counts(view)]
    first = max(viewer, 0)
    for rel in range(CONTENT.max_players):
        if rel >= n:
            out += [0.0] * (3 + 3 + 2 + 1)
            continue
        p = view.players[(first + rel) % n]
        out += [1.0, float(view.core.seat_to_move == p.seat), p.hand_size / hand_max]
        out += [c / hand_max for c in p.known]
        out += [c / served_scale for c in p.served]
        out.append(p.served_points / served_scale)
    return np.array(out, dtype=np.float64).astype(np.float32)


def test_observation_equals_the_layout_written_field_by_field() -> None:
    rng = random.Random(3)
    checked = 0
    for game in range(12):
        players = 2 + game % 5
        bots = [ALaCarteCardsHeuristic(rng) for _ in range(players)]
        state = ENGINE.new_game(players, {"rounds": "4"}, seed=game)
        while True:
            for seat in (-1, *range(players)):
                view = ENGINE.view(state, seat)
                assert np.array_equal(ENGINE.observation(view), _plain_observation(view)), (game, seat)
                checked += 1
            if state.core.game_over:
                break
            seat = state.core.seat_to_move
            ENGINE.apply(state, seat, bots[seat].step(ENGINE.view(state, seat), ENGINE.legal_actions(state)))
    assert checked > 1000
    assert OBSERVATION_SIZE == 8 + 6 + 8 + 3 + CONTENT.max_players * 9


def test_observation_is_the_same_from_cold_and_warm_caches() -> None:
    """The builder keeps runs of seats it has seen (keyed by their bytes): a run made for one view
    and looked up for another must be what that view would have made on its own."""
    rng = random.Random(8)
    views = []
    for game in range(6):
        players = 2 + game % 5
        bots = [ALaCarteCardsHeuristic(rng) for _ in range(players)]
        state = ENGINE.new_game(players, None, seed=100 + game)
        while not state.core.game_over:
            seat = state.core.seat_to_move
            views += [ENGINE.view(state, s) for s in (-1, *range(players))]
            ENGINE.apply(state, seat, bots[seat].step(ENGINE.view(state, seat), ENGINE.legal_actions(state)))
    warm = [ENGINE.observation(view) for view in views]
    for view, seen in zip(views[::7], warm[::7], strict=True):
        for cache in (encoding._player_rows, encoding._turn_run, encoding._counts_run):
            cache.cache_clear()
        assert np.array_equal(ENGINE.observation(view), seen)
        assert np.array_equal(ENGINE.observation(view), _plain_observation(view))


def test_unseen_cards_leave_out_every_served_dish() -> None:
    state = position(["AAMMDD", "AAAMMD"], pile="M", served=[[1, 0], [2, 1]])
    seen = zip(COUNTS, counts("AAMMDD"), counts("M"), counts("AMD"), counts("AMDAMD" + "AAM"), strict=True)
    assert unseen_counts(ENGINE.view(state, 0)) == [c - h - p - s0 - s1 for c, h, p, s0, s1 in seen]
