"""A sensible beginner at A la carte, the card game (documented in docs/rules/a_la_carte_cards.md).

It judges a six-card hand by the points it scores now plus half the points it expects after one
more draw from the deck (the draw follows the cards it has not seen: the whole deck less its own
hand, the discard pile and the cards the others were seen taking). Draw: take the top of the
discard pile only when that beats the expected deck draw. Discard: the card whose loss hurts that
value least; among equals, the course the next seat is known to collect least (the rulebook's tip
of watching what the others take). On its last turn of a round-timed game only points count.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from services.rules.games.a_la_carte_cards.content import COURSE_INDEX, LAYOUT, K
from services.rules.games.a_la_carte_cards.encoding import unseen_counts
from services.rules.games.a_la_carte_cards.scoring import hand_score
from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb

LOOKAHEAD_WEIGHT = 0.5  # how much the next draw's promise counts next to the points in hand


def _best_after_discard(hand: list[int], score: Any) -> float:
    best = -1.0
    for k in range(K):
        if hand[k]:
            hand[k] -= 1
            best = max(best, score(hand))
            hand[k] += 1
    return best


class ALaCarteCardsHeuristic:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        me = view.players[view.core.viewer]
        hand = list(me.hand)
        weights = [max(c, 0) for c in unseen_counts(view)]
        last_turn = view.clock_minutes <= 0 and view.round >= view.rounds_limit

        def value(six: list[int]) -> float:
            points = float(hand_score(six))
            if last_turn or sum(weights) == 0:
                return points
            return points + LOOKAHEAD_WEIGHT * self._expected(six, weights, lambda h: float(hand_score(h)))

        if view.phase == pb.PHASE_DRAW:
            take = LAYOUT.take_discard
            if take not in legal_actions or not view.discard_pile:
                return LAYOUT.draw_from_deck
            top = COURSE_INDEX[view.discard_pile[-1]]
            hand[top] += 1
            taking = _best_after_discard(hand, value)
            hand[top] -= 1
            drawing = self._expected(hand, weights, value) if sum(weights) else -1.0
            return take if taking > drawing + 1e-9 else LAYOUT.draw_from_deck
        nxt = view.players[(view.core.viewer + 1) % view.core.num_players]
        best, best_key = legal_actions[0], (-1.0, 0.0, 0.0)
        for action_id in legal_actions:
            k = action_id - LAYOUT.discard_base
            hand[k] -= 1
            key = (round(value(hand), 9), -float(nxt.known[k]), self.rng.random())
            hand[k] += 1
            if key > best_key:
                best, best_key = action_id, key
        return best

    @staticmethod
    def _expected(six: list[int], weights: list[int], score: Any) -> float:
        """The expected best score after drawing one card from the unseen ones and discarding."""
        total = float(sum(weights))
        expected = 0.0
        hand = list(six)
        for k in range(K):
            if weights[k]:
                hand[k] += 1
                expected += weights[k] / total * _best_after_discard(hand, score)
                hand[k] -= 1
        return expected
