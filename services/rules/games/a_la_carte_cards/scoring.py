"""Scoring: served dishes, and a hand's largest number of points from disjoint dishes (rulebook
"tally up"; RULINGS.md: the final score is the dishes served plus the best dishes still in hand).

A card serves one dish at most, so a hand scores the best combination of recipes whose cards it
holds all at once. The search tries every count of every recipe (hands hold at most seven cards, so
this is a handful of steps) and is exact, unlike taking dishes greedily: a greedy "break the rules"
dish can cost a classic meal (A A M M D D scores two classic meals, but only one dish once two
appetizers and a main are spent on breaking the rules).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from services.rules.games.a_la_carte_cards.content import CONTENT, COURSE_INDEX, NUM_COURSES

# What each recipe takes, as counts per course (content order), and what it scores.
NEEDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 for course in recipe.courses if COURSE_INDEX[course] == k) for k in range(NUM_COURSES))
    for recipe in CONTENT.recipes
)
POINTS: tuple[int, ...] = tuple(recipe.points for recipe in CONTENT.recipes)


def best_dishes(hand: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """The best points a hand (counts by course) scores and how many dishes of each recipe make them.
    Among equally good sets, the one with more dishes of the earlier recipes (content order) wins."""
    return _best(tuple(hand))


def hand_score(hand: Sequence[int]) -> int:
    """The points of a hand's best set of disjoint dishes."""
    return _best(tuple(hand))[0]


@lru_cache(maxsize=4096)
def _best(hand: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return _search(hand, 0)


def _search(left: tuple[int, ...], recipe: int) -> tuple[int, tuple[int, ...]]:
    if recipe == len(NEEDS):
        return 0, ()
    needs = NEEDS[recipe]
    most = min(left[k] // need for k, need in enumerate(needs) if need)
    best_points = -1
    best_counts: tuple[int, ...] = ()
    # Most dishes of this recipe first, so that ties keep the earlier recipes.
    for count in range(most, -1, -1):
        rest = tuple(have - count * need for have, need in zip(left, needs, strict=True))
        points, counts = _search(rest, recipe + 1)
        points += count * POINTS[recipe]
        if points > best_points:
            best_points, best_counts = points, (count, *counts)
    return best_points, best_counts


def served_points(served: Sequence[int]) -> int:
    """The points of the dishes served (counts by recipe)."""
    return sum(count * points for count, points in zip(served, POINTS, strict=True))


def final_score(hand: Sequence[int], served: Sequence[int]) -> int:
    """A player's score: the dishes served plus the best set of disjoint dishes still in hand."""
    return served_points(served) + _best(tuple(hand))[0]


def can_serve(hand: Sequence[int], recipe: int) -> bool:
    """Whether the hand holds every card of the recipe."""
    return all(have >= need for have, need in zip(hand, NEEDS[recipe], strict=True))


def dishes_text(dishes: Sequence[int]) -> str:
    """A set of dishes in words, e.g. "Classic meal x1, Break the rules x1" (or "no dish")."""
    parts = [f"{CONTENT.recipes[r].name} x{count}" for r, count in enumerate(dishes) if count]
    return ", ".join(parts) or "no dish"
