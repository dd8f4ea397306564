"""License to Grill's content data, loaded once from content.txtpb and checked, plus the tables the
rules read in their hot paths (plain tuples, so a turn never walks proto messages for card data)."""

from __future__ import annotations

from dataclasses import dataclass

from services.rules.content import load_content
from sizzle.games.license_to_grill.v1 import license_to_grill_pb2 as pb
from sizzle.games.license_to_grill.v1.license_to_grill_pb2 import (  # enum values: module globals are fast
    ACTION_KIND_GRILL,
    ACTION_KIND_MOVE,
    ACTION_KIND_PREPARE,
    ACTION_KIND_REST,
    ACTION_KIND_SAUCE,
    ACTION_KIND_SEASON,
    ACTION_KIND_SERVE,
    COOK_ON_EITHER,
    COOK_ON_MEAT,
    COOK_ON_VEGGIE,
    COOLER_MEAT,
    COOLER_VEGGIE,
)

CONTENT: pb.Content = load_content(__file__, pb.Content)

# The six actions in their printed order; the tablecloth icons name these.
ACTION_KINDS: tuple[int, ...] = (
    ACTION_KIND_PREPARE,
    ACTION_KIND_SEASON,
    ACTION_KIND_GRILL,
    ACTION_KIND_SAUCE,
    ACTION_KIND_REST,
    ACTION_KIND_SERVE,
)
# Actions that choose a recipe: the six, then the free move.
CHOOSE_KINDS: tuple[int, ...] = (*ACTION_KINDS, ACTION_KIND_MOVE)
ROTATIONS = 4  # quarter turns; tiles are never flipped over (RULINGS.md)


@dataclass(frozen=True, slots=True)
class RecipeCard:
    """A recipe's numbers as plain Python values."""

    id: int
    name: str
    cooler: int
    cook_on: int
    tile: tuple[str, ...]
    squares: int
    prepare: tuple[int, ...]
    season: int
    grill: tuple[int, ...]
    sauce: int
    rest: tuple[int, ...]

    @property
    def best_points(self) -> int:
        """The most the recipe can score: every track at its best, every bonus square covered."""
        return max(self.prepare) + self.season + max(self.grill) + self.sauce + max(self.rest)


def _check(content: pb.Content) -> None:
    """Refuses content the rules cannot play (caught at import, never mid-game)."""
    assert 3 <= content.min_players <= content.max_players, "player counts"
    grill = content.grill
    assert 0 < grill.meat_cols < grill.cols, "both grill halves need columns"
    assert grill.warming_rack_rows > 0 and grill.main_grill_rows > 0, "both grill sections need rows"
    knobs = content.knobs
    assert len(knobs.settings) >= 2 and 0 <= knobs.start_setting < len(knobs.settings), "knob settings"
    assert knobs.clicks_per_grill >= 1, "a Grill action turns a knob at least one click"
    assert content.stalemate_rounds >= 1, "a table where nobody acts must end"
    for setting in knobs.settings:
        assert setting.main_grill_advance >= 1 and setting.warming_rack_advance >= 1, "tracks must advance"
    table = content.tablecloth
    assert table.rows and len({len(r) for r in table.rows}) == 1, "the tablecloth is a rectangle"
    assert len(table.rows) * len(table.rows[0]) <= 64, "the tablecloth's squares are one 64-bit bitboard"
    assert (grill.warming_rack_rows + grill.main_grill_rows) * grill.cols <= 64, "the grill is one 64-bit bitboard"
    symbols = {icon.symbol for icon in table.legend}
    assert all(ch == "." or ch in symbols for row in table.rows for ch in row), "unknown tablecloth icon"
    lengths = {entry.players: entry.cols for entry in table.lengths}
    for players in range(content.min_players, content.max_players + 1):
        assert 0 < lengths.get(players, 0) <= len(table.rows[0]), f"no tablecloth length for {players} players"
    coolers = {COOLER_MEAT: {COOK_ON_MEAT, COOK_ON_EITHER}, COOLER_VEGGIE: {COOK_ON_VEGGIE, COOK_ON_EITHER}}
    for index, recipe in enumerate(content.recipes):
        assert recipe.id == index, f"recipe {recipe.name} has id {recipe.id}, expected {index}"
        assert recipe.cook_on in coolers[recipe.cooler], f"{recipe.name} cannot cook where its cooler says"
        assert recipe.prepare_track and recipe.grill_track and recipe.rest_track, f"{recipe.name} lacks a track"
        assert recipe.season_squares >= 0 and recipe.sauce_squares >= 0, f"{recipe.name} bonus squares"
        assert recipe.tile and all(set(row) <= {"#", "."} for row in recipe.tile), f"{recipe.name} tile"
        assert len({len(row) for row in recipe.tile}) == 1, f"{recipe.name} tile is not a rectangle drawing"


_check(CONTENT)

RECIPES: tuple[RecipeCard, ...] = tuple(
    RecipeCard(
        id=r.id,
        name=r.name,
        cooler=r.cooler,
        cook_on=r.cook_on,
        tile=tuple(r.tile),
        squares=sum(row.count("#") for row in r.tile),
        prepare=tuple(r.prepare_track),
        season=r.season_squares,
        grill=tuple(r.grill_track),
        sauce=r.sauce_squares,
        rest=tuple(r.rest_track),
    )
    for r in CONTENT.recipes
)
NUM_RECIPES = len(RECIPES)
MAIN_ADVANCE: tuple[int, ...] = tuple(s.main_grill_advance for s in CONTENT.knobs.settings)
RACK_ADVANCE: tuple[int, ...] = tuple(s.warming_rack_advance for s in CONTENT.knobs.settings)
KNOB_NAMES: tuple[str, ...] = tuple(s.name for s in CONTENT.knobs.settings)
TABLE_COLS: dict[int, int] = {entry.players: entry.cols for entry in CONTENT.tablecloth.lengths}
ICON_OF_SYMBOL: dict[str, int] = {icon.symbol: icon.action for icon in CONTENT.tablecloth.legend}
SYMBOL_OF_ICON: dict[int, str] = {icon.action: icon.symbol for icon in CONTENT.tablecloth.legend}
GRILL_ROWS = CONTENT.grill.warming_rack_rows + CONTENT.grill.main_grill_rows


@dataclass(frozen=True)
class ActionLayout:
    """Dense ids: seven blocks of one id per recipe (Prepare, Season, Grill, Sauce, Rest, Serve, the free
    move), then the placements (rotation x row x col on the largest grid), the four knob turns (meat -1,
    meat +1, veggie -1, veggie +1), leave the knobs, the two knob choices (meat, veggie), skip the
    bonus icons, end the turn."""

    cards: int
    place_rows: int
    place_cols: int

    def choose_base(self, kind: int) -> int:
        return CHOOSE_KINDS.index(kind) * self.cards

    @property
    def place_base(self) -> int:
        return len(CHOOSE_KINDS) * self.cards

    @property
    def place_size(self) -> int:
        return ROTATIONS * self.place_rows * self.place_cols

    def place_offset(self, rotation: int, row: int, col: int) -> int:
        return (rotation * self.place_rows + row) * self.place_cols + col

    @property
    def turn_knob_base(self) -> int:
        return self.place_base + self.place_size

    @property
    def leave_knobs(self) -> int:
        return self.turn_knob_base + 4

    @property
    def choose_knob_base(self) -> int:
        return self.leave_knobs + 1

    @property
    def skip_bonus(self) -> int:
        return self.choose_knob_base + 2

    @property
    def end_turn(self) -> int:
        return self.skip_bonus + 1

    @property
    def size(self) -> int:
        return self.end_turn + 1


LAYOUT = ActionLayout(
    cards=NUM_RECIPES,
    place_rows=max(GRILL_ROWS, CONTENT.prepare_area.rows, CONTENT.rest_area.rows, len(CONTENT.tablecloth.rows)),
    place_cols=max(CONTENT.grill.cols, CONTENT.prepare_area.cols, CONTENT.rest_area.cols, *TABLE_COLS.values()),
)


def recipe_name(card: int) -> str:
    return RECIPES[card].name if 0 <= card < NUM_RECIPES else f"recipe #{card}"


def kind_name(kind: int) -> str:
    return pb.ActionKind.Name(kind).removeprefix("ACTION_KIND_").lower()


def side_name(side: int) -> str:
    return pb.GrillSide.Name(side).removeprefix("GRILL_SIDE_").lower()
