"""The heuristic bot plays only legal moves from its view and beats random play."""

from __future__ import annotations

import random

from tests.rules.games.hibachi.hibachi_builders import EGG, ENGINE, FRIED_RICE, ONION, RICE
from workers.bots.heuristic import heuristic_class
from workers.bots.heuristic.hibachi import HibachiHeuristic, wanted_kinds
from workers.bots.interface import RandomBot


def test_the_bot_is_found_for_the_game() -> None:
    assert heuristic_class("hibachi") is HibachiHeuristic


def test_wanted_kinds_are_what_the_closest_recipe_lacks() -> None:
    hand = [0] * 10
    hand[RICE] = hand[EGG] = 1
    assert wanted_kinds(hand, [FRIED_RICE]) == [ONION]


def test_heuristic_beats_random_players() -> None:
    wins = 0
    games = 12
    for game in range(games):
        rng = random.Random(game)
        bots = [HibachiHeuristic(rng), RandomBot(rng)]
        state = ENGINE.new_game(2, {}, game)
        while not state.core.game_over:
            seat = state.core.seat_to_move
            legal = ENGINE.legal_actions(state)
            choice = bots[seat].step(ENGINE.view(state, seat), legal)
            assert choice in legal
            ENGINE.apply(state, seat, choice)
        wins += ENGINE.outcome(state).results[0].winner
    assert wins >= games * 3 // 4
