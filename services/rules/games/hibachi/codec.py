"""The action codec: dense ids to structured actions and back, and actions in plain words.

It reads nothing of the state or view but the content, so a bot holding only its view decodes ids
too. An id aims (or places) at the centre of a space; a structured action may carry any point,
which has no id.
"""

from __future__ import annotations

from typing import Any

from services.rules.games.hibachi.cleaning import cook_option
from services.rules.games.hibachi.content import (
    CHIP_VALUES,
    INGREDIENTS,
    LAYOUT,
    RECIPES,
    SPACES,
    ingredient_name,
    recipe_name,
    space_name,
)
from services.rules.games.hibachi.geometry import spaces_under_hole
from services.rules.games.hibachi.table import value_index_of
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb

V, S, K, R, C = LAYOUT.values, LAYOUT.spaces, LAYOUT.kinds, LAYOUT.recipes, LAYOUT.cook_options
_CENTRES = {(s.centre_x, s.centre_y): s.id for s in SPACES}


def id_to_action(action_id: int) -> pb.Action:
    """The structured action of an id (a fresh message: callers may change it)."""
    return pb.Action.FromString(_ENCODED[action_id])


def _build_action(action_id: int) -> pb.Action:
    if action_id < LAYOUT.buy_base:
        v, space = divmod(action_id - LAYOUT.throw_base, S)
        centre = SPACES[space]
        return pb.Action(throw=pb.Throw(chip_value=CHIP_VALUES[v], aim_x=centre.centre_x, aim_y=centre.centre_y))
    if action_id < LAYOUT.sell_base:
        v, k = divmod(action_id - LAYOUT.buy_base, K)
        return pb.Action(buy=pb.Buy(chip_value=CHIP_VALUES[v], ingredient=INGREDIENTS[k]))
    if action_id < LAYOUT.bonus_base:
        v, k = divmod(action_id - LAYOUT.sell_base, K)
        return pb.Action(sell=pb.Sell(chip_value=CHIP_VALUES[v], ingredient=INGREDIENTS[k]))
    if action_id < LAYOUT.place_base:
        v, k = divmod(action_id - LAYOUT.bonus_base, K)
        return pb.Action(bonus_ingredient=pb.BonusIngredient(chip_value=CHIP_VALUES[v], ingredient=INGREDIENTS[k]))
    if action_id < LAYOUT.reserve_base:
        rest, space = divmod(action_id - LAYOUT.place_base, S)
        v, w = divmod(rest, V)
        centre = SPACES[space]
        place = pb.PlaceChip(
            chip_value=CHIP_VALUES[v], placed_chip_value=CHIP_VALUES[w], x=centre.centre_x, y=centre.centre_y
        )
        return pb.Action(place_chip=place)
    if action_id < LAYOUT.head_chef_base:
        return pb.Action(reserve_recipe=pb.ReserveRecipe(chip_value=CHIP_VALUES[action_id - LAYOUT.reserve_base]))
    if action_id < LAYOUT.cook_base:
        return pb.Action(take_head_chef=pb.TakeHeadChef(chip_value=CHIP_VALUES[action_id - LAYOUT.head_chef_base]))
    if action_id < LAYOUT.nothing_base:
        rest, option = divmod(action_id - LAYOUT.cook_base, C)
        v, recipe = divmod(rest, R)
        kinds = RECIPES[recipe].ingredients
        chili_for = kinds[option - 1] if 0 < option <= len(kinds) else pb.INGREDIENT_UNSPECIFIED
        return pb.Action(cook=pb.Cook(chip_value=CHIP_VALUES[v], recipe=recipe, chili_for=chili_for))
    return pb.Action(do_nothing=pb.DoNothing(chip_value=CHIP_VALUES[action_id - LAYOUT.nothing_base]))


# Every id's action, built once and kept serialized (parsing is cheaper than building anew).
_ENCODED = [_build_action(action_id).SerializeToString() for action_id in range(LAYOUT.size)]


def _kind(ingredient: int) -> int | None:
    return INGREDIENTS.index(ingredient) if ingredient in INGREDIENTS else None


def action_to_id(action: Any) -> int | None:
    """The id of a structured action, or None when no id expresses it (an aim or placement off
    every space's centre, an unknown chip value, ingredient or recipe)."""
    kind = action.WhichOneof("kind")
    if kind is None:
        return None
    detail = getattr(action, kind)
    v = value_index_of(detail.chip_value)
    if v is None:
        return None
    if kind == "throw":
        space = _CENTRES.get((detail.aim_x, detail.aim_y))
        return None if space is None else LAYOUT.throw(v, space)
    if kind in ("buy", "sell", "bonus_ingredient"):
        k = _kind(detail.ingredient)
        if k is None:
            return None
        return {"buy": LAYOUT.buy, "sell": LAYOUT.sell, "bonus_ingredient": LAYOUT.bonus}[kind](v, k)
    if kind == "place_chip":
        w = value_index_of(detail.placed_chip_value)
        space = _CENTRES.get((detail.x, detail.y))
        return None if w is None or space is None else LAYOUT.place(v, w, space)
    if kind == "reserve_recipe":
        return LAYOUT.reserve(v)
    if kind == "take_head_chef":
        return LAYOUT.head_chef(v)
    if kind == "cook":
        if not 0 <= detail.recipe < R:
            return None
        option = cook_option(detail.recipe, detail.chili_for)
        return None if option < 0 else LAYOUT.cook(v, detail.recipe, option)
    return LAYOUT.nothing(v)


def _where(x: float, y: float) -> str:
    spaces = spaces_under_hole(x, y)
    named = ", ".join(space_name(s) for s in spaces) if spaces else "no space"
    return f"({x:.0f}, {y:.0f}) [{named}]"


def describe(action: Any) -> str:
    kind = action.WhichOneof("kind")
    if kind is None:
        return "no action"
    detail = getattr(action, kind)
    chip = f"your {detail.chip_value} chip"
    if kind == "throw":
        return f"throw {chip} at {_where(detail.aim_x, detail.aim_y)}"
    if kind in ("buy", "sell", "bonus_ingredient"):
        k = _kind(detail.ingredient)
        name = ingredient_name(k) if k is not None else "an unknown ingredient"
        verb = {"buy": "buy", "sell": "sell", "bonus_ingredient": "take a bonus"}[kind]
        return f"activate {chip}: {verb} 1 {name}"
    if kind == "place_chip":
        return f"activate {chip}: place your {detail.placed_chip_value} chip at {_where(detail.x, detail.y)}"
    if kind == "reserve_recipe":
        return f"activate {chip}: reserve the top recipe"
    if kind == "take_head_chef":
        return f"activate {chip}: become head chef next round"
    if kind == "cook":
        name = recipe_name(detail.recipe) if 0 <= detail.recipe < R else f"recipe {detail.recipe}"
        chili = ""
        if detail.chili_for != pb.INGREDIENT_UNSPECIFIED:
            k = _kind(detail.chili_for)
            chili = f" with 2 chili for {ingredient_name(k) if k is not None else 'an unknown ingredient'}"
        return f"activate {chip}: cook {name}{chili}"
    return f"remove {chip} and do nothing"
