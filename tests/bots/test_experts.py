"""The expert bots (training teachers): found by their naming rule, they play whole games with legal
ids only, and the same rng gives the same game. How strong they are is the tournament's business
(`python -m workers.training.tournament --hero expert`), not a unit test's."""

from __future__ import annotations

import random

import pytest

from services.rules.registry import game_ids, get_engine
from workers.bots.heuristic import heuristic_class
from workers.training.experts import expert_bot, expert_class


def _play(game_id: str, players: int, seed: int) -> list[int]:
    engine = get_engine(game_id)
    rng = random.Random(seed)
    bots = [expert_bot(game_id, rng) if seat == 0 else expert_bot(game_id, random.Random(seed + seat))
            for seat in range(players)]
    state = engine.new_game(players, None, seed)
    played = []
    while not state.core.game_over and len(played) < 5_000:
        seat = state.core.seat_to_move
        legal = engine.legal_actions(state)
        action = bots[seat].step(engine.view(state, seat), legal)
        assert action in legal, f"seat {seat} chose {action}, not among {legal}"
        engine.apply(state, seat, action)
        played.append(action)
    assert state.core.game_over, "the experts did not finish the game"
    return played


@pytest.mark.parametrize("game_id", game_ids())
def test_experts_play_whole_games_with_legal_ids_and_reproducibly(game_id: str) -> None:
    spec = get_engine(game_id).spec
    for players in {spec.min_players, spec.max_players}:
        assert _play(game_id, players, 11) == _play(game_id, players, 11)


@pytest.mark.parametrize("game_id", game_ids())
def test_a_game_without_an_expert_is_taught_by_its_heuristic(game_id: str) -> None:
    bot = expert_bot(game_id, random.Random(0))
    expected = expert_class(game_id) or heuristic_class(game_id)
    assert type(bot) is expected
