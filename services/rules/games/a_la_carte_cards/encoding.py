"""The numbers bots see: the action-id codec and the observation tensor, both from view fields only.

Observation (float32, one flat vector, seats relative to the viewer; a spectator reads as seat 0
with an empty hand):
  turn      phase one-hot (draw, serve, discard), viewer to move, rounds played / limit,
            rounds left after this one / limit, clock game, dishes served this turn / 7      3 + 5
  my hand   counts by course / 7, points of its best dishes / 7, those dishes by recipe / 7   C + 1 + D
  piles     deck size / deck, cards left to draw (deck and pile below its top) / deck,
            top of the discard pile one-hot, discard pile by course / deck                   2 + C + C
  unseen    cards of each course the viewer has not seen (content counts less own hand, discard
            pile, every known card of the others and every served dish) / deck               C
  players   per relative seat 0..max_players-1: present, to move, hand size / 7,
            known cards by course / 7, dishes served by recipe / max rounds,
            points served / max rounds                                                   max_players * (3 + C + D + 1)
  (C: NUM_COURSES, the courses; D: NUM_RECIPES, the recipes)
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
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
    NUM_COURSES,
    NUM_RECIPES,
)
from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb

MAX_PLAYERS = CONTENT.max_players
PHASES = (pb.PHASE_DRAW, pb.PHASE_SERVE, pb.PHASE_DISCARD)  # the one-hot's order
TURN_SIZE = len(PHASES) + 5
HAND_SIZE = NUM_COURSES + 1 + NUM_RECIPES
PILES_SIZE = 2 + NUM_COURSES + NUM_COURSES
UNSEEN_SIZE = NUM_COURSES
PLAYER_SIZE = 3 + NUM_COURSES + NUM_RECIPES + 1
OBSERVATION_SIZE = TURN_SIZE + HAND_SIZE + PILES_SIZE + UNSEEN_SIZE + MAX_PLAYERS * PLAYER_SIZE
COUNTS = tuple(entry.count for entry in CONTENT.deck)
# What each recipe takes, by course (content order).
RECIPE_CARDS = tuple(tuple(sum(1 for c in recipe.courses if c == course) for course in COURSES)
                     for recipe in CONTENT.recipes)
# Served dishes are scaled by the longest round timer: a seat rarely serves more than a dish a turn.
SERVED_SCALE = float(CONTENT.max_rounds)


def id_to_action(action_id: int) -> pb.Action:
    """The structured action of an id (ids are the same for every seat)."""
    if action_id == LAYOUT.draw_from_deck:
        return pb.Action(draw_from_deck=pb.DrawFromDeck())
    if action_id == LAYOUT.take_discard:
        return pb.Action(take_discard=pb.TakeDiscard())
    if action_id == LAYOUT.done_serving:
        return pb.Action(done_serving=pb.DoneServing())
    if LAYOUT.serve_base <= action_id < LAYOUT.done_serving:
        return pb.Action(serve=pb.Serve(recipe=action_id - LAYOUT.serve_base))
    return pb.Action(discard=pb.Discard(course=COURSES[action_id - LAYOUT.discard_base]))


def action_to_id(action: Any) -> int | None:
    """The id of a structured action, or None when no id expresses it (a discard of no course, a
    recipe the content does not hold)."""
    kind = action.WhichOneof("kind")
    if kind == "draw_from_deck":
        return LAYOUT.draw_from_deck
    if kind == "take_discard":
        return LAYOUT.take_discard
    if kind == "serve":
        recipe = action.serve.recipe
        return LAYOUT.serve_base + recipe if 0 <= recipe < NUM_RECIPES else None
    if kind == "done_serving":
        return LAYOUT.done_serving
    if kind == "discard":
        index = COURSE_INDEX.get(action.discard.course)
        return None if index is None else LAYOUT.discard_base + index
    return None


def unseen_counts(view: Any) -> list[int]:
    """Cards of each course the viewer has not seen: in the deck or in the unknown part of the
    others' hands (the whole deck less own hand, discard pile, the others' known cards and every
    dish served)."""
    unseen = list(COUNTS)
    viewer = view.core.viewer
    for course in view.discard_pile:
        unseen[COURSE_INDEX[course]] -= 1
    for player in view.players:
        counts = player.hand if player.seat == viewer else player.known
        served = player.served
        for k in range(NUM_COURSES):
            unseen[k] -= counts[k]
        for r in range(NUM_RECIPES):
            if served[r]:
                for k in range(NUM_COURSES):
                    unseen[k] -= served[r] * RECIPE_CARDS[r][k]
    return unseen


# `observation` joins the float32 bytes of these precomputed runs in layout order
# (services/rules/float_runs.py: each value the layout's float64 expression rounded once to float32);
# the runs of a seat, of the turn and of card counts are made once and kept (lru caches, bounded), so
# a decision mostly looks runs up: it is on a bot's hot path (`make bench`, policy decision).
# No card count exceeds the deck, and no score the deck's cards times the best recipe's points.
_MOST = DECK_SIZE * max([1, *(recipe.points for recipe in CONTENT.recipes)])
_PER_MAX_HAND = [floats(c / MAX_HAND) for c in range(_MOST + 1)]  # [count or points]
_PER_DECK = [floats(c / DECK_SIZE) for c in range(DECK_SIZE + 1)]  # [count]
_PER_SERVED = [floats(c / SERVED_SCALE) for c in range(_MOST + 1)]  # [dishes or points served]
_PHASE = {phase: one_hot(PHASES.index(phase) if phase in PHASES else None, len(PHASES))
          for phase in pb.Phase.values()}
_TOP_OF_PILE = {course: one_hot(k, NUM_COURSES) for k, course in enumerate(COURSES)}
_EMPTY_PILE = one_hot(None, NUM_COURSES)
_FLAG = (floats(0.0), floats(1.0))
_PRESENT_TO_MOVE = (floats(1.0, 0.0), floats(1.0, 1.0))  # players: present, to move [seat to move]
_NO_HAND = bytes(4 * HAND_SIZE)
_ABSENT_SEATS = [bytes(4 * PLAYER_SIZE * (MAX_PLAYERS - n)) for n in range(MAX_PLAYERS + 1)]  # [players]
_COURSES = range(NUM_COURSES)
_RECIPES = range(NUM_RECIPES)


@functools.lru_cache(maxsize=4096)
def _turn_run(phase: int, viewer_to_move: bool, round_: int, rounds_limit: int, clock_game: bool,
              dishes_served: int) -> bytes:
    """turn: phase one-hot, viewer to move, rounds played / limit, rounds left after this one / limit,
    clock game, dishes served this turn / 7."""
    limit = float(max(rounds_limit, 1))
    return b"".join([_PHASE[phase], _FLAG[viewer_to_move],
                     floats((round_ - 1) / limit, max(rounds_limit - round_, 0) / limit),
                     _FLAG[clock_game], _PER_MAX_HAND[dishes_served]])


# Per-course card counts packed into one int, a 16-bit lane per course (content order), so a seat's
# cards add up with one addition; no count reaches 2**16.
_LANE = 16
_LANE_MASK = (1 << _LANE) - 1
_SHIFTS = tuple(_LANE * k for k in _COURSES)


def _packed(counts: Sequence[int]) -> int:
    return sum(map(operator.lshift, counts, _SHIFTS))


_RECIPE_PACKED = tuple(_packed(cards) for cards in RECIPE_CARDS)  # [recipe]: its cards, packed


@functools.lru_cache(maxsize=8192)
def _player_rows(player_bytes: bytes) -> tuple[bytes, bytes, int, int, bytes]:
    """What one serialized PlayerView adds to the observation: its players run (not to move, to
    move); the cards it takes out of the unseen counts (packed) as another's seat (its known cards
    and served dishes) and as the viewer's own (its hand and served dishes); its my-hand run.

    Keyed by the message's bytes, so a worker deciding over a match (where most seats are as they
    were at its last decision) reads each seat's fields once; a PlayerView has no map fields, so equal
    messages serialize alike."""
    player = pb.PlayerView.FromString(player_bytes)
    known, hand, served = player.known[:], player.hand[:], player.served[:]
    per_hand = _PER_MAX_HAND.__getitem__
    per_served = _PER_SERVED.__getitem__
    rest = b"".join([per_hand(player.hand_size), *map(per_hand, known), *map(per_served, served),
                     per_served(player.served_points)])
    served_cards = sum(map(operator.mul, served, _RECIPE_PACKED))
    my_hand = b""
    if hand:  # filled in the owner's own view (and for all once the game is over)
        my_hand = b"".join([*map(per_hand, hand), per_hand(player.score - player.served_points),
                            *map(per_hand, player.dishes)])
    return (_PRESENT_TO_MOVE[0] + rest, _PRESENT_TO_MOVE[1] + rest, _packed(known) + served_cards,
            _packed(hand) + served_cards, my_hand)


@functools.lru_cache(maxsize=8192)
def _counts_run(packed: int) -> bytes:
    """Card counts by course (packed) / deck, the run of the piles and unseen parts."""
    return b"".join([_PER_DECK[(packed >> shift) & _LANE_MASK] for shift in _SHIFTS])


_SERIALIZE = pb.PlayerView.SerializeToString
_IDLE_RUN, _TO_MOVE_RUN, _AS_OTHER, _AS_MINE, _MY_HAND = (operator.itemgetter(k) for k in range(5))  # of a _player_rows
_COUNTS_PACKED = _packed(COUNTS)


def observation(view: Any) -> np.ndarray:
    """The layout of the module docstring, from the view's fields only (view.players holds every seat,
    in seat order; a table holds at most max_players). Each seat's part comes from `_player_rows`."""
    core = view.core
    viewer = core.viewer
    to_move = core.seat_to_move
    rows = list(map(_player_rows, map(_SERIALIZE, view.players)))
    count = len(rows)
    pile = view.discard_pile[:]
    per_deck = _PER_DECK
    deck_size = view.deck_size
    on_pile = _packed(list(map(pile.count, COURSES)))
    # unseen: the deck less the pile, the viewer's hand, the others' known cards and every dish served
    unseen = _COUNTS_PACKED - on_pile - sum(map(_AS_OTHER, rows))
    if viewer >= 0:
        unseen -= _AS_MINE(rows[viewer]) - _AS_OTHER(rows[viewer])
    # players from the viewer's seat on (a spectator reads as seat 0), then the seats past the table
    me = viewer if viewer > 0 else 0
    players = list(map(_IDLE_RUN, rows[me:] + rows[:me] if me else rows))
    if 0 <= to_move < count:
        players[(to_move - me) % count] = _TO_MOVE_RUN(rows[to_move])
    return np.frombuffer(bytearray(b"".join([
        # turn
        _turn_run(view.phase, viewer >= 0 and to_move == viewer, view.round, view.rounds_limit,
                  view.clock_minutes > 0, view.dishes_served_this_turn),
        # my hand
        _MY_HAND(rows[viewer]) if viewer >= 0 else _NO_HAND,
        # piles
        per_deck[deck_size],
        per_deck[deck_size + max(len(pile) - 1, 0)],
        _TOP_OF_PILE[pile[-1]] if pile else _EMPTY_PILE,
        _counts_run(on_pile),
        # unseen
        _counts_run(unseen),
        *players,
        _ABSENT_SEATS[count],
    ])), np.float32)
