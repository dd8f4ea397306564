"""Hibachi's content data, loaded once from content.txtpb and checked, plus the lookups and the
action-id layout derived from it."""

from __future__ import annotations

from services.rules.content import load_content
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb

CONTENT: pb.Content = load_content(__file__, pb.Content)
BOARD = CONTENT.board
SPACES = list(BOARD.spaces)
CHIP_VALUES = list(CONTENT.chip_values)
INGREDIENTS = list(CONTENT.ingredients)  # card kinds by index; chili is one of them
RECIPES = list(CONTENT.recipes)
CHILI = INGREDIENTS.index(pb.INGREDIENT_CHILI)
CHIPS_PER_SEAT = len(CHIP_VALUES)
SKILL_SPREADS = {skill.name: skill.spread for skill in CONTENT.throw_model.skills}
THROWS_PER_ROUND = {row.players: row.chips for row in CONTENT.throws_per_round}

# The space of each ingredient index, and the one space of each action kind.
INGREDIENT_SPACE = {INGREDIENTS.index(s.ingredient): s.id for s in SPACES if s.kind == pb.SPACE_KIND_INGREDIENT}
ACTION_SPACE = {s.kind: s.id for s in SPACES if s.kind != pb.SPACE_KIND_INGREDIENT}
SPACE_INGREDIENT = {space: kind for kind, space in INGREDIENT_SPACE.items()}


def card_count(kind: int) -> int:
    """Cards of an ingredient index in the game (the face-up pile at setup)."""
    return CONTENT.chili_cards if kind == CHILI else CONTENT.cards_per_ingredient


def _check_content() -> None:
    """Refuses content the rules cannot play with (checked once, at import)."""
    if [s.id for s in SPACES] != list(range(len(SPACES))):
        raise ValueError("board spaces must be numbered 0.. in order")
    if sorted(INGREDIENT_SPACE) != list(range(len(INGREDIENTS))):
        raise ValueError("every ingredient kind needs exactly one space")
    if sum(1 for s in SPACES if s.kind == pb.SPACE_KIND_INGREDIENT) != len(INGREDIENTS):
        raise ValueError("two spaces share an ingredient")
    action_kinds = [s.kind for s in SPACES if s.kind != pb.SPACE_KIND_INGREDIENT]
    if sorted(action_kinds) != sorted(set(action_kinds)) or len(action_kinds) != 4:
        raise ValueError("the board needs one space of each of the four actions")
    if len(set(CHIP_VALUES)) != len(CHIP_VALUES):
        raise ValueError("a colour's chips must have distinct values")
    for recipe in RECIPES:
        kinds = list(recipe.ingredients)
        if len(set(kinds)) != len(kinds) or pb.INGREDIENT_CHILI in kinds or not set(kinds) <= set(INGREDIENTS):
            raise ValueError(f"recipe {recipe.name} needs distinct, non-chili ingredients")
    if [r.id for r in RECIPES] != list(range(len(RECIPES))):
        raise ValueError("recipes must be numbered 0.. in order")
    if CONTENT.throw_model.default_skill not in SKILL_SPREADS:
        raise ValueError("the default skill is not a skill level")
    for players in range(CONTENT.min_players, CONTENT.max_players + 1):
        if not 0 < THROWS_PER_ROUND.get(players, 0) <= CHIPS_PER_SEAT:
            raise ValueError(f"no throw count for {players} players")


_check_content()


class ActionLayout:
    """Dense ids, in blocks (v: a chip's value index, s: a space, k: an ingredient index, r: a recipe):
    throw (v, s) aimed at the centre of s; buy (v, k); sell (v, k); bonus (v, k); place (v, placed
    chip w, s) at the centre of s; reserve (v); head chef (v); cook (v, r, c) where c = 0 uses no chili
    and c = 1 + j lets chili replace the recipe's j-th ingredient; do nothing (v)."""

    def __init__(self, values: int, spaces: int, kinds: int, recipes: int, cook_options: int) -> None:
        self.values, self.spaces, self.kinds = values, spaces, kinds
        self.recipes, self.cook_options = recipes, cook_options
        # Plain attributes, not properties: the rules read them on every step.
        self.throw_base = 0
        self.buy_base = self.throw_base + values * spaces
        self.sell_base = self.buy_base + values * kinds
        self.bonus_base = self.sell_base + values * kinds
        self.place_base = self.bonus_base + values * kinds
        self.reserve_base = self.place_base + values * values * spaces
        self.head_chef_base = self.reserve_base + values
        self.cook_base = self.head_chef_base + values
        self.nothing_base = self.cook_base + values * recipes * cook_options
        self.size = self.nothing_base + values

    # Ids of each block.
    def throw(self, v: int, space: int) -> int:
        return self.throw_base + v * self.spaces + space

    def buy(self, v: int, kind: int) -> int:
        return self.buy_base + v * self.kinds + kind

    def sell(self, v: int, kind: int) -> int:
        return self.sell_base + v * self.kinds + kind

    def bonus(self, v: int, kind: int) -> int:
        return self.bonus_base + v * self.kinds + kind

    def place(self, v: int, placed: int, space: int) -> int:
        return self.place_base + (v * self.values + placed) * self.spaces + space

    def reserve(self, v: int) -> int:
        return self.reserve_base + v

    def head_chef(self, v: int) -> int:
        return self.head_chef_base + v

    def cook(self, v: int, recipe: int, option: int) -> int:
        return self.cook_base + (v * self.recipes + recipe) * self.cook_options + option

    def nothing(self, v: int) -> int:
        return self.nothing_base + v


LAYOUT = ActionLayout(
    values=CHIPS_PER_SEAT,
    spaces=len(SPACES),
    kinds=len(INGREDIENTS),
    recipes=len(RECIPES),
    cook_options=1 + max(len(r.ingredients) for r in RECIPES),
)


# Names as plain strings, read on every event.
_INGREDIENT_NAMES = [pb.Ingredient.Name(i).removeprefix("INGREDIENT_").capitalize() for i in INGREDIENTS]
_RECIPE_NAMES = [r.name for r in RECIPES]
_SPACE_NAMES = [s.name for s in SPACES]


def ingredient_name(kind: int) -> str:
    """The name of an ingredient index."""
    return _INGREDIENT_NAMES[kind]


def recipe_name(recipe: int) -> str:
    return _RECIPE_NAMES[recipe]


def space_name(space: int) -> str:
    return _SPACE_NAMES[space]
