"""A sensible beginner at Grill Party (documented in docs/rules/grill_party.md).

Exchange: pick the exchange after which the most hand cards match the grill (taking from a player
leaves the grill as it is, so it is chosen only to deny; ties go to the lowest id). Play: every
playable card, one after the other. Tactical variant: puts under the deck every hand card the grill
does not hold, then draws.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from services.rules.games.grill_party.public import CARDS, GRILLABLES, LAYOUT, condition_holds
from sizzle.games.grill_party.v1 import grill_party_pb2 as pb

KINDS = LAYOUT.kinds


class GrillPartyHeuristic:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        if view.phase == pb.PHASE_EXCHANGE:
            return self._best_exchange(view, legal_actions)
        plays = [a for a in legal_actions if LAYOUT.play_base <= a < LAYOUT.stop]
        if view.phase == pb.PHASE_PLAY and plays:
            return self.rng.choice(plays)
        if view.phase == pb.PHASE_TUCK:
            # Puts under the deck the hand cards the grill does not hold now, for fresh ones (a plan in
            # workers/bots/plans may hand it only tucks to choose from).
            stuck = [a for a in legal_actions if LAYOUT.tuck_base <= a < LAYOUT.draw
                     and not condition_holds(CARDS[a - LAYOUT.tuck_base], view.grill)]
            if stuck:
                return stuck[0]
            return LAYOUT.draw if LAYOUT.draw in legal_actions else self.rng.choice(legal_actions)
        return LAYOUT.stop

    def _best_exchange(self, view: Any, legal_actions: Sequence[int]) -> int:
        hand = list(view.players[view.core.viewer].hand)
        best, best_score = legal_actions[0], -1.0
        for action_id in legal_actions:
            source, rest = divmod(action_id, KINDS * KINDS)
            take, give = divmod(rest, KINDS)
            grill = list(view.grill)
            if source == 0:
                grill[take] -= 1
                grill[give] += 1
            playable = sum(1 for card in hand if condition_holds(CARDS[card], grill))
            score = playable + self.rng.random() * 0.5  # break ties at random
            if score > best_score:
                best, best_score = action_id, score
        return best


__all__ = ["GrillPartyHeuristic", "GRILLABLES"]
