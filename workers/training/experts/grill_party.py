"""Expert Grill Party bot (training teacher).

Grill Party is a race: the first seat to empty its hand and deck wins, so a turn is worth the cards
it plays. Playing a card never changes the grill (only the exchange does); the order of the plays
only decides the top card of the score pile, and that face-up top card blocks the identical card for
every other seat. So the only decisions are the exchange and which played card ends on top.

What it does better than the heuristic (a sensible beginner):

* Exchange, scored one ply ahead on the grill each legal exchange leaves:
  - the cards it can really play now (the heuristic counts cards blocked by other seats' top cards);
  - the cards it keeps: how many of them its next turn can play, given its new stock (a stock with
    more kinds reaches more grills) and the grill drifting under the other seats' exchanges
    (modelled as random exchanges, one per other seat); and a small penalty for keeping hard cards
    ("Most X" holds on few grills, so play it when it can be played);
  - denial (weighed three times more at two players): how many cards the next seat, with its own
    stock (which taking from it changes), can expect to play after its best exchange from that grill
    with an unknown hand. The grills with three or four kinds spread (1-1-1-1, 2-1-1-0) are the
    generous ones; 2-2-0-0, 3-1-0-0 and 4-0-0-0 give the next seat less.
  - endgame denial: for every other seat whose deck is empty (it wins if its next turn plays all its
    last cards), the chance that a random hand of that many cards can all be played after that
    seat's best exchange, from the grill it will face (the grill we leave for the next seat, drifted
    by random exchanges for the seats after it; taking from a seat's stock changes what it can give).
    This is weighed heavily (6 cards' worth): stopping a finish matters more than a card of our own.
  When its deck is empty, a card played now is not replaced, so the kept cards weigh relatively more;
  when every card left in its hand can be played now, it takes that exchange (it wins).
* Play order: it plays its playable cards so that the one left on top, the one that blocks everybody
  else, is a card the next seats are likely to want (it matches many grills they can reach with one
  exchange) and hard to play (a blocked "Most X" stays stuck in their hand longest).
* Tactical variant: it never tucks (like the heuristic).

It sees only its view and the legal ids. The lookahead uses the engine's own condition rule on
precomputed tables over the 35 possible grills (the grill always holds four grillables), computed
once and cached, so a game with it in one seat runs about as fast as an all-heuristic game.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from services.rules.games.grill_party.public import GRILL_INDEX as INDEX
from services.rules.games.grill_party.public import GRILL_STATES as STATES
from services.rules.games.grill_party.public import GRILLABLES, HOLDS, LAYOUT
from sizzle.games.grill_party.v1 import grill_party_pb2 as pb

# What `make train GAME=grill_party` needs beyond train.py's common settings to reproduce the shipped
# model: the exchange choices weigh several lookahead terms, and a network twice as wide, more games
# and more epochs imitate them better (imitation alone, 512 wide, 10 epochs, judged over 1,000 games
# against heuristics, made 1.46x chance from 3,000 games and 1.55x from 12,000; agreement with the
# expert's exchanges 65% -> 72%; a third layer did not help).
TRAINING_DEFAULTS = {"heuristic_games": 15000, "hidden": 512, "imitation_epochs": 10, "reinforce_games": 64_000,
                     "reinforce_baseline": "critic"}

KINDS = LAYOUT.kinds
PLAY_BASE = LAYOUT.play_base
MAX_SEATS = LAYOUT.sources

Counts = tuple[int, ...]
TIE = 1e-9  # exchanges scored within this of the best are equally good (one is picked at random)
WIN = 1e9  # the score of an exchange that lets us play our last cards

# The grill states (STATES, INDEX) and, for each, the bit mask of the cards whose condition holds
# there (HOLDS) are the rules' own tables (the observation's outlook is built from them).
# For every card: the share of the 35 grills on which it can be played.
EASE = [sum(m >> c & 1 for m in HOLDS) / len(HOLDS) for c in range(LAYOUT.cards)]


def _moved(counts: Counts, take: int, give: int) -> Counts:
    """`counts` with one `take` removed and one `give` added."""
    out = list(counts)
    out[take] -= 1
    out[give] += 1
    return tuple(out)


def _support(stock: Counts) -> int:
    """Bit mask of the kinds a stock can give (only that matters for the grills it can reach)."""
    return sum(1 << k for k in range(KINDS) if stock[k])


@functools.cache
def _reach_states(support: int) -> tuple[tuple[int, ...], ...]:
    """For each grill state: the states one exchange can leave, giving any kind in `support`."""
    return tuple(
        tuple(
            sorted(
                {
                    INDEX[_moved(grill, take, give)]
                    for take in range(KINDS)
                    if grill[take]
                    for give in range(KINDS)
                    if support >> give & 1
                }
            )
        )
        for grill in STATES
    )


@functools.cache
def _reach(support: int) -> tuple[tuple[int, ...], ...]:
    """For each grill state: the holds masks of the grills one exchange can leave, giving any kind
    in `support`."""
    rows = []
    for grill in STATES:
        masks = {
            HOLDS[INDEX[_moved(grill, take, give)]]
            for take in range(KINDS)
            if grill[take]
            for give in range(KINDS)
            if support >> give & 1
        }
        rows.append(tuple(sorted(masks)))
    return tuple(rows)


def _drift() -> list[list[list[tuple[int, float]]]]:
    """drift[k][s]: where the grill in state s is after k exchanges by the other seats, modelled as
    random exchanges with the grill (a uniform kind present taken, a uniform kind given)."""
    n = len(STATES)
    step = [[0.0] * n for _ in range(n)]
    for s, grill in enumerate(STATES):
        takes = [t for t in range(KINDS) if grill[t]]
        for take in takes:
            for give in range(KINDS):
                step[s][INDEX[_moved(grill, take, give)]] += 1.0 / (len(takes) * KINDS)
    power = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
    out = [[[(s, 1.0)] for s in range(n)]]
    for _ in range(1, MAX_SEATS):
        power = [[sum(power[i][m] * step[m][j] for m in range(n)) for j in range(n)] for i in range(n)]
        out.append([[(j, p) for j, p in enumerate(row) if p > 1e-9] for row in power])
    return out


DRIFT = _drift()

# Every 4-card hand, as card flags (the other seats' hands are hidden): for the denial estimate.
_HANDS = np.array(
    [[c in hand for c in range(LAYOUT.cards)] for hand in itertools.combinations(range(LAYOUT.cards), 4)],
    dtype=np.float32,
)


# Cards of each hand that hold on each grill state: (hands, states).
_HAND_COUNTS = _HANDS @ np.array([[m >> c & 1 for m in HOLDS] for c in range(LAYOUT.cards)], dtype=np.float32)


@functools.cache
def _opponent_potential(support: int) -> tuple[float, ...]:
    """For each grill state: the mean number of cards a seat able to give the kinds in `support`
    (holding a random hand) can play after its best exchange from that grill."""
    return tuple(float(_HAND_COUNTS[:, list(states)].max(axis=1).mean()) for states in _reach_states(support))


_FIT_ROWS: dict[tuple[int, int], tuple[int, ...]] = {}


def _fit_row(support: int, kept: int) -> tuple[int, ...]:
    """For each grill state: the most of the `kept` cards one exchange (giving a kind in `support`)
    makes playable. Cached across decisions (bounded)."""
    key = (support, kept)
    row = _FIT_ROWS.get(key)
    if row is None:
        if len(_FIT_ROWS) > 200_000:
            _FIT_ROWS.clear()
        row = _FIT_ROWS[key] = tuple(max((kept & m).bit_count() for m in masks) for masks in _reach(support))
    return row


@functools.cache
def _hardness(cards: int) -> float:
    """Sum over the cards in the mask of how rarely each can be played (1 - EASE)."""
    return sum(1.0 - EASE[c] for c in range(LAYOUT.cards) if cards >> c & 1)


@functools.cache
def _finish_chance(support: int, left: int) -> tuple[float, ...]:
    """For each grill state: the chance that a seat able to give the kinds in `support`, holding
    `left` random cards (its last ones), can play them all after its best exchange from that grill."""
    hands = np.array(
        [sum(1 << c for c in hand) for hand in itertools.combinations(range(LAYOUT.cards), left)], dtype=np.int64
    )
    out = []
    for masks in _reach(support):
        fits = np.zeros(len(hands), dtype=bool)
        for m in masks:
            fits |= (hands & m) == hands
        out.append(float(fits.mean()))
    return tuple(out)


def _with_plate(player: Any) -> Counts:
    """A seat's stock when its turn comes: its plate goes back into the stock first."""
    stock = list(player.stock)
    if player.plate != pb.GRILLABLE_UNSPECIFIED:
        stock[GRILLABLES.index(player.plate)] += 1
    return tuple(stock)


def _mask(cards: Any) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


class GrillPartyExpert:
    """One-ply exchange evaluation plus a blocking play order (see the module docstring)."""

    # Weights of the exchange score (tuned against heuristic opponents, 1,000-game tournaments).
    PLAY_NOW = 1.0  # each card played now
    DRAW = 0.4  # extra for each card played now while the deck can replace it
    FUTURE = 0.8  # each kept card our next turn is expected to play
    EASE = 0.8  # penalty for each kept card, times how rarely it can be played (1 - EASE[card])
    DENY = 0.5  # each card the next seat is expected to play after its best exchange
    DENY_HEADS_UP = 1.5  # the same at two players, where the next seat is the only rival
    STOP_FINISH = 6.0  # the chance a seat with an empty deck plays all its last cards on its turn (a loss)
    # Play order: a top card's blocking value grows with how hard the card is to play.
    HARD = 20.0

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    # ------------------------------------------------------------------ entry point
    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        if view.phase == pb.PHASE_EXCHANGE:
            return self._best_exchange(view, legal_actions)
        if view.phase == pb.PHASE_PLAY:
            plays = [a for a in legal_actions if PLAY_BASE <= a < LAYOUT.stop]
            if plays:
                return self._next_play(view, plays)
            return LAYOUT.stop
        if view.phase == pb.PHASE_TUCK:
            return LAYOUT.draw
        return legal_actions[0]

    # ------------------------------------------------------------------ helpers on the view
    @staticmethod
    def _blocked_for(view: Any, seat: int) -> int:
        """Mask of the cards `seat` may not play: the other seats' face-up top cards."""
        mask = 0
        for player in view.players:
            if player.seat != seat and player.HasField("top_card"):
                mask |= 1 << player.top_card
        return mask

    # ------------------------------------------------------------------ exchange
    def _best_exchange(self, view: Any, legal_actions: Sequence[int]) -> int:
        scores = self.exchange_scores(view, legal_actions)
        top = max(scores.values())
        return self.rng.choice([a for a in legal_actions if scores[a] >= top - TIE])

    def exchange_scores(self, view: Any, legal_actions: Sequence[int]) -> dict[int, float]:
        """The score of every legal exchange (higher is better; WIN for one that plays our last cards)."""
        me = view.core.viewer
        n = view.core.num_players
        mine = view.players[me]
        hand = _mask(mine.hand)
        playable = hand & ~self._blocked_for(view, me)
        grill: Counts = tuple(view.grill)
        stock: Counts = tuple(mine.stock)
        drift = DRIFT[n - 1]
        nxt = view.players[(me + 1) % n]
        next_stock = _with_plate(nxt)
        deny = self.DENY_HEADS_UP if n == 2 else self.DENY
        per_card = self.PLAY_NOW + (self.DRAW if mine.deck_size > 0 else 0.0)

        # How many kept cards our next turn can play (the grill drifts under the other seats first).
        futures: dict[tuple[int, int, int], float] = {}

        def future(leave: int, support: int, kept: int) -> float:
            if not kept:
                return 0.0
            key = (leave, support, kept)
            value = futures.get(key)
            if value is None:
                row = _fit_row(support, kept)
                value = futures[key] = sum(p * row[s] for s, p in drift[leave])
            return value

        # The seats whose deck is empty (they may finish on their turn): distance, stock, cards left.
        finishing = []
        for step in range(1, n):
            other = view.players[(me + step) % n]
            if other.deck_size == 0:
                finishing.append((step, _with_plate(other), other.hand_size))

        scores: dict[int, float] = {}
        for action_id in legal_actions:
            source, rest = divmod(action_id, KINDS * KINDS)
            take, give = divmod(rest, KINDS)
            new_stock = _moved(stock, give, take)
            leave = INDEX[_moved(grill, take, give) if source == 0 else grill]
            played = playable & HOLDS[leave]
            now = played.bit_count()
            if now == len(mine.hand) and mine.deck_size == 0:
                scores[action_id] = WIN  # our last cards: we win now
                continue
            kept = hand & ~played
            score = per_card * now + self.FUTURE * future(leave, _support(new_stock), kept)
            opp_stock = _moved(next_stock, take, give) if source == 1 else next_stock
            score -= deny * _opponent_potential(_support(opp_stock))[leave]
            # A seat whose deck is empty wins if its turn plays all its last cards: make that unlikely.
            for step, their_stock, left in finishing:
                if source == step:
                    their_stock = _moved(their_stock, take, give)
                chance = _finish_chance(_support(their_stock), left)
                score -= self.STOP_FINISH * sum(p * chance[s] for s, p in DRIFT[step - 1][leave])
            scores[action_id] = score - self.EASE * _hardness(kept)
        return scores

    # ------------------------------------------------------------------ play order
    def _next_play(self, view: Any, plays: list[int]) -> int:
        if len(plays) == 1:
            return plays[0]
        me = view.core.viewer
        n = view.core.num_players
        grill = INDEX[tuple(view.grill)]
        value = [0.0] * LAYOUT.cards
        # Weigh the grills the next seats can reach; the nearest seat counts most.
        for step in range(1, n):
            other = view.players[(me + step) % n]
            weight = float(n - step)
            for holds in _reach(_support(_with_plate(other)))[grill]:
                for card in range(LAYOUT.cards):
                    if holds >> card & 1:
                        value[card] += weight
        # The best blocker goes last: play the least valuable blocker first.
        def block_value(action_id: int) -> tuple[float, int]:
            card = action_id - PLAY_BASE
            return value[card] * (1.0 + self.HARD * (1.0 - EASE[card])), action_id

        return min(plays, key=block_value)
