"""Single-minded plans: the simplest strong strategies a player might try, one module per game.

`workers.bots.plans.<game_id>` defines `PLANS`, a tuple of `Plan`s. A plan names an action family or
a target ("always Bonus ingredient", "always draw from the deck") by a predicate over the seat's
view and a legal action id. `SingleMindedBot` plays the plan wherever one of its actions is legal
and otherwise plays as the game's heuristic does; where several of the plan's actions are legal,
the heuristic chooses among them. The balance gate (`workers.training.balance`, `make balance`)
pits each plan against heuristic opponents: none may win more than 1.25x chance (shared/RULINGS.md,
"Balance of what is ours").
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from workers.bots.heuristic import heuristic_bot


@dataclass(frozen=True)
class Plan:
    """One single-minded strategy: a name for people and the actions it always takes where legal."""

    name: str
    picks: Callable[[Any, int], bool]  # (the seat's view, a legal action id) -> whether the plan takes it


class SingleMindedBot:
    """Takes its plan's actions wherever one is legal, otherwise plays as the heuristic."""

    def __init__(self, game_id: str, plan: Plan, rng: random.Random) -> None:
        self.plan = plan
        self.heuristic = heuristic_bot(game_id, rng)

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        chosen = [a for a in legal_actions if self.plan.picks(view, a)]
        return self.heuristic.step(view, chosen or legal_actions)


def game_plans(game_id: str) -> tuple[Plan, ...]:
    """The plans of a game (its module's PLANS); none for a game without a module."""
    try:
        module = importlib.import_module(f"{__name__}.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{game_id}":
            raise
        return ()
    return tuple(module.PLANS)
