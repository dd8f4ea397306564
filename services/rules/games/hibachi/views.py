"""What a seat sees (its view), the observation tensor computed from that view alone, and the
redraw of everything a seat cannot know (others' hands, the recipe deck and others' reserves, the
values of others' face-down chips)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from services.rules.engine import core_view
from services.rules.games.hibachi.content import (
    ACTION_SPACE,
    BOARD,
    CHILI,
    CHIP_VALUES,
    CHIPS_PER_SEAT,
    CONTENT,
    LAYOUT,
    SKILL_SPREADS,
    SPACE_INGREDIENT,
    card_count,
)
from services.rules.games.hibachi.geometry import spaces_of
from services.rules.games.hibachi.table import RECIPE_KINDS, seat_slots, throws_left
from services.rules.random_source import RandomSource
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb

MAX_PLAYERS = CONTENT.max_players
V, S, K, R = LAYOUT.values, LAYOUT.spaces, LAYOUT.kinds, LAYOUT.recipes
STATUSES = (pb.CHIP_STATUS_IN_SUPPLY, pb.CHIP_STATUS_ON_BOARD, pb.CHIP_STATUS_INVALID, pb.CHIP_STATUS_USED)
IN_SUPPLY = pb.CHIP_STATUS_IN_SUPPLY
NOT_ARRIVED = 1 << 30

# The observation's blocks, in order (as in docs/rules/hibachi.md, "Observation"):
# 1. global: phase one-hot (2), round / max rounds, viewer to move, piles / count (K), deck / R;
GLOBAL_SIZE = 2 + 1 + 1 + K + 1
# 2. a block per seat, viewer first: present, money, hand size, recipes cooked, reserve size, head
#    chef, next head chef, throw spread, throws left, to move;
PLAYER_SIZE = 10
# 3. the viewer's own hand, by kind (K);
# 4. a row per recipe: on show, in own reserve, cooked by each relative seat;
RECIPE_SIZE = 2 + MAX_PLAYERS
# 5. a row per chip, V chips per relative seat in view order: present, status one-hot, x, y, value
#    known, value one-hot (V), spaces under the hole (S).
CHIP_SIZE = 1 + len(STATUSES) + 2 + 1 + V + S
# 6. the plan outlook, a function of the blocks above given to the network ready-made (as Grill
#    Party's exchange outlook; see `plan_outlook`): the cheapest plan's missing cards by kind (K), the
#    cards it leaves spare by kind (K), its recipes (R), its cost; then the viewer's chips on the
#    board and not yet activated: how many lie on each kind's ingredient space (K), and on Bonus
#    ingredient.
OUTLOOK_SIZE = K + K + R + 1 + K + 1
OBSERVATION_SIZE = (GLOBAL_SIZE + MAX_PLAYERS * PLAYER_SIZE + K + R * RECIPE_SIZE + MAX_PLAYERS * V * CHIP_SIZE
                    + OUTLOOK_SIZE)

# Offsets: of block 1's piles and deck, of the blocks 2-5, of each kind in the hand, of the ones in
# the recipe rows (by recipe, and for cooked by relative seat), and within a chip row.
PILES_AT = range(4, 4 + K)
DECK_AT = 4 + K
PLAYERS_AT = GLOBAL_SIZE
HAND_AT = PLAYERS_AT + MAX_PLAYERS * PLAYER_SIZE
RECIPES_AT = HAND_AT + K
CHIPS_AT = RECIPES_AT + R * RECIPE_SIZE
OUTLOOK_AT = CHIPS_AT + MAX_PLAYERS * V * CHIP_SIZE
LACKS_AT = OUTLOOK_AT
SPARE_AT = LACKS_AT + K
PLANNED_AT = SPARE_AT + K
PLAN_COST_AT = PLANNED_AT + R
CHIPS_ON_KIND_AT = PLAN_COST_AT + 1
CHIPS_ON_BONUS_AT = CHIPS_ON_KIND_AT + K
KIND_AT = range(HAND_AT, HAND_AT + K)
SHOW_AT = [RECIPES_AT + recipe * RECIPE_SIZE for recipe in range(R)]
RESERVED_AT = [at + 1 for at in SHOW_AT]
COOKED_AT = [[at + 2 + rel for at in SHOW_AT] for rel in range(MAX_PLAYERS)]
SEAT_CHIPS_SIZE = V * CHIP_SIZE
STATUS_OFFSET = {status: 1 + index for index, status in enumerate(STATUSES)}
X_AT = 1 + len(STATUSES)
Y_AT = X_AT + 1
KNOWN_AT = Y_AT + 1
VALUES_AT = KNOWN_AT + 1
SPACES_AT = VALUES_AT + V

# By table size n and viewer me (the spectator as seat 0): the seats by relative seat (rel, seat),
# viewer first, and the first chip row of each seat's block, by seat.
SEATS_FROM = [[[(rel, (me + rel) % n) for rel in range(n)] for me in range(n)] for n in range(MAX_PLAYERS + 1)]
FIRST_CHIP_ROW = [
    [[CHIPS_AT + ((seat - me) % n) * SEAT_CHIPS_SIZE for seat in range(n)] for me in range(n)]
    for n in range(MAX_PLAYERS + 1)
]

# Scales: the same Python numbers as ever, so each quotient is a float64 rounded once to float32.
MAX_ROUNDS = CONTENT.max_rounds
MONEY_SCALE = 10.0 * CONTENT.start_money
HAND_SCALE = CONTENT.cards_per_ingredient * 2
RECIPES_TO_WIN = CONTENT.recipes_to_win
RECIPES_ON_SHOW = CONTENT.recipes_on_show
SPREAD_SCALE = max(SKILL_SPREADS.values())
BOARD_WIDTH, BOARD_HEIGHT = BOARD.width, BOARD.height
VALUE_INDEX = {value: index for index, value in enumerate(CHIP_VALUES)}
CARD_COUNTS = [card_count(k) for k in range(K)]
# The plan outlook's weights, in cards: a recipe on show may be cooked by another chef first, and a
# recipe not known yet costs its three cards and finding it.
SHOW_RISK = 0.35
UNKNOWN_RECIPE = 3.6
PLAN_COST_SCALE = RECIPES_TO_WIN * (UNKNOWN_RECIPE + 1)
CHILI_NEED = CONTENT.chili_per_ingredient
BONUS_SPACE = ACTION_SPACE[pb.SPACE_KIND_BONUS_INGREDIENT]
# Where the outlook counts a chip of the viewer's over a space: Bonus ingredient, or its kind's space.
CHIPS_UNDER_AT = {space: CHIPS_ON_KIND_AT + kind for space, kind in SPACE_INGREDIENT.items()}
CHIPS_UNDER_AT[BONUS_SPACE] = CHIPS_ON_BONUS_AT
ON_BOARD = pb.CHIP_STATUS_ON_BOARD


def _chip_row(status: int, value: int | None) -> memoryview:
    """A chip row up to its spaces, x and y left 0: present, status, and value known and value
    unless the value is None (hidden)."""
    row = np.zeros(SPACES_AT, dtype=np.float32)
    row[0] = row[STATUS_OFFSET[status]] = 1.0
    if value is not None:
        row[KNOWN_AT] = row[VALUES_AT + VALUE_INDEX[value]] = 1.0
    return row.data


# CHIP_ROWS[status][value]: a chip row's first SPACES_AT floats, copied in one go. A view's hidden
# value reads 0 (unset); no chip is worth 0, so value 0 keys the row of a hidden value.
if 0 in VALUE_INDEX:
    raise ValueError("the observation reads a chip value of 0 as hidden")
CHIP_ROWS = {status: {value: _chip_row(status, value or None) for value in [0, *CHIP_VALUES]} for status in STATUSES}


def allocate(hand: Sequence[int], recipes: Sequence[int]) -> tuple[int, list[list[int]], list[int]]:
    """Cards still missing for cooking every recipe of `recipes` (in that order) from `hand`, the
    missing kinds of each recipe, and the cards left over by kind; two chili stand in for one
    missing kind per recipe."""
    left = list(hand)
    total = 0
    missing_by: list[list[int]] = []
    for recipe in recipes:
        missing = []
        for k in RECIPE_KINDS[recipe]:
            if left[k] > 0:
                left[k] -= 1
            else:
                missing.append(k)
        if missing and left[CHILI] >= CHILI_NEED:
            left[CHILI] -= CHILI_NEED
            missing.pop()
        total += len(missing)
        missing_by.append(missing)
    return total, missing_by, left


@lru_cache(maxsize=1 << 16)
def plan_outlook(hand: tuple[int, ...], need: int, show: tuple[int, ...],
                 reserve: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], float]:
    """The cheapest way to cook `need` more recipes from `hand` with the recipes known (on show, in
    the own reserve; those missing are recipes not seen yet): the cards it still lacks by kind, the
    cards it leaves over by kind, its known recipes, and its cost (missing cards, plus a cook for
    each known recipe, plus the risk of recipes on show and a price for each recipe not yet seen).
    Recipes take their cards from the hand easiest first; two chili stand in for one missing card
    per recipe."""
    known = [(r, SHOW_RISK) for r in show] + [(r, 0.0) for r in reserve]
    size = min(max(need, 0), len(known))
    unknown = (max(need, 0) - size) * UNKNOWN_RECIPE
    best: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], float] = ((0,) * K, hand, (), float(unknown))
    best_cost = float("inf")
    for chosen in itertools.combinations(known, size):
        order = sorted(chosen, key=lambda item: sum(1 for k in RECIPE_KINDS[item[0]] if hand[k] < 1))
        missing_total, missing_by, left = allocate(hand, [r for r, _ in order])
        lacks = [0] * K
        for missing in missing_by:
            for k in missing:
                lacks[k] += 1
        cost = missing_total + size + sum(risk for _, risk in order) + unknown
        if cost < best_cost:
            best_cost = cost
            best = (tuple(lacks), tuple(left), tuple(r for r, _ in order), cost)
    return best


@lru_cache(maxsize=1 << 16)
def _plan_run(hand: tuple[int, ...], need: int, show: tuple[int, ...], reserve: tuple[int, ...]) -> memoryview:
    """Block 6 up to the chips on the board: the plan outlook's lacks, spare cards, recipes and cost."""
    lacks, spare, planned, cost = plan_outlook(hand, need, show, reserve)
    run = np.zeros(CHIPS_ON_KIND_AT - LACKS_AT, dtype=np.float32)
    for k in range(K):
        run[k] = lacks[k] / RECIPES_TO_WIN
        run[K + k] = spare[k] / HAND_SCALE
    for recipe in planned:
        run[PLANNED_AT - LACKS_AT + recipe] = 1.0
    run[PLAN_COST_AT - LACKS_AT] = cost / PLAN_COST_SCALE
    return run.data


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
    spectator sees the table from seat 0). Written through a float32 memoryview of a zeroed array:
    a Python float stored there is rounded to float32 as numpy would round it, for the cost of a
    list item (numpy items, or a list turned into an array, cost far more); zeros need no write."""
    array = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    obs: Any = array.data  # a memoryview of float32 items (typeshed knows only bytes)
    core = view.core
    n = core.num_players
    viewer = core.viewer
    to_move = core.seat_to_move
    me = max(viewer, 0)
    players = view.players
    # 1. Global.
    phase = view.phase
    if phase:
        obs[phase - 1] = 1.0
    obs[2] = view.round / MAX_ROUNDS
    if to_move == viewer:
        obs[3] = 1.0
    for at, count, cards in zip(PILES_AT, view.piles[:], CARD_COUNTS, strict=True):
        obs[at] = count / cards
    obs[DECK_AT] = view.recipe_deck_size / R
    # 2. Seat blocks, viewer first; with each seat's cooked recipes (block 4, by relative seat).
    head_chef, next_head_chef = view.head_chef, view.next_head_chef
    at = PLAYERS_AT
    recipes_to_cook = RECIPES_TO_WIN
    for rel, seat in SEATS_FROM[n][me]:
        p = players[seat]
        cooked = p.cooked[:]
        obs[at] = 1.0
        obs[at + 1] = p.money / MONEY_SCALE
        obs[at + 2] = p.hand_size / HAND_SCALE
        obs[at + 3] = len(cooked) / RECIPES_TO_WIN
        obs[at + 4] = p.reserve_size / RECIPES_ON_SHOW
        if head_chef == seat:
            obs[at + 5] = 1.0
        if next_head_chef == seat:
            obs[at + 6] = 1.0
        obs[at + 7] = p.throw_spread / SPREAD_SCALE
        obs[at + 8] = p.throws_left / CHIPS_PER_SEAT
        if to_move == seat:
            obs[at + 9] = 1.0
        at += PLAYER_SIZE
        if cooked:
            if seat == viewer:
                recipes_to_cook -= len(cooked)
            cooked_at = COOKED_AT[rel]
            for recipe in cooked:
                obs[cooked_at[recipe]] = 1.0
    # 3. Own hand; 4. recipes in own reserve and on show.
    on_show = view.recipes_on_show[:]
    hand: list[int] = []
    reserve: list[int] = []
    if viewer >= 0:
        mine = players[me]
        hand, reserve = mine.hand[:], mine.reserve[:]
        for at, count, cards in zip(KIND_AT, hand, CARD_COUNTS, strict=True):
            obs[at] = count / cards
        for recipe in reserve:
            obs[RESERVED_AT[recipe]] = 1.0
    for recipe in on_show:
        obs[SHOW_AT[recipe]] = 1.0
    # 5. Chips, each in its seat's next free row; counting the viewer's chips on the board by the
    # spaces under them (block 6).
    row = list(FIRST_CHIP_ROW[n][me])
    width, height = BOARD_WIDTH, BOARD_HEIGHT
    under_mine: list[int] = []
    for chip in view.chips[:]:
        owner = chip.owner
        j = row[owner]
        row[owner] = j + CHIP_SIZE
        status = chip.status
        obs[j : j + SPACES_AT] = CHIP_ROWS[status][chip.value]
        if status != IN_SUPPLY:
            obs[j + X_AT] = chip.x / width
            obs[j + Y_AT] = chip.y / height
            j += SPACES_AT
            spaces = chip.spaces[:]
            for space in spaces:
                obs[j + space] = 1.0
            if owner == viewer and status == ON_BOARD:
                under_mine += spaces
    # 6. The plan outlook (the viewer's own: nothing for the spectator).
    if viewer >= 0:
        obs[LACKS_AT:CHIPS_ON_KIND_AT] = _plan_run(tuple(hand), recipes_to_cook, tuple(sorted(on_show)),
                                                   tuple(sorted(reserve)))
        for space in under_mine:
            counter_at = CHIPS_UNDER_AT.get(space)
            if counter_at is not None:
                obs[counter_at] += 1.0 / V
    return array


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
