"""The heuristic registry: a bot for every registered game, found by its module's naming rule."""

from __future__ import annotations

import random

import pytest

from services.rules.registry import game_ids, get_engine
from workers.bots.heuristic import heuristic_bot, heuristic_class
from workers.bots.interface import RandomBot


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_has_a_bot_that_plays_legal_actions(game_id: str) -> None:
    engine = get_engine(game_id)
    rng = random.Random(5)
    bot = heuristic_bot(game_id, rng)
    state = engine.new_game(engine.spec.min_players, None, 17)
    for _ in range(60):
        if state.core.game_over:
            break
        seat = state.core.seat_to_move
        legal = engine.legal_actions(state)
        action = bot.step(engine.view(state, seat), legal)
        assert action in legal
        engine.apply(state, seat, action)


def test_grill_party_heuristic_is_found() -> None:
    cls = heuristic_class("grill_party")
    assert cls is not None and cls.__name__ == "GrillPartyHeuristic"


def test_a_game_without_a_heuristic_gets_the_random_bot() -> None:
    assert isinstance(heuristic_bot("no_such_game_here", random.Random(0)), RandomBot)
