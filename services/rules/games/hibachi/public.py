"""What bots, plans and training experts may use of hibachi: its content, its action layout and
the pure helpers of its rules, in one public surface (tests/test_import_graph.py holds that nothing
outside services/ reaches past it). Everything else in the package is the engine's own."""

from __future__ import annotations

from services.rules.games.hibachi.accuracy import hit_rates
from services.rules.games.hibachi.codec import id_to_action
from services.rules.games.hibachi.content import (
    ACTION_SPACE,
    CHILI,
    CHIP_VALUES,
    CHIPS_PER_SEAT,
    CONTENT,
    INGREDIENT_SPACE,
    INGREDIENTS,
    LAYOUT,
    SKILL_SPREADS,
    SPACE_INGREDIENT,
    THROWS_PER_ROUND,
)
from services.rules.games.hibachi.table import RECIPE_KINDS
from services.rules.games.hibachi.views import allocate

__all__ = [
    "ACTION_SPACE", "CHILI", "CHIPS_PER_SEAT", "CHIP_VALUES", "CONTENT", "INGREDIENTS", "INGREDIENT_SPACE",
    "LAYOUT", "RECIPE_KINDS", "SKILL_SPREADS", "SPACE_INGREDIENT", "THROWS_PER_ROUND", "allocate",
    "hit_rates", "id_to_action",
]
