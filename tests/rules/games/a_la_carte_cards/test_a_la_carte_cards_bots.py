"""The heuristic beginner under round two's rules, and the single-minded plans of the balance gate."""

from __future__ import annotations

import random

from services.rules.games.a_la_carte_cards import ENGINE
from services.rules.games.a_la_carte_cards.content import LAYOUT
from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb
from tests.rules.games.a_la_carte_cards.a_la_carte_cards_positions import BREAK, CLASSIC, position
from workers.bots.heuristic.a_la_carte_cards import ALaCarteCardsHeuristic
from workers.bots.plans import SingleMindedBot
from workers.bots.plans.a_la_carte_cards import PLANS, SEATS_RULED_BY_US, kitchen_table
from workers.training.arena import play_out

A, M, D = (LAYOUT.discard_base + k for k in range(3))
SERVE_CLASSIC = LAYOUT.serve_base + CLASSIC
SERVE_BREAK = LAYOUT.serve_base + BREAK


def _step(bot: ALaCarteCardsHeuristic | SingleMindedBot, state: pb.State) -> int:
    seat = state.core.seat_to_move
    return bot.step(ENGINE.view(state, seat), ENGINE.legal_actions(state))


def test_heuristic_serves_when_it_can_then_stops() -> None:
    bot = ALaCarteCardsHeuristic(random.Random(1))
    state = position(["AMMDDD", "MMMDDD"], pile="A")
    ENGINE.apply(state, 0, LAYOUT.take_discard)  # A A M M D D D: two Classic meals
    assert _step(bot, state) == SERVE_CLASSIC
    ENGINE.apply(state, 0, SERVE_CLASSIC)
    assert _step(bot, state) == SERVE_CLASSIC
    ENGINE.apply(state, 0, SERVE_CLASSIC)
    assert ENGINE.legal_actions(state) == [LAYOUT.done_serving]


def test_heuristic_prefers_the_classic_meal_that_keeps_appetizers() -> None:
    # A A M D D D + A: a Classic meal leaves A A D D (appetizers for either dish), Break the rules
    # A D D D D.
    bot = ALaCarteCardsHeuristic(random.Random(1))
    state = position(["AAMDDD", "MMMDDD"], pile="A")
    ENGINE.apply(state, 0, LAYOUT.take_discard)
    assert set(ENGINE.legal_actions(state)) >= {SERVE_CLASSIC, SERVE_BREAK}
    assert _step(bot, state) == SERVE_CLASSIC


def test_heuristic_keeps_the_main_courses_when_it_discards() -> None:
    # M M D D D D + D drawn, nothing to serve: every dish needs a main course, a dessert goes.
    bot = ALaCarteCardsHeuristic(random.Random(1))
    state = position(["MMDDDD", "AAADDD"], pile="A", deck_top="D")
    ENGINE.apply(state, 0, LAYOUT.draw_from_deck)
    assert ENGINE.legal_actions(state) == [M, D]
    assert _step(bot, state) == D


def test_never_serve_plan_hoards_and_discard_plans_still_serve() -> None:
    plans = {plan.name: plan for plan in PLANS}
    state = position(["AAMDDD", "MMMDDD"], pile="A")
    ENGINE.apply(state, 0, LAYOUT.take_discard)  # A A A M D D D: a dish to serve
    hoarder = SingleMindedBot("a_la_carte_cards", plans["never serve (hoard for the end)"], random.Random(1))
    assert _step(hoarder, state) in (A, M, D)
    dessert_discarder = SingleMindedBot("a_la_carte_cards", plans["always discard a Dessert"], random.Random(1))
    assert _step(dessert_discarder, state) in (SERVE_CLASSIC, SERVE_BREAK)
    breaker = SingleMindedBot("a_la_carte_cards", plans["always Break the rules"], random.Random(1))
    assert _step(breaker, state) == SERVE_BREAK


def test_plans_are_named_once_and_play_whole_games() -> None:
    names = [plan.name for plan in PLANS]
    assert len(names) == len(set(names)) >= 8
    assert not SEATS_RULED_BY_US  # the first player's face-up card is the rulebook's
    rng = random.Random(2)
    for index, plan in enumerate(PLANS):
        players = 2 + index % 5
        bots = [ALaCarteCardsHeuristic(rng) for _ in range(players)]
        hero = SingleMindedBot("a_la_carte_cards", plan, rng)
        state = ENGINE.new_game(players, {"rounds": "3"}, seed=index)
        play_out(ENGINE, state, [hero, *bots[1:]])
        assert state.core.game_over


def test_kitchen_table_counts_games_ends_and_winners() -> None:
    table = kitchen_table(3, 4, {"rounds": "3"}, seed=1)
    assert table.games == 4 and sum(table.winning_scores.values()) == 4
    assert abs(sum(table.seat_wins) - 4) < 1e-9
    assert "3p 4 games" in table.line()
