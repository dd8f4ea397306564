"""Reading a table position: which squares are taken, what a recipe may do next, how far a track
advances and what a dish scores. Works on a State or a View alike (they share these fields), so the
rules, the views and the heuristic bot all read the position the same way.

The taken squares of each area are bitboards kept in the position beside the tiles (`grill_squares`,
`table_squares`, each player's `prepare_squares` and `rest_squares`): the rules update them with every
tile they move, `check_invariants` recomputes them from the tiles, and `settle_squares` rebuilds them
for a position set up by hand.
"""

from __future__ import annotations

from typing import Any

from services.rules.games.license_to_grill import geometry as geo
from services.rules.games.license_to_grill.content import (
    CHOOSE_KINDS,
    LAYOUT,
    MAIN_ADVANCE,
    RACK_ADVANCE,
    RECIPES,
)
from sizzle.games.license_to_grill.v1.license_to_grill_pb2 import (  # enum values: module globals are fast
    ACTION_KIND_GRILL,
    ACTION_KIND_MOVE,
    ACTION_KIND_PREPARE,
    ACTION_KIND_REST,
    ACTION_KIND_SAUCE,
    ACTION_KIND_SEASON,
    ACTION_KIND_SERVE,
    GRILL_SIDE_MEAT,
    GRILL_SIDE_VEGGIE,
    SPOT_GRILL,
    SPOT_PREPARE,
    SPOT_REST,
)

SPOT_PREPARE = SPOT_PREPARE
SPOT_GRILL = SPOT_GRILL
SPOT_REST = SPOT_REST
PREPARE = ACTION_KIND_PREPARE
SEASON = ACTION_KIND_SEASON
GRILL = ACTION_KIND_GRILL
SAUCE = ACTION_KIND_SAUCE
REST = ACTION_KIND_REST
SERVE = ACTION_KIND_SERVE
MOVE = ACTION_KIND_MOVE
BASE = {kind: LAYOUT.choose_base(kind) for kind in CHOOSE_KINDS}
_ROWS = LAYOUT.place_rows
_COLS = LAYOUT.place_cols
_SEASON = tuple(r.season for r in RECIPES)
_SAUCE = tuple(r.sauce for r in RECIPES)


def offset(rip: Any) -> int:
    """The placement offset of a tile lying somewhere (a RecipeInPlay or a TablePiece)."""
    return (rip.rotation * _ROWS + rip.row) * _COLS + rip.col


def grill_placement(rip: Any) -> geo.Placement:
    return geo.GRILL_BY_OFFSET[rip.card][offset(rip)]


def tile_mask(rip: Any) -> int:
    """The squares a recipe's tile takes in the area it lies in (Prepare, grill or Rest)."""
    spot = rip.spot
    if spot == SPOT_GRILL:
        return geo.GRILL_BY_OFFSET[rip.card][offset(rip)].mask
    by_offset = geo.PREPARE_BY_OFFSET if spot == SPOT_PREPARE else geo.REST_BY_OFFSET
    return by_offset[rip.card][offset(rip)].mask


def settle_squares(position: Any) -> None:
    """Rebuilds every taken-squares bitboard from the tiles (for positions set up by hand)."""
    grill, boards, table = computed_squares(position)
    position.grill_squares = grill
    position.table_squares = table
    for player, (prepare, rest) in zip(position.players, boards, strict=True):
        player.prepare_squares = prepare
        player.rest_squares = rest


def computed_squares(position: Any) -> tuple[int, list[tuple[int, int]], int]:
    """(grill, [(prepare, rest) per player], table) bitboards computed from the tiles."""
    grill = 0
    boards = []
    for player in position.players:
        prepare = rest = 0
        for rip in player.recipes:
            mask = tile_mask(rip)
            if rip.spot == SPOT_GRILL:
                grill |= mask
            elif rip.spot == SPOT_PREPARE:
                prepare |= mask
            else:
                rest |= mask
        boards.append((prepare, rest))
    by_offset = geo.TABLE_BY_OFFSET[len(position.players)]
    table = 0
    for piece in position.table:
        table |= by_offset[piece.card][offset(piece)].mask
    return grill, boards, table


def on_show(position: Any) -> list[int]:
    return [*position.meat_on_show, *position.veggie_on_show]


def choose_ids(position: Any, seat: int, kinds: set[int] | frozenset[int]) -> list[int]:
    """Ids of the recipe choices `seat` may make now for each of `kinds` (the six actions), unsorted."""
    ids: list[int] = []
    player = position.players[seat]
    if PREPARE in kinds:
        occupied = player.prepare_squares
        base = BASE[PREPARE]
        masks = geo.PREPARE_MASKS
        for card in (*position.meat_on_show, *position.veggie_on_show):
            if geo.fits(masks[card], occupied):
                ids.append(base + card)
    want_season = SEASON in kinds
    want_grill = GRILL in kinds
    want_sauce = SAUCE in kinds
    want_rest = REST in kinds
    want_serve = SERVE in kinds
    for rip in player.recipes:
        spot = rip.spot
        card = rip.card
        if spot == SPOT_PREPARE:
            if want_season and rip.season_cubes < _SEASON[card]:
                ids.append(BASE[SEASON] + card)
            if want_grill and geo.grill_fits(geo.GRILL_MASKS[card], position.grill_squares):
                ids.append(BASE[GRILL] + card)
        elif spot == SPOT_GRILL:
            if want_sauce and rip.sauce_cubes < _SAUCE[card]:
                ids.append(BASE[SAUCE] + card)
            if want_rest and not rip.grilled_this_turn and geo.fits(geo.REST_MASKS[card], player.rest_squares):
                ids.append(BASE[REST] + card)
        elif want_serve and geo.fits(geo.TABLE_MASKS[len(position.players)][card], position.table_squares):
            ids.append(BASE[SERVE] + card)
    return ids


def any_choice(position: Any, seat: int) -> bool:
    """Whether `seat` has any of the six actions open now (choose_ids, stopping at the first)."""
    player = position.players[seat]
    resting = False
    for rip in player.recipes:
        spot = rip.spot
        card = rip.card
        if spot == SPOT_PREPARE:
            if rip.season_cubes < _SEASON[card] or geo.grill_fits(geo.GRILL_MASKS[card], position.grill_squares):
                return True
        elif spot == SPOT_GRILL:
            if rip.sauce_cubes < _SAUCE[card]:
                return True
            if not rip.grilled_this_turn and geo.fits(geo.REST_MASKS[card], player.rest_squares):
                return True
        else:
            resting = True
    occupied = player.prepare_squares
    for card in (*position.meat_on_show, *position.veggie_on_show):
        if geo.fits(geo.PREPARE_MASKS[card], occupied):
            return True
    if resting:
        masks = geo.TABLE_MASKS[len(position.players)]
        for rip in player.recipes:
            if rip.spot == SPOT_REST and geo.fits(masks[rip.card], position.table_squares):
                return True
    return False


def any_move(position: Any, seat: int) -> bool:
    return any(_can_move(position, rip) for rip in position.players[seat].recipes)


def can_choose(position: Any, seat: int, kind: int, card: int) -> bool:
    """Whether `seat` may choose `card` for action `kind` now (the test choose_ids makes, for one id)."""
    player = position.players[seat]
    if kind == PREPARE:
        shown = card in position.meat_on_show or card in position.veggie_on_show
        return shown and geo.fits(geo.PREPARE_MASKS[card], player.prepare_squares)
    rip = next((r for r in player.recipes if r.card == card), None)
    if rip is None:
        return False
    spot = rip.spot
    if kind == SEASON:
        return spot == SPOT_PREPARE and rip.season_cubes < _SEASON[card]
    if kind == GRILL:
        return spot == SPOT_PREPARE and geo.grill_fits(geo.GRILL_MASKS[card], position.grill_squares)
    if kind == SAUCE:
        return spot == SPOT_GRILL and rip.sauce_cubes < _SAUCE[card]
    if kind == REST:
        return spot == SPOT_GRILL and not rip.grilled_this_turn and geo.fits(geo.REST_MASKS[card], player.rest_squares)
    if kind == SERVE:
        return spot == SPOT_REST and geo.fits(geo.TABLE_MASKS[len(position.players)][card], position.table_squares)
    return _can_move(position, rip)


def _can_move(position: Any, rip: Any) -> bool:
    if rip.spot != SPOT_GRILL or rip.moved_this_turn:
        return False
    other = 1 - grill_placement(rip).section
    return geo.grill_fits(geo.GRILL_SECTION_MASKS[rip.card][other], position.grill_squares)


def move_ids(position: Any, seat: int) -> list[int]:
    """Ids of the free moves `seat` may make now (each tile once per turn, to the other section)."""
    base = BASE[MOVE]
    ids = [base + rip.card for rip in position.players[seat].recipes if _can_move(position, rip)]
    ids.sort()
    return ids


def _place_masks(position: Any, seat: int, kind: int, card: int) -> tuple[Any, int, bool]:
    """(the placements a pending action may use, the squares taken there, whether it is on the grill)."""
    player = position.players[seat]
    if kind == PREPARE:
        return geo.PREPARE_MASKS[card], player.prepare_squares, False
    if kind == GRILL:
        return geo.GRILL_MASKS[card], position.grill_squares, True
    if kind == MOVE:
        other = 1 - grill_placement(find_recipe(player, card)).section
        return geo.GRILL_SECTION_MASKS[card][other], position.grill_squares, True
    if kind == REST:
        return geo.REST_MASKS[card], player.rest_squares, False
    return geo.TABLE_MASKS[len(position.players)][card], position.table_squares, False


def place_offsets(position: Any, seat: int, kind: int, card: int) -> list[int]:
    """Offsets of the legal placements of `card`'s tile for a pending action, ascending."""
    masks, occupied, on_grill = _place_masks(position, seat, kind, card)
    return geo.grill_offsets(masks, occupied) if on_grill else geo.free_offsets(masks, occupied)


def can_place(position: Any, seat: int, kind: int, card: int, place_offset: int) -> bool:
    """Whether the pending action may put `card`'s tile at `place_offset` (the test of place_offsets)."""
    player = position.players[seat]
    if kind in (GRILL, MOVE):
        placement = geo.GRILL_BY_OFFSET[card].get(place_offset)
        if placement is None:
            return False
        if kind == MOVE and placement.section == grill_placement(find_recipe(player, card)).section:
            return False
        occupied = position.grill_squares
        return not placement.mask & occupied and (placement.touches_edge or bool(placement.neighbours & occupied))
    if kind == PREPARE:
        placement, occupied = geo.PREPARE_BY_OFFSET[card].get(place_offset), player.prepare_squares
    elif kind == REST:
        placement, occupied = geo.REST_BY_OFFSET[card].get(place_offset), player.rest_squares
    else:
        placement = geo.TABLE_BY_OFFSET[len(position.players)][card].get(place_offset)
        occupied = position.table_squares
    return placement is not None and not placement.mask & occupied


def find_recipe(player: Any, card: int) -> Any:
    for rip in player.recipes:
        if rip.card == card:
            return rip
    raise KeyError(f"the player holds no recipe {card}")


def knob_of_side(position: Any, side: int) -> int:
    return position.meat_knob if side == GRILL_SIDE_MEAT else position.veggie_knob


def advance_by(position: Any, placement: geo.Placement, side: int) -> int:
    """Spaces a Grill track advances for a tile at `placement` cooked by `side`'s knob."""
    setting = knob_of_side(position, side)
    return MAIN_ADVANCE[setting] if placement.section == geo.MAIN_GRILL else RACK_ADVANCE[setting]


def sides_of(placement: geo.Placement) -> list[int]:
    """The knobs that may cook (or be turned for) a tile lying at `placement`."""
    out = []
    if placement.sides & geo.MEAT:
        out.append(GRILL_SIDE_MEAT)
    if placement.sides & geo.VEGGIE:
        out.append(GRILL_SIDE_VEGGIE)
    return out


def dish_points(rip: Any) -> int:
    """What a recipe scores when served: the covered values plus its bonus squares, never below zero."""
    recipe = RECIPES[rip.card]
    points = recipe.prepare[rip.prepare_cube] + rip.season_cubes + rip.sauce_cubes
    if rip.grill_cube >= 0:
        points += recipe.grill[rip.grill_cube]
    if rip.rest_cube >= 0:
        points += recipe.rest[rip.rest_cube]
    return max(0, points)


def largest_served(player: Any) -> int:
    """Squares of the largest food tile a player has served (the second tie break)."""
    return max((RECIPES[dish.card].squares for dish in player.served), default=0)
