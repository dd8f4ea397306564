"""An expert at License to Grill: the training teacher (stronger than the heuristic beginner).

It reads only its view and the legal ids, and reuses the engine's own geometry and kitchen helpers.

The idea: a dish's points are the sum of three independent timing choices (when to Grill decides the
Prepare value, when to Rest decides the Grill value, when to Serve decides the Rest value), plus one
point per Season or Sauce cube. So for every recipe it holds the expert works out, with a tiny
dynamic programme over each track, the best points it can still make (each turn of waiting costs a
little, for tempo), and scores every action by how much doing it *now* beats doing it one turn
later, plus a bias towards finishing dishes (Serve > Rest > Grill): a dish on the table is points in
the bank and one step closer to the four-dish end.

What it does that the beginner does not:
- Just-in-time cooking: it takes a recipe when it can put it on the grill soon (most Prepare tracks
  fall every turn), instead of hoarding three that go stale; marinated recipes may wait.
- Season and Sauce are worth one point for a whole action, so they fill in only when nothing in
  the pipeline can move (covered Season / Sauce icons are free, and always taken).
- Tablecloth: it serves over the icons it can actually use right away (a covered Rest with a tile on
  the grill, a covered Serve with another dish resting, ...), since each is a free action.
- Knobs: it turns a knob for its own tiles and against its opponents' tiles on that side.
- Tempo: finishing dishes comes first (Serve, then Rest, then Grill), even a little before their
  peak: the heuristic players wait for peaks and lose the race to four dishes.
- The end: once a rival has served three dishes, plans that need more turns than the game likely
  has left are worth nothing; on its last turn it serves everything it can (a dish left behind
  scores nothing). It serves its fourth dish (which ends the game) gladly when it then leads, and
  does not hold it back when a little behind: measured, the race pays more than waiting, because the
  beginners do not make the most of their last turn.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any

from services.rules.games.license_to_grill import geometry as geo
from services.rules.games.license_to_grill import kitchen as kit
from services.rules.games.license_to_grill.public import (
    CHOOSE_KINDS,
    CONTENT,
    LAYOUT,
    MAIN_ADVANCE,
    NUM_RECIPES,
    RACK_ADVANCE,
    RECIPES,
)
from sizzle.games.license_to_grill.v1 import license_to_grill_pb2 as pb
from workers.bots.heuristic.license_to_grill import (  # the same packing measure and stop as the beginner
    _snugness,
    _stop_id,
)

PLACE_BASE = LAYOUT.place_base
NEG = -1e9  # a plan that cannot be carried out (the food is ruined first)
LONG = 12  # turns ahead when the end is not in sight
DISHES_TO_END = CONTENT.dishes_to_end
# `make train` reproduces the shipped model: expert iteration (imitation of this expert, then four
# rounds of 6,000 labels by rollout search over the network; docs/bots.md), about an hour on two
# cores; the 100 minutes are only a safety cap (a run it cuts short does not reproduce).
TRAINING_DEFAULTS = {"teacher": "iteration", "minutes": 100.0, "rounds": 4}

# Tuning (points).
WAIT = 0.4  # cost of each turn a dish waits (tempo: the game is a race to four dishes)
# Bias towards finishing dishes: a strong one (a served dish is banked and brings the end nearer).
FINISH_BONUS = {kit.SERVE: 8.0, kit.REST: 3.5, kit.GRILL: 1.0}
BONUS_POINT = 0.3  # Season / Sauce: worth a point, but an action spent on the pipeline is worth more
PREPARE_COST = 4.0  # the three actions a new recipe still needs
WAITING_PENALTY = 1.0  # per recipe already waiting in the Prepare area
LEAD_BONUS = 10.0  # serving the game-ending dish while ahead (counting what else we serve this turn)
BEHIND_PENALTY = 0.0  # ... while behind: none, the race pays (the beginner wastes its last turn)
OPPONENT_WEIGHT = 0.3  # knob: how much hurting an opponent's tile counts against helping our own
SNUG = 0.3  # weight of compact packing when placing a tile
ICON_VALUE = {
    pb.ACTION_KIND_SERVE: 4.0,
    pb.ACTION_KIND_REST: 3.0,
    pb.ACTION_KIND_GRILL: 2.5,
    pb.ACTION_KIND_SAUCE: 1.0,
    pb.ACTION_KIND_SEASON: 1.0,
    pb.ACTION_KIND_PREPARE: 1.0,
}


# ---------------------------------------------------------------------- track plans (pure, cached)
@cache
def rest_plan(card: int, cube: int, now_ok: bool, horizon: int = LONG) -> float:
    """Best Rest-track value from `cube`, serving now (if allowed) or after some turns of waiting
    (at most `horizon` more turns: the game may end before)."""
    track = RECIPES[card].rest
    best = NEG
    for wait in range(0 if now_ok else 1, min(len(track) - cube, horizon + 1)):
        best = max(best, track[cube + wait] - WAIT * wait)
    return best


@cache
def grill_plan(
    card: int, cube: int, steps: tuple[int, ...], rest_ok: bool, serve_ok: bool, horizon: int = LONG
) -> float:
    """Best Grill + Rest value from Grill `cube`: rest now (if allowed) or wait a turn, advancing by
    one of `steps` (the settings the tile may cook at), and decide again."""
    track = RECIPES[card].grill
    best = NEG
    if rest_ok and cube < len(track):
        best = track[cube] + rest_plan(card, 0, serve_ok, horizon)
    if horizon > 0:
        for step in steps:
            if cube + step < len(track):
                best = max(best, grill_plan(card, cube + step, steps, True, True, horizon - 1) - WAIT)
    return best


@cache
def prepare_plan(card: int, cube: int, grill_ok: bool, steps: tuple[int, ...], horizon: int = LONG) -> float:
    """Best Prepare + Grill + Rest value from Prepare `cube`: grill now (if allowed) or later."""
    track = RECIPES[card].prepare
    best = NEG
    for wait in range(0 if grill_ok else 1, min(len(track) - cube, horizon + 1)):
        after = grill_plan(card, 0, steps, False, False, horizon - wait)
        best = max(best, track[cube + wait] - WAIT * wait + after)
    return best


def _dish(fixed: float, plan: float) -> float:
    """A plan's dish points (a ruined dish scores nothing; a served one never below zero)."""
    return 0.0 if plan <= NEG / 2 else max(0.0, fixed + plan)


class LicenseToGrillExpert:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        phase = view.phase
        if phase == pb.PHASE_PLACE:
            return self._best_place(view, legal_actions)
        if phase == pb.PHASE_KNOB:
            return self._best_knob(view, legal_actions)
        if phase == pb.PHASE_ADVANCE:
            return self._best_advance(view, legal_actions)
        return self._best_choice(view, legal_actions)

    # ------------------------------------------------------------------ reading the position
    @staticmethod
    def _me(view: Any) -> Any:
        return view.players[view.core.viewer]

    @staticmethod
    def _last_turn(view: Any) -> bool:
        """After a fourth dish every other player takes one more turn: this is ours."""
        return view.end_trigger_seat >= 0

    @staticmethod
    def _card_steps(view: Any, card: int) -> tuple[int, ...]:
        """Advances a recipe not yet on the grill may cook at (Main Grill or Warming Rack, its knobs)."""
        cook_on = RECIPES[card].cook_on
        knobs = []
        if cook_on != pb.COOK_ON_VEGGIE:
            knobs.append(view.meat_knob)
        if cook_on != pb.COOK_ON_MEAT:
            knobs.append(view.veggie_knob)
        return tuple(sorted({MAIN_ADVANCE[k] for k in knobs} | {RACK_ADVANCE[k] for k in knobs}))

    @staticmethod
    def _tile_steps(view: Any, rip: Any, placement: geo.Placement | None = None) -> tuple[int, ...]:
        """Advances a grill tile may get next turn: where it lies, or the other section after a move."""
        placement = placement or kit.grill_placement(rip)
        sides = kit.sides_of(placement)
        steps = {kit.advance_by(view, placement, side) for side in sides}
        other = 1 - placement.section
        if geo.grill_fits(geo.GRILL_SECTION_MASKS[rip.card][other], view.grill_squares & ~placement.mask):
            table = RACK_ADVANCE if other == geo.WARMING_RACK else MAIN_ADVANCE
            steps |= {table[kit.knob_of_side(view, side)] for side in sides}
        return tuple(sorted(steps))

    @staticmethod
    def _fixed(rip: Any) -> float:
        """Points already decided: the covered Prepare/Grill values and the bonus cubes."""
        recipe = RECIPES[rip.card]
        points = rip.season_cubes + rip.sauce_cubes
        if rip.spot != pb.SPOT_PREPARE:
            points += recipe.prepare[rip.prepare_cube]
        if rip.spot == pb.SPOT_REST:
            points += recipe.grill[rip.grill_cube]
        return float(points)

    def _value(self, view: Any, rip: Any, horizon: int) -> float:
        """What a held recipe should still score, with good timing from here."""
        card = rip.card
        fixed = self._fixed(rip)
        if rip.spot == pb.SPOT_REST:
            return _dish(fixed, rest_plan(card, rip.rest_cube, True, horizon))
        if rip.spot == pb.SPOT_GRILL:
            steps = self._tile_steps(view, rip)
            plan = grill_plan(card, rip.grill_cube, steps, not rip.grilled_this_turn, True, horizon)
            return _dish(fixed, plan)
        fits = geo.grill_fits(geo.GRILL_MASKS[card], view.grill_squares)
        return _dish(fixed, prepare_plan(card, rip.prepare_cube, fits, self._card_steps(view, card), horizon))

    # ------------------------------------------------------------------ choosing an action
    def _best_choice(self, view: Any, legal_actions: Sequence[int]) -> int:
        # Stop (give up the covered icons, or end the turn with actions unspent) unless something helps.
        stop = _stop_id(legal_actions)
        best, best_score = (stop, 0.0) if stop is not None else (legal_actions[-1], NEG)
        bonus = view.phase == pb.PHASE_BONUS
        # Actions still to come after this one (a covered icon does not use one).
        after = view.actions_left - (0 if bonus else 1)
        for action_id in legal_actions:
            if action_id >= PLACE_BASE:
                continue
            kind = CHOOSE_KINDS[action_id // NUM_RECIPES]
            card = action_id % NUM_RECIPES
            score = self._choice_score(view, kind, card, after) + self.rng.random() * 0.01
            if score > best_score:
                best, best_score = action_id, score
        return best

    def _choice_score(self, view: Any, kind: int, card: int, after: int) -> float:
        me = self._me(view)
        if kind == kit.PREPARE:
            return self._prepare_score(view, me, card, after)
        rip = kit.find_recipe(me, card)
        if kind == kit.MOVE:
            return self._move_score(view, rip)
        if self._last_turn(view):
            return self._last_turn_score(view, me, kind, rip, after)
        recipe = RECIPES[card]
        fixed = self._fixed(rip)
        horizon = self._horizon(view)
        later = NEG  # waiting a turn: impossible when no turn is left
        if kind == kit.SERVE:
            now = _dish(fixed, recipe.rest[rip.rest_cube])
            if horizon > 0:
                later = rest_plan(card, rip.rest_cube + 1, True, horizon - 1) - WAIT
            return now - _dish(fixed, later) + FINISH_BONUS[kit.SERVE] + self._serve_timing(view, me, card, now, after)
        if kind == kit.REST:
            steps = self._tile_steps(view, rip)
            now = _dish(fixed, recipe.grill[rip.grill_cube] + rest_plan(card, 0, after > 0, horizon))
            grill = rip.grill_cube
            if horizon > 0:
                later = max(
                    (grill_plan(card, grill + s, steps, True, True, horizon - 1) - WAIT for s in steps),
                    default=NEG,
                )
            return now - _dish(fixed, later) + FINISH_BONUS[kit.REST]
        if kind == kit.GRILL:
            steps = self._card_steps(view, card)
            plan = grill_plan(card, 0, steps, False, False, horizon)
            now = _dish(fixed, recipe.prepare[rip.prepare_cube] + plan)
            if horizon > 0:
                later = prepare_plan(card, rip.prepare_cube + 1, True, steps, horizon - 1) - WAIT
            return now - _dish(fixed, later) + FINISH_BONUS[kit.GRILL]
        # Season or Sauce: a point, if the dish will be served.
        return BONUS_POINT if self._value(view, rip, horizon) > 0 else 0.0

    def _horizon(self, view: Any) -> int:
        """Turns we are likely to get after this one: few once a rival can serve a fourth dish."""
        if self._last_turn(view):
            return 0
        seat = view.core.viewer
        horizon = LONG
        for other, player in enumerate(view.players):
            if other == seat or len(player.served) < DISHES_TO_END - 1:
                continue
            spots = {r.spot for r in player.recipes}
            if pb.SPOT_REST in spots:
                horizon = min(horizon, 1)
            elif pb.SPOT_GRILL in spots:
                horizon = min(horizon, 2)
            else:
                horizon = min(horizon, 3)
        return horizon

    def _prepare_score(self, view: Any, me: Any, card: int, after: int) -> float:
        if self._last_turn(view):
            return -1.0
        steps = self._card_steps(view, card)
        grill_soon = after > 0 and geo.grill_fits(geo.GRILL_MASKS[card], view.grill_squares)
        value = _dish(0.0, prepare_plan(card, 0, grill_soon, steps, self._horizon(view)))
        waiting = sum(1 for r in me.recipes if r.spot == pb.SPOT_PREPARE)
        return (value - PREPARE_COST) * 0.5 - WAITING_PENALTY * waiting

    def _serve_timing(self, view: Any, me: Any, card: int, points: float, after: int) -> float:
        """A fourth dish ends the game: welcome when it leaves us ahead (with what else we can serve
        this turn), to be put off when behind (every rival still takes a turn)."""
        if len(me.served) + 1 < DISHES_TO_END:
            return 0.0
        mine = me.score + points + self._final_turn_gain(view, me, after, card)
        seat = view.core.viewer
        rivals = max(p.score + self._final_turn_gain(view, p) for s, p in enumerate(view.players) if s != seat)
        return LEAD_BONUS if mine > rivals else -BEHIND_PENALTY

    def _final_turn_gain(self, view: Any, player: Any, actions: int = 2, skip: int = -1) -> float:
        """Roughly what a player can still serve with `actions` actions (skipping recipe `skip`)."""
        gains = []
        for rip in player.recipes:
            if rip.card == skip:
                continue
            if rip.spot == pb.SPOT_REST:
                gains.append((kit.dish_points(rip), 1))
            elif rip.spot == pb.SPOT_GRILL:
                recipe = RECIPES[rip.card]
                points = self._fixed(rip) + recipe.grill[rip.grill_cube] + recipe.rest[0]
                gains.append((max(0.0, points), 2))
        gains.sort(key=lambda g: g[0] / g[1], reverse=True)
        total = 0.0
        for points, cost in gains:
            if cost <= actions:
                total += points
                actions -= cost
        return total

    def _last_turn_score(self, view: Any, me: Any, kind: int, rip: Any, after: int) -> float:
        """Our final turn: only what reaches the tablecloth counts."""
        if kind == kit.SERVE:
            return 100.0 + kit.dish_points(rip)
        if kind == kit.REST:
            if after <= 0 and pb.ACTION_KIND_SERVE not in view.bonus_icons:
                return -1.0
            recipe = RECIPES[rip.card]
            return 50.0 + max(0.0, self._fixed(rip) + recipe.grill[rip.grill_cube] + recipe.rest[0])
        if kind == kit.SAUCE and after >= 2:
            return 0.5
        return -1.0

    def _move_score(self, view: Any, rip: Any) -> float:
        """A free move to the other section when its next advance suits the tile better."""
        if self._last_turn(view):
            return -1.0
        placement = kit.grill_placement(rip)
        steps = self._tile_steps(view, rip)
        here = max(kit.advance_by(view, placement, side) for side in kit.sides_of(placement))
        table = RACK_ADVANCE if placement.section == geo.MAIN_GRILL else MAIN_ADVANCE
        there = max(table[kit.knob_of_side(view, side)] for side in kit.sides_of(placement))
        if here == there:
            return -1.0
        card = rip.card
        return (
            grill_plan(card, rip.grill_cube + there, steps, True, True)
            - grill_plan(card, rip.grill_cube + here, steps, True, True)
            - 0.05
        )

    # ------------------------------------------------------------------ placing a tile
    def _best_place(self, view: Any, legal_actions: Sequence[int]) -> int:
        kind, card = view.pending_kind, view.pending_card
        n = view.core.num_players
        me = self._me(view)
        best, best_score = legal_actions[0], NEG
        for action_id in legal_actions:
            offset = action_id - PLACE_BASE
            if kind in (kit.GRILL, kit.MOVE):
                placement = geo.GRILL_BY_OFFSET[card][offset]
                score = self._grill_spot_score(view, me, card, placement)
                occupied, area = view.grill_squares, geo.GRILL_AREA
            elif kind == kit.SERVE:
                placement = geo.TABLE_BY_OFFSET[n][card][offset]
                score = self._icons_score(view, me, card, placement.icons)
                occupied, area = view.table_squares, geo.TABLE_AREAS[n]
            elif kind == kit.PREPARE:
                placement = geo.PREPARE_BY_OFFSET[card][offset]
                occupied, area, score = me.prepare_squares, geo.PREPARE_AREA, 0.0
            else:
                placement = geo.REST_BY_OFFSET[card][offset]
                occupied, area, score = me.rest_squares, geo.REST_AREA, 0.0
            score += SNUG * _snugness(placement.cells, occupied, area) + self.rng.random() * 0.01
            if score > best_score:
                best, best_score = action_id, score
        return best

    def _grill_spot_score(self, view: Any, me: Any, card: int, placement: geo.Placement) -> float:
        rip = kit.find_recipe(me, card)
        cube = max(rip.grill_cube, 0)
        step = max(kit.advance_by(view, placement, side) for side in kit.sides_of(placement))
        steps = self._card_steps(view, card)
        if cube + step >= len(RECIPES[card].grill):
            return -10.0
        return grill_plan(card, cube + step, steps, True, True)

    def _icons_score(self, view: Any, me: Any, card: int, icons: tuple[int, ...]) -> float:
        """The covered icons we can use at once (each is a free action), after serving `card`."""
        if not icons:
            return 0.0
        others = [r for r in me.recipes if r.card != card]
        usable = {
            pb.ACTION_KIND_SERVE: sum(1 for r in others if r.spot == pb.SPOT_REST),
            pb.ACTION_KIND_REST: sum(1 for r in others if r.spot == pb.SPOT_GRILL and not r.grilled_this_turn),
            pb.ACTION_KIND_GRILL: sum(1 for r in others if r.spot == pb.SPOT_PREPARE),
            pb.ACTION_KIND_SAUCE: sum(RECIPES[r.card].sauce - r.sauce_cubes for r in others if r.spot == pb.SPOT_GRILL),
            pb.ACTION_KIND_SEASON: sum(
                RECIPES[r.card].season - r.season_cubes for r in others if r.spot == pb.SPOT_PREPARE
            ),
            pb.ACTION_KIND_PREPARE: 2,
        }
        # A covered Rest makes a dish ready for a covered Serve, a covered Grill one for a covered Rest.
        usable[pb.ACTION_KIND_SERVE] += min(usable[pb.ACTION_KIND_REST], icons.count(pb.ACTION_KIND_REST))
        last = self._last_turn(view)
        total = 0.0
        for icon in icons:
            if usable[icon] > 0:
                usable[icon] -= 1
                if not last or icon in (pb.ACTION_KIND_SERVE, pb.ACTION_KIND_REST):
                    total += ICON_VALUE[icon]
        return total

    # ------------------------------------------------------------------ knobs
    def _best_knob(self, view: Any, legal_actions: Sequence[int]) -> int:
        best, best_score = LAYOUT.leave_knobs, self._heat_score(view, None, 0)
        for action_id in legal_actions:
            if action_id == LAYOUT.leave_knobs:
                continue
            index = action_id - LAYOUT.turn_knob_base
            side = (pb.GRILL_SIDE_MEAT, pb.GRILL_SIDE_VEGGIE)[index // 2]
            clicks = 1 if index % 2 else -1
            score = self._heat_score(view, side, clicks)
            if score > best_score + 0.1:
                best, best_score = action_id, score
        return best

    def _heat_score(self, view: Any, side: int | None, clicks: int) -> float:
        """Every grill tile's prospects after its owner's next advance with a knob turned: ours count
        for us, the opponents' against us."""
        seat = view.core.viewer
        total = 0.0
        for owner, player in enumerate(view.players):
            weight = 1.0 if owner == seat else -OPPONENT_WEIGHT
            for rip in player.recipes:
                if rip.spot != pb.SPOT_GRILL:
                    continue
                placement = kit.grill_placement(rip)
                if side is not None and side not in kit.sides_of(placement):
                    if owner != seat:
                        continue
                card = rip.card
                table = MAIN_ADVANCE if placement.section == geo.MAIN_GRILL else RACK_ADVANCE
                steps = self._tile_steps(view, rip)
                best = NEG
                for tile_side in kit.sides_of(placement):
                    setting = kit.knob_of_side(view, tile_side) + (clicks if tile_side == side else 0)
                    ahead = rip.grill_cube + table[setting]
                    if ahead < len(RECIPES[card].grill):
                        best = max(best, grill_plan(card, ahead, steps, True, True))
                total += weight * _dish(self._fixed(rip), best)
        return total

    def _best_advance(self, view: Any, legal_actions: Sequence[int]) -> int:
        card = view.advance_queue[0]
        rip = kit.find_recipe(self._me(view), card)
        placement = kit.grill_placement(rip)
        steps = self._card_steps(view, card)
        best, best_value = legal_actions[0], NEG
        for action_id, side in zip(legal_actions, (pb.GRILL_SIDE_MEAT, pb.GRILL_SIDE_VEGGIE), strict=False):
            ahead = rip.grill_cube + kit.advance_by(view, placement, side)
            value = grill_plan(card, ahead, steps, True, True) if ahead < len(RECIPES[card].grill) else NEG
            if value > best_value:
                best, best_value = action_id, value
        return best


__all__ = ["LicenseToGrillExpert"]
