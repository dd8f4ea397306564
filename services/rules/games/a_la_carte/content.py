"""A la carte's content data, loaded once from content.txtpb, with the tables derived from it and the
dense action-id layout."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from services.rules.content import load_content
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb

CONTENT: pb.Content = load_content(__file__, pb.Content)

DISHES: list[pb.Dish] = list(CONTENT.dishes)
DISPENSER_FILLS: list[pb.DispenserFill] = list(CONTENT.dispensers)
CONDIMENTS: list[int] = [fill.condiment for fill in DISPENSER_FILLS]
CUP_KINDS: list[int] = [supply.kind for supply in CONTENT.cups]
DIE: list[pb.DieFace] = list(CONTENT.die)
DIE_WEIGHTS: list[float] = [face.weight for face in DIE]
SKILLS: list[pb.Skill] = list(CONTENT.skills)
SKILL_NAMES: tuple[str, ...] = tuple(skill.name for skill in SKILLS)
NUM_CONDIMENTS = len(CONDIMENTS)
NUM_CUP_KINDS = len(CUP_KINDS)
NUM_DISHES = len(DISHES)
NUM_COLORS = len(pb.DishColor.values()) - 1  # every colour but UNSPECIFIED
VICTORY_CUP = CUP_KINDS.index(pb.CUP_KIND_VICTORY_POINT)
TOTAL_CUPS = sum(supply.count for supply in CONTENT.cups)


@dataclass(frozen=True)
class Recipe:
    """A dish as the rules read it: needs by dispenser order, and whether it can be seasoned."""

    id: int
    color: int
    heat_min: int
    heat_max: int
    burnt_at: int
    needs: tuple[int, ...]
    points: int

    @cached_property
    def seasoned(self) -> bool:
        """False for the unseasoned dishes, which can never be seasoned and never earn a star."""
        return any(self.needs)


def _recipe(dish: pb.Dish) -> Recipe:
    needs = [0] * NUM_CONDIMENTS
    for need in dish.needs:
        needs[CONDIMENTS.index(need.condiment)] += need.count
    return Recipe(dish.id, dish.color, dish.heat_min, dish.heat_max, dish.burnt_at, tuple(needs), dish.points)


RECIPES: list[Recipe] = [_recipe(dish) for dish in DISHES]
assert [dish.id for dish in DISHES] == list(range(NUM_DISHES)), "dish ids must be 0 .. n-1 in order"


def _check_content() -> None:
    for recipe in RECIPES:
        assert 0 <= recipe.heat_min <= recipe.heat_max < recipe.burnt_at <= CONTENT.max_heat, recipe
        assert all(n < CONTENT.overseasoned_at for n in recipe.needs), recipe
    assert CONTENT.default_skill in SKILL_NAMES
    for skill in SKILLS:
        assert skill.tip_bands and skill.tip_bands[0].min_held <= 1, skill.name
        assert [b.min_held for b in skill.tip_bands] == sorted(b.min_held for b in skill.tip_bands)
        assert sorted(f.result for f in skill.flips) == [
            pb.FLIP_RESULT_PICTURE_UP, pb.FLIP_RESULT_RECIPE_UP, pb.FLIP_RESULT_BESIDE_PAN
        ], skill.name


_check_content()

CHOOSE_MAX = max((face.amount for face in DIE if face.kind == pb.DIE_FACE_KIND_CHOOSE), default=1)
MAX_OTHERS = CONTENT.max_players - 1


@dataclass(frozen=True)
class ActionLayout:
    """Dense ids, in this order: roll the die; season with dispenser d; choose heat 1..C; choose dish
    0..19; place the crepe; swap stoves with the player k seats to the left (k = 1..3); three spoons;
    re-season the player k seats left with dispenser d; lower heat 1..L; take a cup of kind c from the
    player k seats left; trash the dish; flip the crepe; stop flipping."""

    condiments: int
    choose_max: int
    dishes: int
    others: int
    lower_max: int
    cup_kinds: int

    @cached_property
    def roll(self) -> int:
        return 0

    @cached_property
    def season_base(self) -> int:
        return 1

    @cached_property
    def choose_heat_base(self) -> int:
        return self.season_base + self.condiments

    @cached_property
    def dish_base(self) -> int:
        return self.choose_heat_base + self.choose_max

    @cached_property
    def crepe(self) -> int:
        return self.dish_base + self.dishes

    @cached_property
    def swap_base(self) -> int:
        return self.crepe + 1

    @cached_property
    def spoons(self) -> int:
        return self.swap_base + self.others

    @cached_property
    def reseason_base(self) -> int:
        return self.spoons + 1

    @cached_property
    def lower_base(self) -> int:
        return self.reseason_base + self.others * self.condiments

    @cached_property
    def take_cup_base(self) -> int:
        return self.lower_base + self.lower_max

    @cached_property
    def trash(self) -> int:
        return self.take_cup_base + self.others * self.cup_kinds

    @cached_property
    def flip(self) -> int:
        return self.trash + 1

    @cached_property
    def stop_flipping(self) -> int:
        return self.flip + 1

    @cached_property
    def size(self) -> int:
        return self.stop_flipping + 1


LAYOUT = ActionLayout(
    condiments=NUM_CONDIMENTS,
    choose_max=CHOOSE_MAX,
    dishes=NUM_DISHES,
    others=MAX_OTHERS,
    lower_max=CONTENT.lower_heat_max,
    cup_kinds=NUM_CUP_KINDS,
)


def condiment_name(index: int) -> str:
    """The name of the condiment of dispenser `index`."""
    return DISPENSER_FILLS[index].name


def cup_name(index: int) -> str:
    return CONTENT.cups[index].name


def dish_name(dish: int) -> str:
    return DISHES[dish].name


def color_name(color: int) -> str:
    return pb.DishColor.Name(color).removeprefix("DISH_COLOR_").lower()
