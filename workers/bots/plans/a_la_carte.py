"""Single-minded plans at A la carte, the kitchen game: each always takes one family of actions (the
heat roll, a tip of the own dispensers, a coffee cup of one kind, the crepe, the trash can) or always
the same kind of dish where it is legal, and plays as the heuristic otherwise (docs/rules/a_la_carte.md,
"Balance"). The end after a fifth dish (the round is played out) and the order in which the starting
dishes are chosen (the last seat first) are our rulings, so every seat's share is held to the range too.
"""

from __future__ import annotations

from typing import Any

from services.rules.games.a_la_carte.public import LAYOUT, RECIPES, legal_ids
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb
from workers.bots.plans import Plan

SEATS_RULED_BY_US = True


def _is_dish(action_id: int) -> bool:
    return LAYOUT.dish_base <= action_id < LAYOUT.crepe


def _offered_dishes(view: Any) -> list[int]:
    return [a - LAYOUT.dish_base for a in legal_ids(view) if _is_dish(a)]


def _best_dish(view: Any, action_id: int, key: Any) -> bool:
    """Whether the id is a dish on offer that is best by `key` among those on offer."""
    if not _is_dish(action_id) or view.phase != pb.PHASE_CHOOSE_DISH:
        return False
    offered = _offered_dishes(view)
    return key(action_id - LAYOUT.dish_base) == max(key(dish) for dish in offered)


def _condiments(dish: int) -> int:
    return sum(RECIPES[dish].needs)


PLANS: tuple[Plan, ...] = (
    Plan("always heat", lambda view, a: a == LAYOUT.roll),
    Plan("always season", lambda view, a: LAYOUT.season_base <= a < LAYOUT.choose_heat_base),
    Plan("always a coffee break", lambda view, a: LAYOUT.swap_base <= a < LAYOUT.take_cup_base),
    Plan("always re-season", lambda view, a: LAYOUT.reseason_base <= a < LAYOUT.lower_base),
    Plan("always swap stoves", lambda view, a: LAYOUT.swap_base <= a < LAYOUT.spoons),
    Plan("always three spoons", lambda view, a: a == LAYOUT.spoons),
    Plan("always lower the heat", lambda view, a: LAYOUT.lower_base <= a < LAYOUT.take_cup_base),
    Plan("always the crepe", lambda view, a: a == LAYOUT.crepe),
    Plan("always trash a burnt dish", lambda view, a: a == LAYOUT.trash),
    Plan("always turn the knob up by 3", lambda view, a: a == LAYOUT.choose_heat_base + LAYOUT.choose_max - 1),
    Plan("always the dish worth most", lambda view, a: _best_dish(view, a, lambda d: RECIPES[d].points)),
    Plan("always the fewest condiments", lambda view, a: _best_dish(view, a, lambda d: -_condiments(d))),
    Plan(
        "always the widest green range",
        lambda view, a: _best_dish(view, a, lambda d: RECIPES[d].heat_max - RECIPES[d].heat_min),
    ),
)
