"""License to Grill's single-minded plans: the simple strategies a player hunting for a strong one
would try (docs/rules/license_to_grill.md, "Balance").

A plan is the set of actions it takes where one is legal (`SingleMindedBot` lets the heuristic choose
among them, and plays as the heuristic where none is). An action family ("always Serve at once")
takes that action whenever it can; a restriction ("only the meat cooler") takes every action except
the ones it rules out, so the heuristic still decides when to act and the plan decides how.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.rules.games.license_to_grill import geometry as geo
from services.rules.games.license_to_grill import kitchen as kit
from services.rules.games.license_to_grill.public import CHOOSE_KINDS, LAYOUT, NUM_RECIPES, RECIPES
from sizzle.games.license_to_grill.v1 import license_to_grill_pb2 as pb
from workers.bots.plans import Plan

PLACE_BASE = LAYOUT.place_base
PLACE_END = PLACE_BASE + LAYOUT.place_size
TURN_KNOB_BASE = LAYOUT.turn_knob_base
# Seats: the rulebook's race to four dishes decides what a seat is worth, not a ruling of ours.
SEATS_RULED_BY_US = False


def _choice(action_id: int) -> tuple[int, int] | None:
    """(action kind, recipe) of a recipe choice, or None for any other id."""
    if action_id >= PLACE_BASE:
        return None
    return CHOOSE_KINDS[action_id // NUM_RECIPES], action_id % NUM_RECIPES


def _always(kind: int) -> Callable[[Any, int], bool]:
    """Takes this action (or covered icon) whenever it is legal."""

    def picks(view: Any, action_id: int) -> bool:
        choice = _choice(action_id)
        return choice is not None and choice[0] == kind

    return picks


def _open_kinds(view: Any) -> set[int]:
    """The action kinds a recipe choice may be made for now (the covered icons' kinds in PHASE_BONUS)."""
    if view.phase == pb.PHASE_BONUS:
        return set(view.bonus_icons)
    return set(CHOOSE_KINDS) if view.phase == pb.PHASE_ACTION else set()


FINISHING = (kit.SERVE, kit.REST, kit.GRILL)


def _finish_first(view: Any, action_id: int) -> bool:
    """The dish nearest the tablecloth moves first: Serve, else Rest, else Grill."""
    choice = _choice(action_id)
    if choice is None or choice[0] not in FINISHING:
        return False
    kinds = _open_kinds(view)
    for kind in FINISHING:
        if kind == choice[0]:
            return True
        if kind in kinds and kit.choose_ids(view, view.core.viewer, {kind}):
            return False  # a step nearer the table is open
    return False


def _end_turn(view: Any, action_id: int) -> bool:
    return action_id == LAYOUT.end_turn


def _only_cooler(cooler: int) -> Callable[[Any, int], bool]:
    """Never takes a recipe from the other cooler."""

    def picks(view: Any, action_id: int) -> bool:
        choice = _choice(action_id)
        return choice is None or choice[0] != kit.PREPARE or RECIPES[choice[1]].cooler == cooler

    return picks


def _hold_at_most(count: int) -> Callable[[Any, int], bool]:
    """Never takes a recipe while holding `count` already (hoarding lets them go stale)."""

    def picks(view: Any, action_id: int) -> bool:
        choice = _choice(action_id)
        return choice is None or choice[0] != kit.PREPARE or len(view.players[view.core.viewer].recipes) < count

    return picks


def _by_size(smallest: bool) -> Callable[[Any, int], bool]:
    """Takes only the smallest (or largest) tile among the recipes it could take now."""

    def picks(view: Any, action_id: int) -> bool:
        choice = _choice(action_id)
        if choice is None or choice[0] != kit.PREPARE:
            return True
        sizes = [RECIPES[a % NUM_RECIPES].squares for a in kit.choose_ids(view, view.core.viewer, {kit.PREPARE})]
        best = min(sizes) if smallest else max(sizes)
        return RECIPES[choice[1]].squares == best

    return picks


def _grill_section(section: int) -> Callable[[Any, int], bool]:
    """Puts tiles only on this section of the grill (a Grill or a free move never goes to the other)."""

    def picks(view: Any, action_id: int) -> bool:
        if PLACE_BASE <= action_id < PLACE_END and view.pending_kind in (kit.GRILL, kit.MOVE):
            return geo.GRILL_BY_OFFSET[view.pending_card][action_id - PLACE_BASE].section == section
        choice = _choice(action_id)
        if choice is not None and choice[0] == kit.MOVE:
            # A free move goes to the other section: only towards this one.
            rip = kit.find_recipe(view.players[view.core.viewer], choice[1])
            return kit.grill_placement(rip).section != section
        return True

    return picks


def _knob(clicks: int) -> Callable[[Any, int], bool]:
    """After a Grill: always turn a knob this way (0: always leave the knobs)."""

    def picks(view: Any, action_id: int) -> bool:
        if clicks == 0:
            return action_id == LAYOUT.leave_knobs
        if not TURN_KNOB_BASE <= action_id < LAYOUT.leave_knobs:
            return False
        return ((action_id - TURN_KNOB_BASE) % 2 == 1) == (clicks > 0)

    return picks


PLANS: tuple[Plan, ...] = (
    Plan("always Prepare", _always(kit.PREPARE)),
    Plan("always Season", _always(kit.SEASON)),
    Plan("always Grill", _always(kit.GRILL)),
    Plan("always Sauce", _always(kit.SAUCE)),
    Plan("always Rest at once", _always(kit.REST)),
    Plan("always Serve at once", _always(kit.SERVE)),
    Plan("always finish a dish first", _finish_first),
    Plan("always end the turn at once", _end_turn),
    Plan("only the meat cooler", _only_cooler(pb.COOLER_MEAT)),
    Plan("only the veggie cooler", _only_cooler(pb.COOLER_VEGGIE)),
    Plan("never more than one recipe", _hold_at_most(1)),
    Plan("never more than two recipes", _hold_at_most(2)),
    Plan("always the smallest recipe", _by_size(smallest=True)),
    Plan("always the largest recipe", _by_size(smallest=False)),
    Plan("always the Main Grill", _grill_section(geo.MAIN_GRILL)),
    Plan("always the Warming Rack", _grill_section(geo.WARMING_RACK)),
    Plan("always turn the knob up", _knob(+1)),
    Plan("always turn the knob down", _knob(-1)),
    Plan("never touch the knobs", _knob(0)),
)
