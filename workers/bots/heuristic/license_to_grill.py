"""A sensible beginner at License to Grill (documented in docs/rules/license_to_grill.md).

It reads only its view and the legal ids. Each recipe choice gets a score from the recipe's tracks:
serve a resting dish when waiting would not make it better (or it is about to go cold); take a
dish off the grill when the next turn's heat would take it past its best; sauce and season while it
is free; grill what waits in the Prepare area once waiting would not make it better; take a new
recipe when there is room to cook it, preferring one that cooks on the side of the grill where its
other food cooks (one knob then suits them all). When no choice scores above zero it stops: it gives
up covered icons it cannot use well (keeping its actions), or ends the turn with actions unspent.
Tiles go where they touch the most edges and tiles (compact packing), on the tablecloth towards the
most useful icons, on the grill onto the Main Grill unless the heat would overcook them. The knob
is turned to suit its own tiles on that side; covered icons are used in the same order of preference.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from services.rules.games.license_to_grill import geometry as geo
from services.rules.games.license_to_grill import kitchen as kit
from services.rules.games.license_to_grill.public import (
    CHOOSE_KINDS,
    LAYOUT,
    MAIN_ADVANCE,
    NUM_RECIPES,
    RACK_ADVANCE,
    RECIPES,
)
from sizzle.games.license_to_grill.v1 import license_to_grill_pb2 as pb

PLACE_BASE = LAYOUT.place_base
PLACE_END = PLACE_BASE + LAYOUT.place_size
# Values of covered icons when placing a dish on the tablecloth.
ICON_VALUE = {
    pb.ACTION_KIND_SERVE: 3.0,
    pb.ACTION_KIND_GRILL: 2.5,
    pb.ACTION_KIND_REST: 2.0,
    pb.ACTION_KIND_SAUCE: 1.5,
    pb.ACTION_KIND_SEASON: 1.5,
    pb.ACTION_KIND_PREPARE: 1.0,
}


SAME_SIDE = 0.5  # a recipe that cooks where one's other food cooks: one knob suits them all


def _same_side(me: Any, recipe: Any) -> int:
    """How many of the recipes held cook on a side this recipe can cook on (yellow: either side)."""
    either = pb.COOK_ON_EITHER
    return sum(1 for r in me.recipes
               if recipe.cook_on == either or RECIPES[r.card].cook_on in (either, recipe.cook_on))


def _peak_ahead(track: tuple[int, ...], cube: int, step: int) -> bool:
    """Whether moving `step` spaces on from `cube` would score less than staying (or ruin)."""
    ahead = cube + step
    return ahead >= len(track) or track[ahead] < track[cube]


def _no_gain_ahead(track: tuple[int, ...], cube: int) -> bool:
    """Whether one more turn would add no points (or ruin): waiting then only costs time."""
    ahead = cube + 1
    return ahead >= len(track) or track[ahead] <= track[cube]


class LicenseToGrillHeuristic:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        phase = view.phase
        if phase == pb.PHASE_PLACE:
            return self._best_place(view, legal_actions)
        if phase == pb.PHASE_KNOB:
            return self._best_knob(view, legal_actions)
        if phase == pb.PHASE_ADVANCE:
            return self._best_advance(view, legal_actions)
        # Stop (give up the covered icons, or end the turn with actions unspent) unless something helps.
        stop = _stop_id(legal_actions)
        best, best_score = (stop, 0.0) if stop is not None else (legal_actions[-1], -1e9)
        for action_id in legal_actions:
            if action_id >= PLACE_BASE:
                continue
            score = self._choice_score(view, action_id) + self.rng.random() * 0.01
            if score > best_score:
                best, best_score = action_id, score
        return best

    # ------------------------------------------------------------------ choosing a recipe
    def _choice_score(self, view: Any, action_id: int) -> float:
        kind = CHOOSE_KINDS[action_id // NUM_RECIPES]
        card = action_id % NUM_RECIPES
        recipe = RECIPES[card]
        me = view.players[view.core.viewer]
        if kind == kit.PREPARE:
            held = len(me.recipes)
            if held >= 3:
                return -1.0
            return 2.0 + recipe.best_points / 10.0 - held + SAME_SIDE * _same_side(me, recipe)
        rip = kit.find_recipe(me, card)
        if kind == kit.SERVE:
            ruin_next = rip.rest_cube + 1 >= len(recipe.rest)
            if ruin_next or _no_gain_ahead(recipe.rest, rip.rest_cube):
                return 10.0 + kit.dish_points(rip) / 10.0
            return -0.5  # it gets better with a little rest
        if kind == kit.REST:
            placement = kit.grill_placement(rip)
            step = max(kit.advance_by(view, placement, side) for side in kit.sides_of(placement))
            if _peak_ahead(recipe.grill, rip.grill_cube, step):
                return 9.0
            return -1.0
        if kind == kit.SAUCE:
            return 4.0
        if kind == kit.GRILL:
            ruin_next = rip.prepare_cube + 1 >= len(recipe.prepare)
            if ruin_next or _no_gain_ahead(recipe.prepare, rip.prepare_cube):
                return 6.0
            return 1.0
        if kind == kit.SEASON:
            return 3.5
        if kind == kit.MOVE:
            return self._move_score(view, rip)
        return 0.0

    def _move_score(self, view: Any, rip: Any) -> float:
        """Move to the Warming Rack when the Main Grill would overcook next turn, back when it is slow."""
        recipe = RECIPES[rip.card]
        placement = kit.grill_placement(rip)
        side = kit.sides_of(placement)[0]
        setting = kit.knob_of_side(view, side)
        here = kit.advance_by(view, placement, side)
        there = RACK_ADVANCE[setting] if placement.section == geo.MAIN_GRILL else MAIN_ADVANCE[setting]
        track = recipe.grill

        def value(step: int) -> int:
            ahead = rip.grill_cube + step
            return track[ahead] if ahead < len(track) else -10

        return 1.0 if value(there) > value(here) else -1.0

    # ------------------------------------------------------------------ placing a tile
    def _best_place(self, view: Any, legal_actions: Sequence[int]) -> int:
        kind, card = view.pending_kind, view.pending_card
        n = view.core.num_players
        best, best_score = legal_actions[0], -1e9
        for action_id in legal_actions:
            offset = action_id - PLACE_BASE
            if kind in (kit.GRILL, kit.MOVE):
                placement = geo.GRILL_BY_OFFSET[card][offset]
                score = self._grill_spot_score(view, card, placement)
                occupied, area = view.grill_squares, geo.GRILL_AREA
            elif kind == kit.SERVE:
                placement = geo.TABLE_BY_OFFSET[n][card][offset]
                score = sum(ICON_VALUE[icon] for icon in placement.icons) * self._icon_use(view)
                occupied, area = view.table_squares, geo.TABLE_AREAS[n]
            else:
                by_offset = geo.PREPARE_BY_OFFSET if kind == kit.PREPARE else geo.REST_BY_OFFSET
                placement = by_offset[card][offset]
                player = view.players[view.core.viewer]
                occupied = player.prepare_squares if kind == kit.PREPARE else player.rest_squares
                area = geo.PREPARE_AREA if kind == kit.PREPARE else geo.REST_AREA
                score = 0.0
            score += 0.3 * _snugness(placement.cells, occupied, area) + self.rng.random() * 0.01
            if score > best_score:
                best, best_score = action_id, score
        return best

    def _icon_use(self, view: Any) -> float:
        """Icons matter less once nothing waits to be cooked."""
        return 1.0 if view.players[view.core.viewer].recipes else 0.3

    def _grill_spot_score(self, view: Any, card: int, placement: geo.Placement) -> float:
        recipe = RECIPES[card]
        me = view.players[view.core.viewer]
        rip = next((r for r in me.recipes if r.card == card), None)
        cube = rip.grill_cube if rip is not None and rip.grill_cube >= 0 else 0
        steps = [kit.advance_by(view, placement, side) for side in kit.sides_of(placement)]
        step = min(steps)
        ahead = cube + step
        value = recipe.grill[ahead] if ahead < len(recipe.grill) else -10
        return float(value)

    # ------------------------------------------------------------------ knobs
    def _best_knob(self, view: Any, legal_actions: Sequence[int]) -> int:
        me = view.players[view.core.viewer]
        best, best_score = LAYOUT.leave_knobs, self._heat_score(view, me, None, 0)
        for action_id in legal_actions:
            if action_id == LAYOUT.leave_knobs:
                continue
            index = action_id - LAYOUT.turn_knob_base
            side = (pb.GRILL_SIDE_MEAT, pb.GRILL_SIDE_VEGGIE)[index // 2]
            clicks = 1 if index % 2 else -1
            score = self._heat_score(view, me, side, clicks)
            if score > best_score + 0.1:
                best, best_score = action_id, score
        return best

    def _heat_score(self, view: Any, me: Any, side: int | None, clicks: int) -> float:
        """The own grill tiles' points after next turn's advance with a knob turned."""
        total = 0.0
        for rip in me.recipes:
            if rip.spot != pb.SPOT_GRILL:
                continue
            placement = kit.grill_placement(rip)
            track = RECIPES[rip.card].grill
            best = -1e9
            for tile_side in kit.sides_of(placement):
                setting = kit.knob_of_side(view, tile_side) + (clicks if tile_side == side else 0)
                table = MAIN_ADVANCE if placement.section == geo.MAIN_GRILL else RACK_ADVANCE
                ahead = rip.grill_cube + table[setting]
                best = max(best, track[ahead] if ahead < len(track) else -10)
            total += best
        return total

    def _best_advance(self, view: Any, legal_actions: Sequence[int]) -> int:
        card = view.advance_queue[0]
        rip = kit.find_recipe(view.players[view.core.viewer], card)
        placement = kit.grill_placement(rip)
        track = RECIPES[card].grill
        best, best_value = legal_actions[0], -1e9
        for action_id, side in zip(legal_actions, (pb.GRILL_SIDE_MEAT, pb.GRILL_SIDE_VEGGIE), strict=False):
            ahead = rip.grill_cube + kit.advance_by(view, placement, side)
            value = track[ahead] if ahead < len(track) else -10
            if value > best_value:
                best, best_value = action_id, value
        return best


def _stop_id(legal_actions: Sequence[int]) -> int | None:
    """The way to stop that keeps the most: give up the covered icons (the actions left stay), else
    end the turn; None when neither is legal (a choice must be made)."""
    for stop in (LAYOUT.skip_bonus, LAYOUT.end_turn):
        if stop in legal_actions:
            return stop
    return None


def _snugness(cells: tuple[tuple[int, int], ...], occupied: int, area: geo.Area) -> float:
    """Sides of the tile against an edge or another tile: compact packing leaves room for more."""
    touching = 0
    own = set(cells)
    for r, c in cells:
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if (nr, nc) in own:
                continue
            if not (0 <= nr < area.rows and 0 <= nc < area.cols) or occupied >> (nr * area.cols + nc) & 1:
                touching += 1
    return touching / len(cells)


__all__ = ["LicenseToGrillHeuristic"]
