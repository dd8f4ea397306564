"""Reading a table position: which squares are taken, what a recipe may do next, how far a track
advances and what a dish scores. Works on a State or a View alike (they share these fields), so the
rules, the views and the heuristic bot all read the position the same way."""

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
from sizzle.games.license_to_grill.v1 import license_to_grill_pb2 as pb

SPOT_PREPARE = pb.SPOT_PREPARE
SPOT_GRILL = pb.SPOT_GRILL
SPOT_REST = pb.SPOT_REST
PREPARE = pb.ACTION_KIND_PREPARE
SEASON = pb.ACTION_KIND_SEASON
GRILL = pb.ACTION_KIND_GRILL
SAUCE = pb.ACTION_KIND_SAUCE
REST = pb.ACTION_KIND_REST
SERVE = pb.ACTION_KIND_SERVE
MOVE = pb.ACTION_KIND_MOVE
BASE = {kind: LAYOUT.choose_base(kind) for kind in CHOOSE_KINDS}


def offset(rip: Any) -> int:
    return geo.offset_of(rip.rotation, rip.row, rip.col)


def grill_placement(rip: Any) -> geo.Placement:
    return geo.GRILL_BY_OFFSET[rip.card][offset(rip)]


def grill_occupied(position: Any) -> int:
    occupied = 0
    for player in position.players:
        for rip in player.recipes:
            if rip.spot == SPOT_GRILL:
                occupied |= geo.GRILL_BY_OFFSET[rip.card][offset(rip)].mask
    return occupied


def board_occupied(player: Any, spot: int) -> int:
    """Squares taken in a player's Prepare (SPOT_PREPARE) or Rest (SPOT_REST) area."""
    by_offset = geo.PREPARE_BY_OFFSET if spot == SPOT_PREPARE else geo.REST_BY_OFFSET
    occupied = 0
    for rip in player.recipes:
        if rip.spot == spot:
            occupied |= by_offset[rip.card][offset(rip)].mask
    return occupied


def table_occupied(position: Any, num_players: int) -> int:
    by_offset = geo.TABLE_BY_OFFSET[num_players]
    occupied = 0
    for piece in position.table:
        occupied |= by_offset[piece.card][geo.offset_of(piece.rotation, piece.row, piece.col)].mask
    return occupied


def on_show(position: Any) -> list[int]:
    return [*position.meat_on_show, *position.veggie_on_show]


def choose_ids(position: Any, seat: int, kinds: set[int] | frozenset[int]) -> list[int]:
    """Ids of the recipe choices `seat` may make now for each of `kinds` (the six actions), unsorted."""
    ids: list[int] = []
    player = position.players[seat]
    preparing, grilling, resting = [], [], []
    for rip in player.recipes:
        spot = rip.spot
        if spot == SPOT_PREPARE:
            preparing.append(rip)
        elif spot == SPOT_GRILL:
            grilling.append(rip)
        else:
            resting.append(rip)
    if PREPARE in kinds:
        cards = on_show(position)
        if cards:
            occupied = board_occupied(player, SPOT_PREPARE)
            base = BASE[PREPARE]
            ids.extend(base + card for card in cards if geo.fits(geo.PREPARE_MASKS[card], occupied))
    if SEASON in kinds:
        base = BASE[SEASON]
        ids.extend(base + r.card for r in preparing if r.season_cubes < RECIPES[r.card].season)
    if GRILL in kinds and preparing:
        occupied = grill_occupied(position)
        base = BASE[GRILL]
        ids.extend(base + r.card for r in preparing if geo.grill_fits(geo.GRILL_MASKS[r.card], occupied))
    if SAUCE in kinds:
        base = BASE[SAUCE]
        ids.extend(base + r.card for r in grilling if r.sauce_cubes < RECIPES[r.card].sauce)
    if REST in kinds and grilling:
        occupied = board_occupied(player, SPOT_REST)
        base = BASE[REST]
        ids.extend(
            base + r.card for r in grilling if not r.grilled_this_turn and geo.fits(geo.REST_MASKS[r.card], occupied)
        )
    if SERVE in kinds and resting:
        n = len(position.players)
        occupied = table_occupied(position, n)
        base = BASE[SERVE]
        masks = geo.TABLE_MASKS[n]
        ids.extend(base + r.card for r in resting if geo.fits(masks[r.card], occupied))
    return ids


def move_ids(position: Any, seat: int) -> list[int]:
    """Ids of the free moves `seat` may make now (each tile once per turn, to the other section)."""
    ids: list[int] = []
    occupied = -1
    for rip in position.players[seat].recipes:
        if rip.spot == SPOT_GRILL and not rip.moved_this_turn:
            if occupied < 0:
                occupied = grill_occupied(position)
            other = 1 - grill_placement(rip).section
            if geo.grill_fits(geo.GRILL_SECTION_MASKS[rip.card][other], occupied):
                ids.append(BASE[MOVE] + rip.card)
    ids.sort()
    return ids


def place_offsets(position: Any, seat: int, kind: int, card: int) -> list[int]:
    """Offsets of the legal placements of `card`'s tile for a pending action, ascending."""
    if kind == PREPARE:
        return geo.free_offsets(geo.PREPARE_MASKS[card], board_occupied(position.players[seat], SPOT_PREPARE))
    if kind == GRILL:
        return geo.grill_offsets(geo.GRILL_MASKS[card], grill_occupied(position))
    if kind == MOVE:
        rip = find_recipe(position.players[seat], card)
        other = 1 - grill_placement(rip).section
        return geo.grill_offsets(geo.GRILL_SECTION_MASKS[card][other], grill_occupied(position))
    if kind == REST:
        return geo.free_offsets(geo.REST_MASKS[card], board_occupied(position.players[seat], SPOT_REST))
    n = len(position.players)
    return geo.free_offsets(geo.TABLE_MASKS[n][card], table_occupied(position, n))


def find_recipe(player: Any, card: int) -> Any:
    for rip in player.recipes:
        if rip.card == card:
            return rip
    raise KeyError(f"the player holds no recipe {card}")


def knob_of_side(position: Any, side: int) -> int:
    return position.meat_knob if side == pb.GRILL_SIDE_MEAT else position.veggie_knob


def advance_by(position: Any, placement: geo.Placement, side: int) -> int:
    """Spaces a Grill track advances for a tile at `placement` cooked by `side`'s knob."""
    setting = knob_of_side(position, side)
    return MAIN_ADVANCE[setting] if placement.section == geo.MAIN_GRILL else RACK_ADVANCE[setting]


def sides_of(placement: geo.Placement) -> list[int]:
    """The knobs that may cook (or be turned for) a tile lying at `placement`."""
    out = []
    if placement.sides & geo.MEAT:
        out.append(pb.GRILL_SIDE_MEAT)
    if placement.sides & geo.VEGGIE:
        out.append(pb.GRILL_SIDE_VEGGIE)
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
