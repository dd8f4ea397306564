"""Plays whole games between bots in-process, over the engine, and scores them.

Used by the tournament, the search teacher's rollouts and the training pipeline's evaluations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from services.rules.engine import Engine
from workers.bots.interface import Bot

# A game that runs past this many actions is scored as a draw among all seats (no engine should).
MAX_ACTIONS = 20_000


def win_shares(engine: Engine, state: Any) -> list[float]:
    """Each seat's share of the win: 1/k for each of k tied winners, 0 for the others."""
    outcome = engine.outcome(state)
    n = state.core.num_players
    if outcome is None:
        return [1.0 / n] * n
    winners = [r.seat for r in outcome.results if r.winner]
    shares = [0.0] * n
    for seat in winners:
        shares[seat] = 1.0 / len(winners)
    return shares


def play_out(engine: Engine, state: Any, bots: Sequence[Bot], max_actions: int = MAX_ACTIONS) -> int:
    """Plays `state` to its end in place with one bot per seat; returns the number of actions."""
    actions = 0
    core = state.core
    while not core.game_over and actions < max_actions:
        seat = core.seat_to_move
        legal = engine.legal_actions(state)
        action = legal[0] if len(legal) == 1 else bots[seat].step(engine.view(state, seat), legal)
        engine.apply(state, seat, action)
        actions += 1
    return actions


def play_game(
    engine: Engine, bots: Sequence[Bot], seed: int, options: Mapping[str, str] | None = None
) -> tuple[list[float], int]:
    """One game from a fresh deal: (win shares by seat, number of actions). A bot that searches
    (workers/training/search.py) is shown the game's state through `observe_game`; it redraws what
    its seat cannot know before it looks ahead."""
    state = deal(engine, bots, seed, options)
    actions = play_out(engine, state, bots)
    return win_shares(engine, state), actions


def deal(engine: Engine, bots: Sequence[Bot], seed: int, options: Mapping[str, str] | None = None) -> Any:
    """A fresh game for `bots`, shown to those that search (`observe_game`)."""
    state = engine.new_game(len(bots), options, seed)
    for bot in bots:
        observe = getattr(bot, "observe_game", None)
        if observe is not None:
            observe(state)
    return state
