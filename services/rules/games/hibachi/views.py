"""What a seat sees (its view), the observation tensor computed from that view alone, and the
redraw of everything a seat cannot know (others' hands, the recipe deck and others' reserves, the
values of others' face-down chips)."""

from __future__ import annotations

from typing import Any

import numpy as np

from services.rules.engine import core_view
from services.rules.games.hibachi.content import (
    BOARD,
    CHIP_VALUES,
    CHIPS_PER_SEAT,
    CONTENT,
    LAYOUT,
    SKILL_SPREADS,
    card_count,
)
from services.rules.games.hibachi.geometry import spaces_of
from services.rules.games.hibachi.table import seat_slots, throws_left
from services.rules.random_source import RandomSource
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb

MAX_PLAYERS = CONTENT.max_players
V, S, K, R = LAYOUT.values, LAYOUT.spaces, LAYOUT.kinds, LAYOUT.recipes
STATUSES = (pb.CHIP_STATUS_IN_SUPPLY, pb.CHIP_STATUS_ON_BOARD, pb.CHIP_STATUS_INVALID, pb.CHIP_STATUS_USED)
# The observation's blocks, in order.
GLOBAL_SIZE = 2 + 1 + 1 + K + 1
PLAYER_SIZE = 10
RECIPE_SIZE = 2 + MAX_PLAYERS
CHIP_SIZE = 1 + len(STATUSES) + 2 + 1 + V + S
OBSERVATION_SIZE = GLOBAL_SIZE + MAX_PLAYERS * PLAYER_SIZE + K + R * RECIPE_SIZE + MAX_PLAYERS * V * CHIP_SIZE
MONEY_SCALE = 10.0 * CONTENT.start_money
SPREAD_SCALE = max(SKILL_SPREADS.values())
NOT_ARRIVED = 1 << 30
STATUS_OFFSET = {status: 1 + index for index, status in enumerate(STATUSES)}
VALUE_INDEX = {value: index for index, value in enumerate(CHIP_VALUES)}
CARD_COUNTS = [card_count(k) for k in range(K)]


def public_chip_order(chips: Any, seat: int) -> list[Any]:
    """A seat's chips in the order every viewer may know: by arrival on the board this round, then
    those still in the supply. (Slot order itself follows the values, which are hidden.)"""
    keyed = []
    for slot in seat_slots(seat):
        chip = chips[slot]
        arrival = chip.arrival
        keyed.append((arrival if arrival >= 0 else NOT_ARRIVED, slot, chip))
    keyed.sort(key=lambda item: item[:2])
    return [chip for _, _, chip in keyed]


def make_view(state: Any, seat: int) -> pb.View:
    view = pb.View(
        core=core_view(state, seat),
        piles=state.piles,
        recipe_deck_size=len(state.recipe_deck),
        recipes_on_show=state.recipes_on_show,
        phase=state.phase,
        round=state.round,
        head_chef=state.head_chef,
        next_head_chef=state.next_head_chef,
    )
    chips = state.chips
    add_player, add_chip = view.players.add, view.chips.add
    for other, player in enumerate(state.players):
        pv = add_player(
            seat=other,
            money=player.money,
            hand_size=sum(player.hand),
            cooked=player.cooked,
            reserve_size=len(player.reserve),
            skill=player.skill,
            throw_spread=player.throw_spread,
            throws_left=throws_left(state, other),
        )
        if other == seat:
            pv.hand.extend(player.hand)
            pv.reserve.extend(player.reserve)
        for chip in public_chip_order(chips, other):
            status, face_up = chip.status, chip.face_up
            if status == pb.CHIP_STATUS_IN_SUPPLY:
                cv = add_chip(owner=other, status=status, face_up=face_up, arrival=chip.arrival)
            else:
                cv = add_chip(
                    owner=other,
                    status=status,
                    x=chip.x,
                    y=chip.y,
                    face_up=face_up,
                    spaces=spaces_of(chip.space_bits),
                    arrival=chip.arrival,
                )
            if face_up or other == seat:
                cv.value = CHIP_VALUES[chip.value_index]
    return view


def observation(view: Any) -> np.ndarray:
    """The tensor of a view, relative to the viewer (seat 0 of the tensor is the viewer; the
    spectator sees the table from seat 0). Filled as a list first: far cheaper than numpy items."""
    obs = [0.0] * OBSERVATION_SIZE
    n = view.core.num_players
    me = max(view.core.viewer, 0)
    i = 0
    if view.phase:
        obs[i + view.phase - 1] = 1.0
    obs[i + 2] = view.round / CONTENT.max_rounds
    obs[i + 3] = 1.0 if view.core.seat_to_move == view.core.viewer else 0.0
    for k, count in enumerate(view.piles):
        obs[i + 4 + k] = count / CARD_COUNTS[k]
    obs[i + 4 + K] = view.recipe_deck_size / R
    i += GLOBAL_SIZE
    players = view.players
    for rel in range(n):
        seat = (me + rel) % n
        p = players[seat]
        obs[i + rel * PLAYER_SIZE : i + (rel + 1) * PLAYER_SIZE] = (
            1.0,
            p.money / MONEY_SCALE,
            p.hand_size / (CONTENT.cards_per_ingredient * 2),
            len(p.cooked) / CONTENT.recipes_to_win,
            p.reserve_size / CONTENT.recipes_on_show,
            1.0 if view.head_chef == seat else 0.0,
            1.0 if view.next_head_chef == seat else 0.0,
            p.throw_spread / SPREAD_SCALE,
            p.throws_left / CHIPS_PER_SEAT,
            1.0 if view.core.seat_to_move == seat else 0.0,
        )
    i += MAX_PLAYERS * PLAYER_SIZE
    if view.core.viewer >= 0:
        for k, count in enumerate(players[me].hand):
            obs[i + k] = count / CARD_COUNTS[k]
    i += K
    for recipe in view.recipes_on_show:
        obs[i + recipe * RECIPE_SIZE] = 1.0
    if view.core.viewer >= 0:
        for recipe in players[me].reserve:
            obs[i + recipe * RECIPE_SIZE + 1] = 1.0
    for seat, p in enumerate(players):
        rel = (seat - me) % n
        for recipe in p.cooked:
            obs[i + recipe * RECIPE_SIZE + 2 + rel] = 1.0
    i += R * RECIPE_SIZE
    per_seat = [0] * n
    width, height = BOARD.width, BOARD.height
    for chip in view.chips:
        owner = chip.owner
        j = i + (((owner - me) % n) * V + per_seat[owner]) * CHIP_SIZE
        per_seat[owner] += 1
        obs[j] = 1.0
        status = chip.status
        obs[j + STATUS_OFFSET[status]] = 1.0
        j += 1 + len(STATUSES)
        if status != pb.CHIP_STATUS_IN_SUPPLY:
            obs[j] = chip.x / width
            obs[j + 1] = chip.y / height
            for space in chip.spaces:
                obs[j + 3 + V + space] = 1.0
        if chip.HasField("value"):
            obs[j + 2] = 1.0
            obs[j + 3 + VALUE_INDEX[chip.value]] = 1.0
    return np.array(obs, dtype=np.float32)


def resample_hidden(state: Any, seat: int, rng: RandomSource) -> Any:
    sample = pb.State()
    sample.CopyFrom(state)
    sample.core.random.counter = rng.next_u64()
    others = [p for p in range(state.core.num_players) if p != seat]
    # Others' hands: the cards they hold together, dealt back in the same hand sizes.
    pool = [k for p in others for k, count in enumerate(sample.players[p].hand) for _ in range(count)]
    rng.shuffle(pool)
    for p in others:
        size = sum(sample.players[p].hand)
        hand = [0] * K
        for k in pool[:size]:
            hand[k] += 1
        del pool[:size]
        sample.players[p].hand[:] = hand
    # The recipe deck and others' private reserves.
    recipes = list(sample.recipe_deck) + [r for p in others for r in sample.players[p].reserve]
    rng.shuffle(recipes)
    for p in others:
        size = len(sample.players[p].reserve)
        sample.players[p].reserve[:] = recipes[:size]
        del recipes[:size]
    sample.recipe_deck[:] = recipes
    # Which of another seat's face-down chips is which: the chips (by value) trade places.
    for p in others:
        hidden = [sample.chips[slot] for slot in seat_slots(p) if not sample.chips[slot].face_up]
        places = [(c.status, c.x, c.y, c.space_bits, c.arrival) for c in hidden]
        rng.shuffle(places)
        for chip, (status, x, y, bits, arrival) in zip(hidden, places, strict=True):
            chip.status, chip.x, chip.y, chip.space_bits, chip.arrival = status, x, y, bits, arrival
    return sample
