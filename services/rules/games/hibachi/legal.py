"""The legal action ids of the seat to move, for both steps of a round: listed in full, and checked
one at a time (the check reads only what the id names, so applying an action stays cheap)."""

from __future__ import annotations

from typing import Any

from services.rules.games.hibachi.cleaning import can_take_card
from services.rules.games.hibachi.content import (
    ACTION_SPACE,
    CHIP_VALUES,
    INGREDIENT_SPACE,
    LAYOUT,
    SPACE_INGREDIENT,
)
from services.rules.games.hibachi.geometry import spaces_of
from services.rules.games.hibachi.table import (
    chip_slot,
    cook_options,
    own_chips,
    placeable,
    seat_slots,
    space_cost,
)
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb

V, S, K, R, C = LAYOUT.values, LAYOUT.spaces, LAYOUT.kinds, LAYOUT.recipes, LAYOUT.cook_options
PLACE_SPACE = ACTION_SPACE[pb.SPACE_KIND_PLACE_CHIP]
BONUS_SPACE = ACTION_SPACE[pb.SPACE_KIND_BONUS_INGREDIENT]
RESERVE_SPACE = ACTION_SPACE[pb.SPACE_KIND_RESERVE_RECIPE]
HEAD_CHEF_SPACE = ACTION_SPACE[pb.SPACE_KIND_HEAD_CHEF]
PLACE_BIT, BONUS_BIT = 1 << PLACE_SPACE, 1 << BONUS_SPACE
RESERVE_BIT, HEAD_CHEF_BIT = 1 << RESERVE_SPACE, 1 << HEAD_CHEF_SPACE
IN_SUPPLY = pb.CHIP_STATUS_IN_SUPPLY
ON_BOARD = pb.CHIP_STATUS_ON_BOARD
# Every throw of a chip, and every placement of chip w by chip v: one per space, precomputed.
THROW_IDS = [[LAYOUT.throw(v, s) for s in range(S)] for v in range(V)]
PLACE_IDS = [[[LAYOUT.place(v, w, s) for s in range(S)] for w in range(V)] for v in range(V)]


def legal_ids(state: Any) -> list[int]:
    seat = state.core.seat_to_move
    if state.phase == pb.PHASE_THROWING:
        chips = state.chips
        ready = sorted(chips[slot].value_index for slot in seat_slots(seat) if chips[slot].status == IN_SUPPLY)
        ids: list[int] = []
        for v in ready:  # throw blocks are ordered by value, so this is ascending
            ids.extend(THROW_IDS[v])
        return ids
    return sorted(cleaning_ids(state, seat))


def space_costs(state: Any) -> list[int]:
    """What every space costs now: the yen shown by all the chips on it."""
    costs = [0] * S
    for chip in state.chips:
        if chip.status == ON_BOARD:
            value = CHIP_VALUES[chip.value_index]
            for space in spaces_of(chip.space_bits):
                costs[space] += value
    return costs


def cleaning_ids(state: Any, seat: int) -> list[int]:
    """Every way `seat` may activate one of its chips on the board."""
    player = state.players[seat]
    hand = player.hand
    mine = list(own_chips(state, seat))
    costs = space_costs(state)
    cookable = [
        (recipe, option)
        for recipe in [*state.recipes_on_show, *player.reserve]
        for option in cook_options(hand, recipe)
    ]
    ids = []
    for v, chip in mine:
        if chip.status != ON_BOARD:
            continue
        for space in spaces_of(chip.space_bits):
            if space in SPACE_INGREDIENT:
                kind = SPACE_INGREDIENT[space]
                if player.money >= costs[space] and can_take_card(state, kind):
                    ids.append(LAYOUT.buy(v, kind))
                if hand[kind] > 0:
                    ids.append(LAYOUT.sell(v, kind))
            elif space == PLACE_SPACE:
                for w, other in mine:
                    if placeable(other, chip):
                        ids.extend(PLACE_IDS[v][w])
            elif space == BONUS_SPACE:
                ids.extend(LAYOUT.bonus(v, kind) for kind in range(K) if can_take_card(state, kind))
            elif space == RESERVE_SPACE:
                if state.recipe_deck:
                    ids.append(LAYOUT.reserve(v))
            elif space == HEAD_CHEF_SPACE:
                ids.append(LAYOUT.head_chef(v))
        ids.extend(LAYOUT.cook(v, recipe, option) for recipe, option in cookable)
        ids.append(LAYOUT.nothing(v))
    return ids


def is_legal(state: Any, action_id: int) -> bool:
    """Whether one id is legal now; the same answer as `action_id in legal_ids(state)`."""
    if not 0 <= action_id < LAYOUT.size:
        return False
    seat = state.core.seat_to_move
    if action_id < LAYOUT.buy_base:
        v = (action_id - LAYOUT.throw_base) // S
        return state.phase == pb.PHASE_THROWING and state.chips[chip_slot(state, seat, v)].status == IN_SUPPLY
    if state.phase != pb.PHASE_CLEANING:
        return False
    player = state.players[seat]
    if action_id < LAYOUT.place_base:
        block, rest = divmod(action_id - LAYOUT.buy_base, V * K)
        v, kind = divmod(rest, K)
        chip = state.chips[chip_slot(state, seat, v)]
        if chip.status != ON_BOARD:
            return False
        if block == 2:  # bonus ingredient
            return bool(chip.space_bits & BONUS_BIT) and can_take_card(state, kind)
        space = INGREDIENT_SPACE[kind]
        if not chip.space_bits >> space & 1:
            return False
        if block == 0:  # buy
            return player.money >= space_cost(state, space) and can_take_card(state, kind)
        return player.hand[kind] > 0  # sell
    if action_id < LAYOUT.reserve_base:
        rest = (action_id - LAYOUT.place_base) // S
        v, w = divmod(rest, V)
        chip = state.chips[chip_slot(state, seat, v)]
        placed = state.chips[chip_slot(state, seat, w)]
        return chip.status == ON_BOARD and bool(chip.space_bits & PLACE_BIT) and placeable(placed, chip)
    if action_id < LAYOUT.cook_base:
        block, v = divmod(action_id - LAYOUT.reserve_base, V)
        chip = state.chips[chip_slot(state, seat, v)]
        if chip.status != ON_BOARD:
            return False
        if block == 0:
            return bool(chip.space_bits & RESERVE_BIT) and len(state.recipe_deck) > 0
        return bool(chip.space_bits & HEAD_CHEF_BIT)
    if action_id < LAYOUT.nothing_base:
        rest, option = divmod(action_id - LAYOUT.cook_base, C)
        v, recipe = divmod(rest, R)
        if state.chips[chip_slot(state, seat, v)].status != ON_BOARD:
            return False
        if recipe not in state.recipes_on_show and recipe not in player.reserve:
            return False
        return option in cook_options(player.hand, recipe)
    v = action_id - LAYOUT.nothing_base
    return state.chips[chip_slot(state, seat, v)].status == ON_BOARD

