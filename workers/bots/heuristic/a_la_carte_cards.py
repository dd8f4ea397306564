"""A sensible beginner at A la carte, the card game (documented in docs/rules/a_la_carte_cards.md).

It judges a six-card hand by the dishes it holds (served next turn) plus half the dishes it expects
after one more draw from the deck (the draw follows the cards it has not seen: the whole deck less
its own hand, the discard pile, the cards the others were seen taking and every dish served).
- Draw: take the top of the discard pile only when keeping it beats the expected deck draw (it
  completes a dish, or brings one closer than a blind draw would).
- Serve: always, as many dishes as the hand makes; where the hand could serve either dish, the set
  whose leftover cards promise most after the restock.
- Discard: the card whose loss hurts the hand least; among equals, the course the next seat is known
  to collect least (the rulebook's tip of watching what the others take); then at random. On its
  last turn of a round-timed game only the dishes in hand count.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from services.rules.games.a_la_carte_cards.public import (
    CONTENT,
    COURSE_INDEX,
    LAYOUT,
    NEEDS,
    NUM_COURSES,
    NUM_RECIPES,
    POINTS,
    hand_score,
    unseen_counts,
)

LOOKAHEAD_WEIGHT = 0.5  # how much the next draw's promise counts next to the dishes in hand
SERVE_IDS = range(LAYOUT.serve_base, LAYOUT.serve_base + NUM_RECIPES)
DISCARD_IDS = range(LAYOUT.discard_base, LAYOUT.discard_base + NUM_COURSES)
Score = Callable[[list[int]], float]


def _best_after_discard(hand: list[int], score: Score) -> float:
    best = -1.0
    for k in range(NUM_COURSES):
        if hand[k]:
            hand[k] -= 1
            best = max(best, score(hand))
            hand[k] += 1
    return best


def _expected(six: list[int], weights: Sequence[int], score: Score) -> float:
    """The expected best score after drawing one card from the unseen ones and discarding."""
    total = float(sum(weights))
    expected = 0.0
    hand = list(six)
    for k in range(NUM_COURSES):
        if weights[k]:
            hand[k] += 1
            expected += weights[k] / total * _best_after_discard(hand, score)
            hand[k] -= 1
    return expected


@lru_cache(maxsize=1024)
def _restock_draws(cards: int) -> tuple[tuple[int, ...], ...]:
    """Every count by course of `cards` cards (what a restock can bring)."""
    if NUM_COURSES == 0:
        return ((),)
    out: list[tuple[int, ...]] = []

    def fill(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == NUM_COURSES - 1:
            out.append((*prefix, left))
            return
        for count in range(left + 1):
            fill((*prefix, count), left - count)

    fill((), cards)
    return tuple(out)


def _multinomial(draw: tuple[int, ...], shares: Sequence[float]) -> float:
    """The chance of a restock's counts by course, the cards drawn independently by their shares."""
    chance = 1.0
    left = sum(draw)
    ways = 1
    for k, count in enumerate(draw):
        for i in range(count):
            ways = ways * (left - i) // (i + 1)
        left -= count
        chance *= shares[k] ** count
    return ways * chance


def _serving_sets(hand: Sequence[int]) -> list[tuple[int, ...]]:
    """Every set of dishes (counts by recipe) the hand can serve at once with the most points, those
    with more dishes of the earlier recipes (the Classic meal, which spends one appetizer, not two)
    first."""
    sets: list[tuple[int, ...]] = []

    def search(left: list[int], recipe: int, chosen: tuple[int, ...]) -> None:
        if recipe == NUM_RECIPES:
            sets.append(chosen)
            return
        needs = NEEDS[recipe]
        most = min(left[k] // need for k, need in enumerate(needs) if need)
        for count in range(most, -1, -1):  # more of the earlier recipes first: they win ties
            search([have - count * need for have, need in zip(left, needs, strict=True)], recipe + 1, (*chosen, count))

    search(list(hand), 0, ())
    top = max(sum(c * p for c, p in zip(s, POINTS, strict=True)) for s in sets)
    return [s for s in sets if sum(c * p for c, p in zip(s, POINTS, strict=True)) == top and top > 0]


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
            return points + LOOKAHEAD_WEIGHT * _expected(six, weights, lambda h: float(hand_score(h)))

        serves = [a for a in legal_actions if a in SERVE_IDS]
        if serves:
            return self._serve(hand, serves, weights)
        if LAYOUT.done_serving in legal_actions:
            return LAYOUT.done_serving
        if LAYOUT.draw_from_deck in legal_actions or LAYOUT.take_discard in legal_actions:
            take = LAYOUT.take_discard
            if take not in legal_actions or not view.discard_pile:
                return LAYOUT.draw_from_deck
            if LAYOUT.draw_from_deck not in legal_actions:
                return take
            k_top = COURSE_INDEX[view.discard_pile[-1]]
            hand[k_top] += 1
            taking = _best_after_discard(hand, value)
            hand[k_top] -= 1
            drawing = _expected(hand, weights, value) if sum(weights) else -1.0
            return take if taking > drawing + 1e-9 else LAYOUT.draw_from_deck
        nxt = view.players[(view.core.viewer + 1) % view.core.num_players]
        discards = [a for a in legal_actions if a in DISCARD_IDS]
        best, best_key = discards[0], (-1.0, 0.0, 0.0)
        for action_id in discards:
            k = action_id - LAYOUT.discard_base
            hand[k] -= 1
            key = (round(value(hand), 9), -float(nxt.known[k]), self.rng.random())
            hand[k] += 1
            if key > best_key:
                best, best_key = action_id, key
        return best

    @staticmethod
    def _serve(hand: list[int], serves: Sequence[int], weights: Sequence[int]) -> int:
        """The first dish of the best serving set the legal serves allow: most points, then the
        leftover whose restock promises the most dishes in the next hand."""
        allowed = {a - LAYOUT.serve_base for a in serves}
        total = float(sum(weights))
        shares = [w / total for w in weights] if total else [1.0 / NUM_COURSES] * NUM_COURSES
        best_id, best_key = serves[0], -1.0
        for dishes in _serving_sets(hand):
            first = next((r for r in range(NUM_RECIPES) if dishes[r] and r in allowed), None)
            if first is None:
                continue
            left = list(hand)
            for r, count in enumerate(dishes):
                for k in range(NUM_COURSES):
                    left[k] -= count * NEEDS[r][k]
            cards = sum(dishes) * CONTENT.restock_per_dish
            promise = 0.0
            for draw in _restock_draws(cards):
                after = [have + got for have, got in zip(left, draw, strict=True)]
                promise += _multinomial(draw, shares) * _best_after_discard(after, lambda h: float(hand_score(h)))
            if promise > best_key + 1e-9:
                best_id, best_key = LAYOUT.serve_base + first, promise
        return best_id
