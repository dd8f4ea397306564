"""Where food tiles can lie: the areas (Prepare, Rest, grill, tablecloth) as bitboards, and every
placement of every recipe's tile in every area, computed once at import from content.

A placement is a rotation (quarter turns clockwise from the printed drawing) and the area square of the
rotated tile's top-left bounding-box corner. Rotations that give the same shape (a square tile turned
once) are the same placement: only the lowest such rotation is listed, and `canonical_rotation`
maps the others to it. Bit `row * cols + col` of a mask is that square of the area.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.rules.games.license_to_grill.content import (
    CONTENT,
    GRILL_ROWS,
    ICON_OF_SYMBOL,
    LAYOUT,
    RECIPES,
    ROTATIONS,
    TABLE_COLS,
)
from sizzle.games.license_to_grill.v1.license_to_grill_pb2 import (  # enum values: module globals are fast
    ACTION_KIND_UNSPECIFIED,
    COOK_ON_MEAT,
    COOK_ON_VEGGIE,
)

Shape = tuple[tuple[int, int], ...]

WARMING_RACK = 0  # grill section of the top rows
MAIN_GRILL = 1
MEAT = 1  # bits of Placement.sides
VEGGIE = 2


def parse_tile(rows: tuple[str, ...]) -> Shape:
    return tuple(sorted((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"))


def _normalize(cells: list[tuple[int, int]]) -> Shape:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def turn_clockwise(shape: Shape) -> Shape:
    height = max(r for r, _ in shape) + 1
    return _normalize([(c, height - 1 - r) for r, c in shape])


def rotations(shape: Shape) -> tuple[Shape, ...]:
    """The shape after 0, 1, 2 and 3 quarter turns clockwise."""
    out = [_normalize(list(shape))]
    for _ in range(ROTATIONS - 1):
        out.append(turn_clockwise(out[-1]))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Area:
    """A grid food tiles lie on."""

    key: str
    rows: int
    cols: int

    def bit(self, row: int, col: int) -> int:
        return 1 << (row * self.cols + col)

    @property
    def full(self) -> int:
        return (1 << (self.rows * self.cols)) - 1


@dataclass(frozen=True, slots=True)
class Placement:
    """One way to put one recipe's tile on one area."""

    offset: int  # the placement's offset in the Place block of action ids
    rotation: int
    row: int
    col: int
    cells: Shape  # area squares covered
    mask: int
    neighbours: int  # grill: squares beside the tile in the same section
    touches_edge: bool  # grill: the tile touches its section's outer edge
    section: int  # grill: WARMING_RACK or MAIN_GRILL
    sides: int  # grill: MEAT | VEGGIE bits of the halves it lies on
    icons: tuple[int, ...]  # tablecloth: the ActionKinds of the icons it covers, in square order


PREPARE_AREA = Area("prepare", CONTENT.prepare_area.rows, CONTENT.prepare_area.cols)
REST_AREA = Area("rest", CONTENT.rest_area.rows, CONTENT.rest_area.cols)
GRILL_AREA = Area("grill", GRILL_ROWS, CONTENT.grill.cols)
TABLE_AREAS: dict[int, Area] = {
    n: Area(f"table{n}", len(CONTENT.tablecloth.rows), cols) for n, cols in TABLE_COLS.items()
}


def grill_section(row: int) -> int:
    return WARMING_RACK if row < CONTENT.grill.warming_rack_rows else MAIN_GRILL


def grill_side(col: int) -> int:
    return MEAT if col < CONTENT.grill.meat_cols else VEGGIE


def table_icon(row: int, col: int) -> int:
    return ICON_OF_SYMBOL.get(CONTENT.tablecloth.rows[row][col], ACTION_KIND_UNSPECIFIED)


def _section_rows(section: int) -> range:
    rack = CONTENT.grill.warming_rack_rows
    return range(0, rack) if section == WARMING_RACK else range(rack, GRILL_ROWS)


def _place_all(area: Area, shapes: tuple[Shape, ...]) -> list[Placement]:
    out = []
    seen: set[Shape] = set()
    for rotation, shape in enumerate(shapes):
        if shape in seen:
            continue  # the same shape as a lower rotation: one placement, not two
        seen.add(shape)
        height = max(r for r, _ in shape) + 1
        width = max(c for _, c in shape) + 1
        for row in range(area.rows - height + 1):
            for col in range(area.cols - width + 1):
                cells = tuple((row + r, col + c) for r, c in shape)
                placement = _describe(area, rotation, row, col, cells)
                if placement is not None:
                    out.append(placement)
    out.sort(key=lambda p: p.offset)
    return out


def _describe(area: Area, rotation: int, row: int, col: int, cells: Shape) -> Placement | None:
    mask = 0
    for r, c in cells:
        mask |= area.bit(r, c)
    neighbours, touches_edge, section, sides = 0, False, 0, 0
    icons: tuple[int, ...] = ()
    if area is GRILL_AREA:
        sections = {grill_section(r) for r, _ in cells}
        if len(sections) != 1:
            return None  # the Warming Rack and the Main Grill are separate racks
        section = sections.pop()
        rows = _section_rows(section)
        for r, c in cells:
            sides |= grill_side(c)
            if r in (rows[0], rows[-1]) or c in (0, area.cols - 1):
                touches_edge = True
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if nr in rows and 0 <= nc < area.cols and (nr, nc) not in cells:
                    neighbours |= area.bit(nr, nc)
    elif area.key.startswith("table"):
        icons = tuple(icon for r, c in cells if (icon := table_icon(r, c)) != ACTION_KIND_UNSPECIFIED)
    return Placement(
        offset=LAYOUT.place_offset(rotation, row, col),
        rotation=rotation,
        row=row,
        col=col,
        cells=cells,
        mask=mask,
        neighbours=neighbours,
        touches_edge=touches_edge,
        section=section,
        sides=sides,
        icons=icons,
    )


def _grill_allows(cook_on: int, sides: int) -> bool:
    if cook_on == COOK_ON_MEAT:
        return sides == MEAT
    if cook_on == COOK_ON_VEGGIE:
        return sides == VEGGIE
    return True  # yellow: either side, or across the line


SHAPES: tuple[tuple[Shape, ...], ...] = tuple(rotations(parse_tile(r.tile)) for r in RECIPES)
CANONICAL_ROTATION: tuple[tuple[int, ...], ...] = tuple(
    tuple(shapes.index(shape) for shape in shapes) for shapes in SHAPES
)

# Per recipe: every placement on the Prepare area, the Rest area, the grill (only where its colour may
# lie), and the tablecloth for each player count; each list ascends by offset.
PREPARE_PLACEMENTS: tuple[list[Placement], ...] = tuple(_place_all(PREPARE_AREA, s) for s in SHAPES)
REST_PLACEMENTS: tuple[list[Placement], ...] = tuple(_place_all(REST_AREA, s) for s in SHAPES)
GRILL_PLACEMENTS: tuple[list[Placement], ...] = tuple(
    [p for p in _place_all(GRILL_AREA, shapes) if _grill_allows(recipe.cook_on, p.sides)]
    for recipe, shapes in zip(RECIPES, SHAPES, strict=True)
)
TABLE_PLACEMENTS: dict[int, tuple[list[Placement], ...]] = {
    n: tuple(_place_all(area, s) for s in SHAPES) for n, area in TABLE_AREAS.items()
}

# Placements by offset, for tiles already lying somewhere (their masks) and for decoding actions.
PREPARE_BY_OFFSET = tuple({p.offset: p for p in ps} for ps in PREPARE_PLACEMENTS)
REST_BY_OFFSET = tuple({p.offset: p for p in ps} for ps in REST_PLACEMENTS)
GRILL_BY_OFFSET = tuple({p.offset: p for p in ps} for ps in GRILL_PLACEMENTS)
TABLE_BY_OFFSET = {n: tuple({p.offset: p for p in ps} for ps in lists) for n, lists in TABLE_PLACEMENTS.items()}

# The tight loops test plain tuples: (offset, mask) and, on the grill, (offset, mask, neighbours, touches_edge).
PREPARE_MASKS = tuple(tuple((p.offset, p.mask) for p in ps) for ps in PREPARE_PLACEMENTS)
REST_MASKS = tuple(tuple((p.offset, p.mask) for p in ps) for ps in REST_PLACEMENTS)
TABLE_MASKS = {n: tuple(tuple((p.offset, p.mask) for p in ps) for ps in lists) for n, lists in TABLE_PLACEMENTS.items()}
GRILL_MASKS = tuple(tuple((p.offset, p.mask, p.neighbours, p.touches_edge) for p in ps) for ps in GRILL_PLACEMENTS)
GRILL_SECTION_MASKS = tuple(
    tuple(tuple((p.offset, p.mask, p.neighbours, p.touches_edge) for p in ps if p.section == s) for s in (0, 1))
    for ps in GRILL_PLACEMENTS
)


def offset_of(rotation: int, row: int, col: int) -> int:
    return LAYOUT.place_offset(rotation, row, col)


def fits(masks: tuple[tuple[int, int], ...], occupied: int) -> bool:
    """Whether some placement lies on free squares only."""
    for _, mask in masks:
        if not mask & occupied:
            return True
    return False


def free_offsets(masks: tuple[tuple[int, int], ...], occupied: int) -> list[int]:
    return [offset for offset, mask in masks if not mask & occupied]


def grill_fits(masks: tuple[tuple[int, int, int, bool], ...], occupied: int) -> bool:
    """Whether some grill placement is free and touches its section's edge or another tile."""
    for _, mask, neighbours, edge in masks:
        if not mask & occupied and (edge or neighbours & occupied):
            return True
    return False


def grill_offsets(masks: tuple[tuple[int, int, int, bool], ...], occupied: int) -> list[int]:
    return [o for o, mask, neighbours, edge in masks if not mask & occupied and (edge or neighbours & occupied)]
