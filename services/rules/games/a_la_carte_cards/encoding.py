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
# (services/rules/float_runs.py: each value the layout's float64 expression rounded once to float32).
# No card count exceeds the deck, and no score the deck's cards times the best recipe's points.
_MOST = DECK_SIZE * max([1, *(recipe.points for recipe in CONTENT.recipes)])
_PER_MAX_HAND = [floats(c / MAX_HAND) for c in range(_MOST + 1)]  # [count or points]
_PER_DECK = [floats(c / DECK_SIZE) for c in range(DECK_SIZE + 1)]  # [count]
_PER_SERVED = [floats(c / SERVED_SCALE) for c in range(_MOST + 1)]  # [dishes or points served]


@functools.lru_cache(maxsize=4096)
def _rounds_run(round_: int, rounds_limit: int) -> bytes:
    """turn: rounds played / limit, rounds left after this one / limit."""
    limit = float(max(rounds_limit, 1))
    return floats((round_ - 1) / limit, max(rounds_limit - round_, 0) / limit)


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
    per_served = _PER_SERVED
    # turn
    runs = [
        _PHASE[view.phase],
        _FLAG[viewer >= 0 and to_move == viewer],
        _rounds_run(view.round, view.rounds_limit),
        _FLAG[view.clock_minutes > 0],
        per_hand[view.dishes_served_this_turn],
    ]
    # my hand
    mine: Any = None
    if viewer >= 0:
        mine = seats[viewer]
        hand = mine.hand
        dishes = mine.dishes
        runs += [per_hand[hand[k]] for k in _COURSES]
        runs.append(per_hand[mine.score - mine.served_points])
        runs += [per_hand[dishes[r]] for r in _RECIPES]
    else:
        runs.append(_NO_HAND)
    # piles
    on_pile = [pile.count(course) for course in COURSES]
    runs += (
        per_deck[view.deck_size],
        per_deck[view.deck_size + max(len(pile) - 1, 0)],
        _TOP_OF_PILE[pile[-1]] if pile else _EMPTY_PILE,
    )
    runs += [per_deck[on_pile[k]] for k in _COURSES]
    # players, collected before the unseen counts (as unseen_counts: the deck less the pile, the
    # viewer's hand, the others' known cards and every dish served)
    unseen = [COUNTS[k] - on_pile[k] for k in _COURSES]
    seat_runs: list[bytes] = []
    for player in players:
        seat = player.seat
        known = player.known
        served = player.served
        seen = mine.hand if player is mine else known
        for k in _COURSES:
            unseen[k] -= seen[k]
        for r in _RECIPES:
            if served[r]:
                cards = RECIPE_CARDS[r]
                for k in _COURSES:
                    unseen[k] -= served[r] * cards[k]
        seat_runs.append(_PRESENT_TO_MOVE[to_move == seat])
        seat_runs.append(per_hand[player.hand_size])
        seat_runs += [per_hand[known[k]] for k in _COURSES]
        seat_runs += [per_served[served[r]] for r in _RECIPES]
        seat_runs.append(per_served[player.served_points])
    # unseen
    runs += [per_deck[unseen[k]] for k in _COURSES]
    # players, then the seats past the table
    runs += seat_runs
    runs.append(_ABSENT_SEATS[len(seats)])
    return np.frombuffer(bytearray(b"".join(runs)), np.float32)
