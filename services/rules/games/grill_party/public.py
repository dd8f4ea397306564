"""What bots, plans and training experts may use of grill_party: its content, its action layout and
the pure helpers of its rules, in one public surface (tests/test_import_graph.py holds that nothing
outside services/ reaches past it). Everything else in the package is the engine's own."""

from __future__ import annotations

from services.rules.games.grill_party.content import LAYOUT
from services.rules.games.grill_party.rules import CARDS, GRILL_INDEX, GRILL_STATES, GRILLABLES, HOLDS, condition_holds

__all__ = [
    "CARDS", "GRILLABLES", "GRILL_INDEX", "GRILL_STATES", "HOLDS", "LAYOUT", "condition_holds",
]
