"""What bots, plans and training experts may use of license_to_grill: its content, its action layout and
the pure helpers of its rules, in one public surface (tests/test_import_graph.py holds that nothing
outside services/ reaches past it). Everything else in the package is the engine's own."""

from __future__ import annotations

from services.rules.games.license_to_grill.content import (
    CHOOSE_KINDS,
    CONTENT,
    LAYOUT,
    MAIN_ADVANCE,
    NUM_RECIPES,
    RACK_ADVANCE,
    RECIPES,
)

__all__ = [
    "CHOOSE_KINDS", "CONTENT", "LAYOUT", "MAIN_ADVANCE", "NUM_RECIPES", "RACK_ADVANCE", "RECIPES",
]
