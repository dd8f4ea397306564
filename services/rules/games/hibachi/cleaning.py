"""Step 2, cleaning the cooking area: what activating a chip does (buy, sell, an action space, cook,
or nothing), the run-out rule, and the chip's removal."""

from __future__ import annotations

from typing import Any

from services.rules.games.hibachi.content import (
    CHILI,
    CHIP_VALUES,
    CONTENT,
    INGREDIENT_SPACE,
    INGREDIENTS,
    ingredient_name,
    recipe_name,
    space_name,
)
from services.rules.games.hibachi.geometry import space_bits, spaces_of
from services.rules.games.hibachi.table import RECIPE_KINDS, chip_slot, space_cost
from sizzle.common.v1.common_pb2 import Event
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb


def hand_text(hand: Any) -> str:
    return ", ".join(f"{ingredient_name(k)} x{c}" for k, c in enumerate(hand) if c) or "nothing"


def take_card(state: Any, seat: int, kind: int, events: list[Event]) -> None:
    """Moves one card of `kind` from its pile into `seat`'s hand, applying the run-out rule first
    when the pile is used up: every hand is shown, and the chefs with the most of that kind put
    back half of theirs (rounded down)."""
    if state.piles[kind] == 0:
        shown = "; ".join(f"seat {p}: {hand_text(player.hand)}" for p, player in enumerate(state.players))
        most = max(player.hand[kind] for player in state.players)
        back = most // CONTENT.run_out_divisor
        text = f"the {ingredient_name(kind)} pile has run out; all hands are shown: {shown}"
        events.append(Event(seat=-1, text=text))
        for p, player in enumerate(state.players):
            if player.hand[kind] == most and back:
                player.hand[kind] -= back
                state.piles[kind] += back
                events.append(Event(seat=p, text=f"seat {p} puts {back} {ingredient_name(kind)} back"))
    state.piles[kind] -= 1
    state.players[seat].hand[kind] += 1


def can_take_card(state: Any, kind: int) -> bool:
    """Whether a card of `kind` can be had: from the pile, or from what the run-out rule puts back.
    (With the printed counts the run-out always puts one back, so this never reads a hidden hand
    to refuse.)"""
    if state.piles[kind] > 0:
        return True
    return max(player.hand[kind] for player in state.players) // CONTENT.run_out_divisor > 0


def buy(state: Any, seat: int, kind: int) -> list[Event]:
    space = INGREDIENT_SPACE[kind]
    cost = space_cost(state, space)
    events: list[Event] = []
    take_card(state, seat, kind, events)
    state.players[seat].money -= cost
    events.insert(0, Event(seat=seat, text=f"seat {seat} buys 1 {ingredient_name(kind)} for {cost} yen"))
    return events


def sell(state: Any, seat: int, kind: int) -> list[Event]:
    space = INGREDIENT_SPACE[kind]
    price = CONTENT.sell_multiplier * space_cost(state, space)
    player = state.players[seat]
    player.hand[kind] -= 1
    state.piles[kind] += 1
    player.money += price
    return [Event(seat=seat, text=f"seat {seat} sells 1 {ingredient_name(kind)} for {price} yen")]


def bonus_ingredient(state: Any, seat: int, kind: int) -> list[Event]:
    events: list[Event] = []
    take_card(state, seat, kind, events)
    events.insert(0, Event(seat=seat, text=f"seat {seat} takes a bonus {ingredient_name(kind)}"))
    return events


def place_chip(state: Any, seat: int, placed_index: int, x: float, y: float) -> list[Event]:
    """Puts one of the seat's chips face up with its centre at (x, y); it is laid down, not thrown,
    so it pushes nothing."""
    chip = state.chips[chip_slot(state, seat, placed_index)]
    chip.status = pb.CHIP_STATUS_ON_BOARD
    chip.x, chip.y = x, y
    chip.face_up = True
    chip.arrival = state.arrivals
    state.arrivals += 1
    chip.space_bits = space_bits(x, y)
    where = ", ".join(space_name(s) for s in spaces_of(chip.space_bits)) or "no space"
    value = CHIP_VALUES[placed_index]
    return [Event(seat=seat, text=f"seat {seat} places its {value} chip face up at ({x:.0f}, {y:.0f}), on {where}")]


def reserve_recipe(state: Any, seat: int) -> list[Event]:
    recipe = state.recipe_deck.pop(0)
    state.players[seat].reserve.append(recipe)
    return [
        Event(
            seat=seat,
            text=f"seat {seat} reserves the top recipe of the deck",
            secret_text=f"you reserve {recipe_name(recipe)}",
            secret_seat=seat,
        )
    ]


def take_head_chef(state: Any, seat: int) -> list[Event]:
    state.next_head_chef = seat
    return [Event(seat=seat, text=f"seat {seat} will be head chef next round")]


def cook(state: Any, seat: int, recipe: int, option: int) -> list[Event]:
    """Cooks a recipe on show or in the seat's reserve: its ingredients (two chili for the replaced
    one, if any) go back to the piles on the board."""
    player = state.players[seat]
    if recipe in state.recipes_on_show:
        state.recipes_on_show.remove(recipe)
    else:
        player.reserve.remove(recipe)
    for j, kind in enumerate(RECIPE_KINDS[recipe]):
        if option == 1 + j:
            kind, count = CHILI, CONTENT.chili_per_ingredient
        else:
            count = 1
        player.hand[kind] -= count
        state.piles[kind] += count
    player.cooked.append(recipe)
    chili = "" if option == 0 else f" (chili for {ingredient_name(RECIPE_KINDS[recipe][option - 1])})"
    return [Event(seat=seat, text=f"seat {seat} cooks {recipe_name(recipe)}{chili}")]


def activate(state: Any, seat: int, action: Any) -> list[Event]:
    """Applies one activation (any Action but a throw) and removes the activated chip."""
    kind = action.WhichOneof("kind")
    detail = getattr(action, kind)
    value_index = CHIP_VALUES.index(detail.chip_value)
    if kind == "buy":
        events = buy(state, seat, INGREDIENTS.index(detail.ingredient))
    elif kind == "sell":
        events = sell(state, seat, INGREDIENTS.index(detail.ingredient))
    elif kind == "bonus_ingredient":
        events = bonus_ingredient(state, seat, INGREDIENTS.index(detail.ingredient))
    elif kind == "place_chip":
        events = place_chip(state, seat, CHIP_VALUES.index(detail.placed_chip_value), detail.x, detail.y)
    elif kind == "reserve_recipe":
        events = reserve_recipe(state, seat)
    elif kind == "take_head_chef":
        events = take_head_chef(state, seat)
    elif kind == "cook":
        events = cook(state, seat, detail.recipe, cook_option(detail.recipe, detail.chili_for))
    else:
        events = [Event(seat=seat, text=f"seat {seat} removes its {detail.chip_value} chip and does nothing")]
    chip = state.chips[chip_slot(state, seat, value_index)]
    chip.status = pb.CHIP_STATUS_USED
    chip.space_bits = 0
    return events


def cook_option(recipe: int, chili_for: int) -> int:
    """The cook option of a Cook action's `chili_for` (0: no chili); -1 when the recipe lacks it."""
    if chili_for == pb.INGREDIENT_UNSPECIFIED:
        return 0
    if chili_for not in INGREDIENTS:
        return -1
    kinds = RECIPE_KINDS[recipe]
    kind = INGREDIENTS.index(chili_for)
    return 1 + kinds.index(kind) if kind in kinds else -1

