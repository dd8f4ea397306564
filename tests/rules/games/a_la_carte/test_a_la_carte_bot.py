"""The heuristic bot plays whole games with legal actions only, and beats random bots."""

from __future__ import annotations

import random

from tests.rules.games.a_la_carte.scenario import ENGINE
from workers.bots.heuristic.a_la_carte import ALaCarteHeuristic
from workers.bots.interface import RandomBot


def test_heuristic_plays_legal_actions_and_beats_random_bots() -> None:
    wins = 0.0
    games = 40
    for game in range(games):
        bots = [ALaCarteHeuristic(random.Random(game))] + [RandomBot(random.Random(game + s)) for s in (1, 2)]
        state = ENGINE.new_game(3, {}, game)
        while not state.core.game_over:
            seat = state.core.seat_to_move
            legal = ENGINE.legal_actions(state)
            action = bots[seat].step(ENGINE.view(state, seat), legal)
            assert action in legal
            ENGINE.apply(state, seat, action)
        winners = [r.winner for r in ENGINE.outcome(state).results]
        wins += winners[0] / sum(winners)
    assert wins / games > 0.5, "a sensible beginner wins most games against two random players"
