"""The reference search player (ISMCTS): it always picks a legal action, from redrawn states, and a
seed makes its decisions reproducible. Small budgets here; its strength is measured by
`python -m workers.training.search` (docs/bots.md)."""

from __future__ import annotations

import random

import pytest

from services.rules.registry import game_ids, get_engine
from workers.bots.interface import RandomBot
from workers.training.arena import play_game
from workers.training.search import SearchPlayer


def positions(game_id: str, count: int) -> list[object]:
    """States a few random moves into fresh games, each with a seat to move with a real choice."""
    engine = get_engine(game_id)
    rng = random.Random(5)
    found = []
    while len(found) < count:
        state = engine.new_game(engine.spec.min_players, None, rng.getrandbits(32))
        for _ in range(rng.randrange(0, 12)):
            if state.core.game_over:
                break
            engine.apply(state, state.core.seat_to_move, rng.choice(engine.legal_actions(state)))
        if not state.core.game_over and len(engine.legal_actions(state)) > 1:
            found.append(state)
    return found


@pytest.mark.parametrize("game_id", game_ids())
def test_it_picks_a_legal_action_and_a_seed_repeats_it(game_id: str) -> None:
    engine = get_engine(game_id)
    for state in positions(game_id, 2):
        seat = state.core.seat_to_move
        legal = engine.legal_actions(state)
        picks = []
        for _ in range(2):
            player = SearchPlayer(game_id, random.Random(3), iterations=12)
            player.observe_game(state)
            picks.append(player.step(engine.view(state, seat), legal))
        assert picks[0] in legal and picks[0] == picks[1]


def test_it_plays_a_whole_game_through_the_arena() -> None:
    engine = get_engine("a_la_carte_cards")
    searcher = SearchPlayer("a_la_carte_cards", random.Random(1), iterations=8)
    shares, actions = play_game(engine, [searcher, RandomBot(random.Random(2))], seed=9)
    assert actions > 0 and sum(shares) == pytest.approx(1.0) and searcher.decisions > 0


def test_it_will_not_move_without_the_game() -> None:
    engine = get_engine("a_la_carte_cards")
    state = engine.new_game(2, None, 1)
    with pytest.raises(RuntimeError, match="observe_game"):
        SearchPlayer("a_la_carte_cards", random.Random(1), iterations=4).step(
            engine.view(state, state.core.seat_to_move), engine.legal_actions(state))
