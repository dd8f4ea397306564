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

from typing import Any

import numpy as np

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


def observation(view: Any) -> np.ndarray:
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    n = view.core.num_players
    viewer = view.core.viewer
    me = max(viewer, 0)
    limit = float(max(view.rounds_limit, 1))
    # turn
    if view.phase:
        obs[view.phase - 1] = 1.0
    obs[2] = 1.0 if viewer >= 0 and view.core.seat_to_move == viewer else 0.0
    obs[3] = (view.round - 1) / limit
    obs[4] = max(view.rounds_limit - view.round, 0) / limit
    obs[5] = 1.0 if view.clock_minutes > 0 else 0.0
    i = TURN_SIZE
    # my hand
    if viewer >= 0:
        mine = view.players[viewer]
        for k in range(K):
            obs[i + k] = mine.hand[k] / MAX_HAND
        obs[i + K] = mine.score / MAX_HAND
        for r in range(R):
            obs[i + K + 1 + r] = mine.dishes[r] / MAX_HAND
    i += HAND_SIZE
    # piles
    obs[i] = view.deck_size / DECK_SIZE
    if view.discard_pile:
        obs[i + 1 + COURSE_INDEX[view.discard_pile[-1]]] = 1.0
    for course in view.discard_pile:
        obs[i + 1 + K + COURSE_INDEX[course]] += 1.0 / DECK_SIZE
    i += PILES_SIZE
    # unseen
    for k, count in enumerate(unseen_counts(view)):
        obs[i + k] = count / DECK_SIZE
    i += UNSEEN_SIZE
    # players, relative to the viewer
    for rel in range(min(n, MAX_PLAYERS)):
        player = view.players[(me + rel) % n]
        j = i + rel * PLAYER_SIZE
        obs[j] = 1.0
        obs[j + 1] = 1.0 if view.core.seat_to_move == player.seat else 0.0
        obs[j + 2] = player.hand_size / MAX_HAND
        for k in range(K):
            obs[j + 3 + k] = player.known[k] / MAX_HAND
    return obs
