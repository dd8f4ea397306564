"""A la carte (card game) content data, loaded once from content.txtpb, and the action-id layout."""

from __future__ import annotations

from dataclasses import dataclass

from services.rules.content import load_content
from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb

CONTENT: pb.Content = load_content(__file__, pb.Content)

# The courses in content order: hand counts, known counts and discard ids all use this index.
COURSES: tuple[int, ...] = tuple(entry.course for entry in CONTENT.deck)
COURSE_INDEX: dict[int, int] = {course: index for index, course in enumerate(COURSES)}
NUM_COURSES = len(COURSES)
NUM_RECIPES = len(CONTENT.recipes)
DECK_SIZE = sum(entry.count for entry in CONTENT.deck)
# After drawing, a hand holds one card more than between turns.
MAX_HAND = CONTENT.hand_size + 1


@dataclass(frozen=True)
class ActionLayout:
    """Dense ids: 0 draw from the deck, 1 take the top of the discard pile, then one serve id per
    recipe in content order, one id for done serving, then one discard id per course in content
    order."""

    recipes: int
    courses: int

    @property
    def draw_from_deck(self) -> int:
        return 0

    @property
    def take_discard(self) -> int:
        return 1

    @property
    def serve_base(self) -> int:
        return 2

    @property
    def done_serving(self) -> int:
        return self.serve_base + self.recipes

    @property
    def discard_base(self) -> int:
        return self.done_serving + 1

    @property
    def size(self) -> int:
        return self.discard_base + self.courses


LAYOUT = ActionLayout(recipes=NUM_RECIPES, courses=NUM_COURSES)


def course_name(course: int) -> str:
    """The course as printed, e.g. "Appetizer"."""
    return CONTENT.deck[COURSE_INDEX[course]].name


def _check_content() -> None:
    """Refuses content the rules cannot play (checked once at import)."""
    if len(set(COURSES)) != NUM_COURSES or pb.COURSE_UNSPECIFIED in COURSES:
        raise ValueError("content: each course must appear once in the deck")
    for recipe in CONTENT.recipes:
        known_courses = all(course in COURSE_INDEX for course in recipe.courses)
        if not recipe.courses or not known_courses or recipe.points <= 0:
            raise ValueError(f"content: recipe {recipe.name!r} needs courses of the deck and positive points")
    if not 1 <= CONTENT.min_players <= CONTENT.max_players:
        raise ValueError("content: bad player counts")
    # Setup deals every hand and starts the pile, and the first draw needs a deck card.
    needed = CONTENT.max_players * CONTENT.hand_size + CONTENT.discard_pile_at_setup + 1
    if DECK_SIZE < needed:
        raise ValueError(f"content: the deck needs at least {needed} cards, it has {DECK_SIZE}")
    if CONTENT.discard_pile_at_setup < 1:
        raise ValueError("content: the discard pile must start with a card")
    if not 1 <= CONTENT.min_rounds <= CONTENT.default_rounds <= CONTENT.max_rounds:
        raise ValueError("content: the default number of rounds must lie in the allowed range")
    # The restock gives back as many cards as a dish took, so a hand is back to its size after a turn.
    if any(len(recipe.courses) != CONTENT.restock_per_dish for recipe in CONTENT.recipes):
        raise ValueError("content: every recipe must take restock_per_dish cards")
    if CONTENT.clock_safety_rounds < 1:
        raise ValueError("content: clock games need a positive safety limit of rounds")


_check_content()
