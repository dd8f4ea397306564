"""An expert at A la carte, the card game: the training teacher (docs/rules/a_la_carte_cards.md).

The game in numbers: every dish takes one main course, the deck holds few of them, and a seat serves
almost exactly the main courses that reach its hand (heuristic seats turn 97-98% of theirs into
points). What a seat decides is small beside that luck: which card it keeps, which dish it serves
from a hand that makes either, and, rarely, the top of the discard pile instead of a blind draw.
The expert decides those as well as one seat can:

* It plans its own remaining turns exactly, by dynamic programming over its hand (a hand of six
  holds one of 28 mixes of the three courses, seven cards one of 36): the value of a six-card hand
  with t turns left is the points it can expect from its dishes served in those turns plus the
  dishes still in hand at the end, when each turn draws a card from the deck, serves the best set of
  dishes (or none), restocks three cards per dish and keeps the best six. Draws follow the cards it
  has not seen (card counting: the content's deck less its own hand, the whole discard pile, the
  cards the others were seen taking and every dish served). The heuristic looks one draw ahead and
  does not count what a dish served now is worth in restocked cards; the tables count both, to the
  timer's last turn (where only the dishes in hand score).
* Draw: the top of the discard pile when the hand it makes is worth more by the tables than the
  expected blind draw. A main course nearly always is. An appetizer that would serve a second dish
  now often is not (the heuristic takes it): half the deck is appetizers, and a blind draw may bring
  a main course, worth more than a dish served a turn earlier.
* Serve: the dishes, one at a time, of the set worth most (the points plus what the restock is
  expected to bring to the hand that is left).
* Discard: the card whose loss costs the tables least, less a price for what the card gives the next
  seat, which may take it off the pile: a main course is nearly a dish to anybody (worth a whole
  rival's dish at two players, shared out among the rivals at larger tables); among equal cards, the
  course the next seat is seen to collect least, then at random.

It sees only its view and the legal ids. The tables are computed once per deck composition (shares
in hundredths) and number of turns left, and cached for the process: a decision takes 74 us at the
median, 180 us on average. Against heuristic players it wins 1.09x chance (10,000 games): about
all a seat can gain in this game (docs/rules/a_la_carte_cards.md, "Expert").
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

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
from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb

HAND = CONTENT.hand_size
RESTOCK = CONTENT.restock_per_dish
# The longest horizon the tables plan for: a clock game has no known last round.
MAX_TURNS = CONTENT.max_rounds
SHARE_STEPS = 100  # the deck's shares are rounded to hundredths (the tables' cache key)
TIE = 1e-9  # values closer than this are equal
ROUNDING = 9  # decimals kept when values are compared for ties
# The price, in our own dishes, of a card the next seat takes off the pile: what the card is worth to
# it beyond a blind draw (below), times its weight among our rivals (all of it at two players).
DENIAL_WEIGHT = 1.0

Hand = tuple[int, ...]


def _mixes(cards: int) -> list[Hand]:
    """Every count by course of `cards` cards."""
    return [mix for mix in itertools.product(range(cards + 1), repeat=NUM_COURSES) if sum(mix) == cards]


def _plus(hand: Hand, other: Sequence[int]) -> Hand:
    return tuple(a + b for a, b in zip(hand, other, strict=True))


def _minus(hand: Hand, other: Sequence[int]) -> Hand:
    return tuple(a - b for a, b in zip(hand, other, strict=True))


ONE = tuple(tuple(int(j == k) for j in range(NUM_COURSES)) for k in range(NUM_COURSES))  # one card of course k
SIX = _mixes(HAND)  # hands between turns
SIX_INDEX = {hand: i for i, hand in enumerate(SIX)}
SEVEN = _mixes(HAND + 1)  # hands after a draw, and after a restock
SEVEN_INDEX = {hand: i for i, hand in enumerate(SEVEN)}
MOST_DISHES = (HAND + 1) // min(len(recipe.courses) for recipe in CONTENT.recipes)
RESTOCKS = tuple(RESTOCK * dishes for dishes in range(1, MOST_DISHES + 1))
DRAWS = {n: _mixes(n) for n in RESTOCKS}
WAYS = {n: np.array([math.factorial(n) / math.prod(math.factorial(c) for c in mix) for mix in DRAWS[n]])
        for n in RESTOCKS}
POWERS = {n: np.array(DRAWS[n], dtype=np.int64) for n in RESTOCKS}
SCORE_SIX = np.array([hand_score(hand) for hand in SIX], dtype=float)


def _serving_sets(hand: Hand) -> list[tuple[int, ...]]:
    """Every set of dishes (counts by recipe) the hand can serve at once, none included."""
    out: list[tuple[int, ...]] = []

    def search(left: Hand, recipe: int, chosen: tuple[int, ...]) -> None:
        if recipe == NUM_RECIPES:
            out.append(chosen)
            return
        most = min(left[k] // need for k, need in enumerate(NEEDS[recipe]) if need)
        for count in range(most + 1):
            search(_minus(left, [count * need for need in NEEDS[recipe]]), recipe + 1, (*chosen, count))

    search(hand, 0, ())
    return out


def _build_serves() -> tuple[np.ndarray, np.ndarray, dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]]:
    """The serving choices of every seven-card hand as rows (the hand, the points), and for each
    restock size the (row, hand after the restock, restock mix) triples: a sparse expectation."""
    row_hand: list[int] = []
    row_points: list[float] = []
    entries: dict[int, tuple[list[int], list[int], list[int]]] = {n: ([], [], []) for n in RESTOCKS}
    for i, hand in enumerate(SEVEN):
        for dishes in _serving_sets(hand):
            if not sum(dishes):
                continue
            row = len(row_hand)
            row_hand.append(i)
            row_points.append(float(sum(c * p for c, p in zip(dishes, POINTS, strict=True))))
            left = hand
            for r, count in enumerate(dishes):
                left = _minus(left, [count * need for need in NEEDS[r]])
            n = RESTOCK * sum(dishes)
            rows, cols, mixes = entries[n]
            for j, mix in enumerate(DRAWS[n]):
                rows.append(row)
                cols.append(SEVEN_INDEX[_plus(left, mix)])
                mixes.append(j)
    sparse = {n: (np.array(r), np.array(c), np.array(m)) for n, (r, c, m) in entries.items() if r}
    return np.array(row_hand), np.array(row_points), sparse


ROW_HAND, ROW_POINTS, RESTOCK_ENTRIES = _build_serves()
# For every seven-card hand, the six-card hand left by discarding each course (-1: none held).
DISCARDS = np.array([[SIX_INDEX[_minus(h, ONE[k])] if h[k] else -1 for k in range(NUM_COURSES)] for h in SEVEN])
# For every six-card hand, the seven-card hand after drawing each course.
DRAWN = np.array([[SEVEN_INDEX[_plus(h, ONE[k])] for k in range(NUM_COURSES)] for h in SIX])


def _restock_chances(n: int, shares: np.ndarray) -> np.ndarray:
    """The chance of each mix of an n-card restock (cards drawn independently by the shares)."""
    return np.asarray(WAYS[n] * np.prod(np.power(shares[None, :], POWERS[n]), axis=1))


SIX_WAYS = np.array([math.factorial(HAND) / math.prod(math.factorial(c) for c in hand) for hand in SIX])
SIX_POWERS = np.array(SIX, dtype=np.int64)


def _six_chances(shares: np.ndarray) -> np.ndarray:
    """The chance of each six-card hand drawn from the deck."""
    return np.asarray(SIX_WAYS * np.prod(np.power(shares[None, :], SIX_POWERS), axis=1))


class Tables:
    """The values of one seat's hands for a deck composition, for 0..turns turns left.

    value[t][six]: the points a six-card hand is expected to bring with t turns left (each turn:
    draw, serve, restock, discard; at the end the dishes in hand score). keep[t][seven]: the value
    of the best discard from a seven-card hand with t turns left after it. turn[t][seven]: a
    seven-card hand just drawn on a turn with t turns left counting this one, served and discarded
    at best."""

    def __init__(self, shares: np.ndarray, turns: int) -> None:
        self.shares = shares
        self.chances = {n: _restock_chances(n, shares) for n in RESTOCKS}
        self.hand_chances = _six_chances(shares)
        self._gifts: dict[int, np.ndarray] = {}
        self.value = [SCORE_SIX]
        self.keep: list[np.ndarray] = []
        self.turn: list[np.ndarray] = [np.zeros(len(SEVEN))]
        for _ in range(turns):
            self._extend()

    def _extend(self) -> None:
        after = self.value[-1]
        keep = np.where(DISCARDS >= 0, after[np.maximum(DISCARDS, 0)], -np.inf).max(axis=1)
        served = ROW_POINTS.copy()
        for n, (rows, cols, mixes) in RESTOCK_ENTRIES.items():
            served += np.bincount(rows, weights=self.chances[n][mixes] * keep[cols], minlength=len(ROW_HAND))
        turn = keep.copy()
        np.maximum.at(turn, ROW_HAND, served)
        self.keep.append(keep)
        self.turn.append(turn)
        self.value.append(turn[DRAWN] @ self.shares)

    def gifts(self, turns: int) -> np.ndarray:
        """What a card of each course on top of the pile is worth to the next seat beyond a blind
        draw, when it has `turns` turns left counting that one: max(0, taking it - drawing), averaged
        over six-card hands as likely as six cards drawn from this deck."""
        if turns not in self._gifts:
            t = min(turns, len(self.value) - 1)
            gain = np.maximum(self.turn[t][DRAWN] - self.value[t][:, None], 0.0)
            self._gifts[turns] = self.hand_chances @ gain
        return self._gifts[turns]

    def restocked(self, hand: Hand, dishes: int, turns: int) -> float:
        """The expected value of a hand restocked for `dishes` dishes, then discarded at best, with
        `turns` turns left after this one."""
        n = RESTOCK * dishes
        keep = self.keep[turns]
        return float(sum(c * keep[SEVEN_INDEX[_plus(hand, mix)]]
                         for c, mix in zip(self.chances[n], DRAWS[n], strict=True)))


@lru_cache(maxsize=512)
def tables(steps: tuple[int, ...], turns: int) -> Tables:
    """The tables of a deck whose shares by course are `steps` hundredths (cached)."""
    shares = np.array(steps, dtype=float)
    return Tables(shares / shares.sum(), turns)


def deck_steps(view: Any) -> tuple[int, ...]:
    """The shares of the cards the viewer has not seen, by course, in hundredths (at least one each,
    so that no course is ever certain to be gone)."""
    unseen = [max(count, 0) for count in unseen_counts(view)]
    total = sum(unseen) or 1
    return tuple(max(1, round(SHARE_STEPS * count / total)) for count in unseen)


def turns_left(view: Any) -> int:
    """The seat's turns left counting the one it is playing (a clock game plans for the longest
    round timer)."""
    left = max(view.rounds_limit - view.round + 1, 1)
    return min(left, MAX_TURNS) if view.clock_minutes > 0 else left


class ALaCarteCardsExpert:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        hand: Hand = tuple(view.players[view.core.viewer].hand)
        turns = turns_left(view)
        table = tables(deck_steps(view), turns)
        if view.phase == pb.PHASE_DRAW:
            return self._draw(view, hand, legal, table, turns)
        if view.phase == pb.PHASE_SERVE:
            return self._serve(view, hand, legal, table, turns)
        return self._discard(view, hand, legal, table, turns)

    @staticmethod
    def _draw(view: Any, hand: Hand, legal: list[int], table: Tables, turns: int) -> int:
        if LAYOUT.take_discard not in legal or not view.discard_pile:
            return LAYOUT.draw_from_deck
        if LAYOUT.draw_from_deck not in legal:
            return LAYOUT.take_discard
        top = COURSE_INDEX[view.discard_pile[-1]]
        taking = table.turn[turns][SEVEN_INDEX[_plus(hand, ONE[top])]]
        drawing = table.value[turns][SIX_INDEX[hand]]
        return LAYOUT.take_discard if taking > drawing + TIE else LAYOUT.draw_from_deck

    def _serve(self, view: Any, hand: Hand, legal: list[int], table: Tables, turns: int) -> int:
        served = view.dishes_served_this_turn
        after = turns - 1

        def stop(left: Hand, dishes: int) -> float:
            if dishes == 0:  # no dish served: discard now, no restock
                return max(table.value[after][SIX_INDEX[_minus(left, ONE[k])]] for k in range(NUM_COURSES) if left[k])
            return table.restocked(left, dishes, after)

        def best(left: Hand, dishes: int) -> float:
            value = stop(left, dishes)
            for r in range(NUM_RECIPES):
                if all(have >= need for have, need in zip(left, NEEDS[r], strict=True)):
                    value = max(value, POINTS[r] + best(_minus(left, NEEDS[r]), dishes + 1))
            return value

        scored: dict[int, float] = {}
        for action in legal:
            if LAYOUT.serve_base <= action < LAYOUT.done_serving:
                r = action - LAYOUT.serve_base
                scored[action] = POINTS[r] + best(_minus(hand, NEEDS[r]), served + 1)
            elif action == LAYOUT.done_serving:
                scored[action] = stop(hand, served)
        discards = [a for a in legal if a >= LAYOUT.discard_base]
        if discards:  # serving nothing: the seat discards now, as in the discard step
            scored.update(self._discard_scores(view, hand, discards, table, turns))
        return self._pick(view, scored)

    def _discard(self, view: Any, hand: Hand, legal: list[int], table: Tables, turns: int) -> int:
        return self._pick(view, self._discard_scores(view, hand, legal, table, turns))

    @staticmethod
    def _discard_scores(view: Any, hand: Hand, discards: list[int], table: Tables, turns: int) -> dict[int, float]:
        """Each discard's value: what our hand is then worth, less what the card offers the next
        seat beyond a blind draw (it may take it off the pile), weighed among our rivals."""
        n = view.core.num_players
        viewer = view.core.viewer
        # The next seat's turns left counting its coming one: it plays this round still, unless we
        # are the round's last seat.
        next_turns = turns if viewer < n - 1 else turns - 1
        gifts = table.gifts(next_turns) if next_turns > 0 else np.zeros(NUM_COURSES)
        after = table.value[turns - 1]
        return {
            action: float(after[SIX_INDEX[_minus(hand, ONE[action - LAYOUT.discard_base])]])
            - DENIAL_WEIGHT / max(n - 1, 1) * float(gifts[action - LAYOUT.discard_base])
            for action in discards
        }

    def _pick(self, view: Any, scored: dict[int, float]) -> int:
        """The best-scored action; among equals, the discard of the course the next seat is seen to
        collect least (the rulebook's tip of watching what the others take), then at random."""
        nxt = view.players[(view.core.viewer + 1) % view.core.num_players]

        def key(action: int) -> tuple[float, int, float]:
            collects = nxt.known[action - LAYOUT.discard_base] if action >= LAYOUT.discard_base else 0
            return round(scored[action], ROUNDING), -collects, self.rng.random()

        return max(scored, key=key)
