"""The numbers bots see: the action-id codec and the observation tensor, both from view fields only.

Observation (float32, one flat vector, seats relative to the viewer; a spectator reads as seat 0
with an empty hand):
  turn      phase one-hot (draw, discard), viewer to move, rounds played / limit,
            rounds left after this one / limit, clock game                            2 + 4
  my hand   counts by course / 7, points now / 7, dishes by recipe / 7                K + 1 + R
  piles     deck size / deck, top of the discard pile one-hot, discard pile by course / deck
                                                                                      1 + K + K
  unseen    cards of each course the viewer has not seen (content counts less own hand, discard
            pile and every known card of the others) / deck                           K
  players   per relative seat 0..max_players-1: present, to move, hand size / 7,
            known cards by course / 7                                                 max_players * (3 + K)
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from services.rules.float_runs import floats, one_hot
from services.rules.games.a_la_carte_cards.content import (
    CONTENT,
    COURSE_INDEX,
    COURSES,
    DECK_SIZE,
    LAYOUT,
    MAX_HAND,
    K,
)
from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb

R = len(CONTENT.recipes)
MAX_PLAYERS = CONTENT.max_players
TURN_SIZE = 2 + 4
HAND_SIZE = K + 1 + R
PILES_SIZE = 1 + K + K
UNSEEN_SIZE = K
PLAYER_SIZE = 3 + K
OBSERVATION_SIZE = TURN_SIZE + HAND_SIZE + PILES_SIZE + UNSEEN_SIZE + MAX_PLAYERS * PLAYER_SIZE
COUNTS = tuple(entry.count for entry in CONTENT.deck)


def id_to_action(action_id: int) -> pb.Action:
    """The structured action of an id (ids are the same for every seat)."""
    if action_id == LAYOUT.draw_from_deck:
        return pb.Action(draw_from_deck=pb.DrawFromDeck())
    if action_id == LAYOUT.take_discard:
        return pb.Action(take_discard=pb.TakeDiscard())
    return pb.Action(discard=pb.Discard(course=COURSES[action_id - LAYOUT.discard_base]))


def action_to_id(action: Any) -> int | None:
    """The id of a structured action, or None when no id expresses it (a discard of no course)."""
    kind = action.WhichOneof("kind")
    if kind == "draw_from_deck":
        return LAYOUT.draw_from_deck
    if kind == "take_discard":
        return LAYOUT.take_discard
    if kind == "discard":
        index = COURSE_INDEX.get(action.discard.course)
        return None if index is None else LAYOUT.discard_base + index
    return None


def unseen_counts(view: Any) -> list[int]:
    """Cards of each course the viewer has not seen: in the deck or in the unknown part of the
    others' hands (the whole deck less own hand, discard pile and the others' known cards)."""
    unseen = list(COUNTS)
    viewer = view.core.viewer
    for course in view.discard_pile:
        unseen[COURSE_INDEX[course]] -= 1
    for player in view.players:
        mine = player.seat == viewer
        counts = player.hand if mine else player.known
        for k in range(K):
            unseen[k] -= counts[k]
    return unseen


# `observation` joins the float32 bytes of these precomputed runs in layout order
# (services/rules/float_runs.py: each value the layout's float64 expression rounded once to float32).


# Hands, known cards, the pile and the unseen cards are read course by course, unrolled in
# `observation`: Course has three.
if K != 3:
    raise ValueError("content: the card game's observation expects the three courses")
# No card count exceeds the deck, and no score the deck's cards times the best recipe's points.
_MOST = DECK_SIZE * max([1, *(recipe.points for recipe in CONTENT.recipes)])
_PER_MAX_HAND = [floats(c / MAX_HAND) for c in range(_MOST + 1)]  # [count or score]
_PER_DECK = [floats(c / DECK_SIZE) for c in range(DECK_SIZE + 1)]  # [count]


def _pile_shares() -> list[bytes]:
    """[cards of a course on the pile]: 1 / deck added to a float32 zero once per card (the layout's
    running sum, which can round differently from count / deck)."""
    total = np.zeros(1, dtype=np.float32)
    shares = []
    for _ in range(DECK_SIZE + 1):
        shares.append(total.tobytes())
        total[0] += 1.0 / DECK_SIZE
    return shares


@functools.lru_cache(maxsize=4096)
def _rounds_run(round_: int, rounds_limit: int) -> bytes:
    """turn: rounds played / limit, rounds left after this one / limit."""
    limit = float(max(rounds_limit, 1))
    return floats((round_ - 1) / limit, max(rounds_limit - round_, 0) / limit)


_PILE_SHARE = _pile_shares()
_PHASE = {phase: one_hot(phase - 1 if phase else None, 2) for phase in pb.Phase.values()}
_TOP_OF_PILE = {course: one_hot(k, K) for k, course in enumerate(COURSES)}
_EMPTY_PILE = one_hot(None, K)
_FLAG = (floats(0.0), floats(1.0))
_PRESENT_TO_MOVE = (floats(1.0, 0.0), floats(1.0, 1.0))  # players: present, to move [seat to move]
_NO_HAND = bytes(4 * HAND_SIZE)
_ABSENT_SEATS = [bytes(4 * PLAYER_SIZE * (MAX_PLAYERS - n)) for n in range(MAX_PLAYERS + 1)]  # [players]
_RECIPES = range(R)


def observation(view: Any) -> np.ndarray:
    """The layout of the module docstring, from the view's fields only (view.players holds every seat,
    in seat order; a table holds at most max_players)."""
    core = view.core
    viewer = core.viewer
    to_move = core.seat_to_move
    me = viewer if viewer > 0 else 0
    seats = view.players[:]
    players = seats[me:] + seats[:me] if me else seats  # relative seats 0, 1, ...
    pile = view.discard_pile[:]
    per_hand = _PER_MAX_HAND
    per_deck = _PER_DECK
    # turn
    runs = [
        _PHASE[view.phase],
        _FLAG[viewer >= 0 and to_move == viewer],
        _rounds_run(view.round, view.rounds_limit),
        _FLAG[view.clock_minutes > 0],
    ]
    # my hand
    mine: Any = None
    my_hand: Any = None
    if viewer >= 0:
        mine = seats[viewer]
        my_hand = mine.hand
        dishes = mine.dishes
        runs += (per_hand[my_hand[0]], per_hand[my_hand[1]], per_hand[my_hand[2]], per_hand[mine.score])
        for r in _RECIPES:
            runs.append(per_hand[dishes[r]])
    else:
        runs.append(_NO_HAND)
    # piles
    on_pile0, on_pile1, on_pile2 = pile.count(COURSES[0]), pile.count(COURSES[1]), pile.count(COURSES[2])
    runs += (
        per_deck[view.deck_size],
        _TOP_OF_PILE[pile[-1]] if pile else _EMPTY_PILE,
        _PILE_SHARE[on_pile0],
        _PILE_SHARE[on_pile1],
        _PILE_SHARE[on_pile2],
    )
    # players, collected before the unseen counts (as unseen_counts: the deck less the pile, the
    # viewer's hand and the others' known cards)
    unseen0, unseen1, unseen2 = COUNTS[0] - on_pile0, COUNTS[1] - on_pile1, COUNTS[2] - on_pile2
    seat_runs: list[bytes] = []
    for player in players:
        seat = player.seat
        known = player.known
        known0, known1, known2 = known[0], known[1], known[2]
        if seat == viewer:
            hand = my_hand if player is mine else player.hand
            unseen0, unseen1, unseen2 = unseen0 - hand[0], unseen1 - hand[1], unseen2 - hand[2]
        else:
            unseen0, unseen1, unseen2 = unseen0 - known0, unseen1 - known1, unseen2 - known2
        seat_runs += (
            _PRESENT_TO_MOVE[to_move == seat],
            per_hand[player.hand_size],
            per_hand[known0],
            per_hand[known1],
            per_hand[known2],
        )
    # unseen
    runs += (per_deck[unseen0], per_deck[unseen1], per_deck[unseen2])
    # players, then the seats past the table
    runs += seat_runs
    runs.append(_ABSENT_SEATS[len(seats)])
    return np.frombuffer(bytearray(b"".join(runs)), np.float32)
