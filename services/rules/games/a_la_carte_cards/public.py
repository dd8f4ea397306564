"""What bots, plans and training experts may use of a_la_carte_cards: its content, its action layout and
the pure helpers of its rules, in one public surface (tests/test_import_graph.py holds that nothing
outside services/ reaches past it). Everything else in the package is the engine's own."""

from __future__ import annotations

from services.rules.games.a_la_carte_cards.content import (
    CONTENT,
    COURSE_INDEX,
    COURSES,
    LAYOUT,
    NUM_COURSES,
    NUM_RECIPES,
    course_name,
)
from services.rules.games.a_la_carte_cards.encoding import unseen_counts
from services.rules.games.a_la_carte_cards.scoring import NEEDS, POINTS, can_serve, final_score, hand_score

__all__ = [
    "CONTENT", "COURSES", "COURSE_INDEX", "LAYOUT", "NEEDS", "NUM_COURSES", "NUM_RECIPES", "POINTS",
    "can_serve", "course_name", "final_score", "hand_score", "unseen_counts",
]
