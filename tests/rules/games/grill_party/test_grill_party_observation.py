"""Grill Party's exchange outlook (the observation's last 51 floats), checked against the card
conditions applied directly to the view's fields."""

from __future__ import annotations

import random

import numpy as np

from services.rules.games.grill_party.content import CONTENT, LAYOUT
from services.rules.games.grill_party.rules import CARDS, KINDS, OUTLOOK_SIZE, condition_holds
from services.rules.registry import get_engine

ROW = KINDS * KINDS + 1


def _holding(grill: list[int], cards: set[int]) -> int:
    return sum(1 for card in cards if condition_holds(CARDS[card], grill))


def _expected(view) -> np.ndarray:  # type: ignore[no-untyped-def]
    core = view.core
    n, viewer = core.num_players, core.viewer
    me = max(viewer, 0)
    grill = list(view.grill)
    after: list[list[int] | None] = []
    for take in range(KINDS):
        for give in range(KINDS):
            moved = list(grill)
            if moved[take] == 0:
                after.append(None)
                continue
            moved[take] -= 1
            moved[give] += 1
            after.append(moved)
    after.append(grill)
    everything = set(range(LAYOUT.cards))
    hand = set(view.players[me].hand) if viewer >= 0 else set()
    blocked = {p.top_card for seat, p in enumerate(view.players) if seat != me and p.HasField("top_card")}
    nxt = view.players[(me + 1) % n]
    gives = [g for g in range(KINDS) if nxt.stock[g] > 0]
    out = np.zeros(OUTLOOK_SIZE, np.float32)
    for k, g in enumerate(after):
        if g is None:
            continue
        if viewer >= 0:
            out[k] = _holding(g, hand - blocked) / CONTENT.hand_size
        out[ROW + k] = _holding(g, everything) / LAYOUT.cards
        best = _holding(g, everything)
        for take in range(KINDS):
            for give in gives:
                if g[take]:
                    moved = list(g)
                    moved[take] -= 1
                    moved[give] += 1
                    best = max(best, _holding(moved, everything))
        out[2 * ROW + k] = best / LAYOUT.cards
    return out


def test_the_outlook_is_what_each_exchange_would_leave() -> None:
    engine = get_engine("grill_party")
    rng = random.Random(3)
    checked = 0
    for game in range(4):
        state = engine.new_game(2 + game % 4, None, game)
        while not state.core.game_over:
            for seat in [-1, *range(state.core.num_players)]:
                view = engine.view(state, seat)
                obs = engine.observation(view)
                assert obs.shape == engine.spec.observation_shape
                np.testing.assert_array_equal(obs[-OUTLOOK_SIZE:], _expected(view))
                checked += 1
            engine.apply(state, state.core.seat_to_move, rng.choice(engine.legal_actions(state)))
    assert checked > 300
