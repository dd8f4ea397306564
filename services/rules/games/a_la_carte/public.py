"""What bots, plans and training experts may use of a_la_carte: its content, its action layout and
the pure helpers of its rules, in one public surface (tests/test_import_graph.py holds that nothing
outside services/ reaches past it). Everything else in the package is the engine's own."""

from __future__ import annotations

from services.rules.games.a_la_carte.actions import legal_ids
from services.rules.games.a_la_carte.content import (
    CONTENT,
    CUP_KINDS,
    DIE,
    LAYOUT,
    NUM_CONDIMENTS,
    NUM_CUP_KINDS,
    RECIPES,
    SKILL_NAMES,
    SKILLS,
    Recipe,
)
from services.rules.games.a_la_carte.kitchen import is_finished, is_spoiled

__all__ = [
    "CONTENT", "CUP_KINDS", "DIE", "LAYOUT", "NUM_CONDIMENTS", "NUM_CUP_KINDS", "RECIPES", "Recipe", "SKILLS",
    "SKILL_NAMES", "is_finished", "is_spoiled", "legal_ids",
]
