"""Builds A la carte (card game) positions for scenario tests: hands written as course letters."""

from __future__ import annotations

from services.rules.games.a_la_carte_cards import ENGINE
from services.rules.games.a_la_carte_cards.content import CONTENT, COURSE_INDEX, NUM_COURSES, NUM_RECIPES
from services.rules.games.a_la_carte_cards.scoring import NEEDS
from sizzle.common.v1 import common_pb2
from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb

LETTER = {"A": pb.COURSE_APPETIZER, "M": pb.COURSE_MAIN_COURSE, "D": pb.COURSE_DESSERT}
COUNTS = [entry.count for entry in CONTENT.deck]
CLASSIC, BREAK = 0, 1  # positions in content `recipes`


def counts(letters: str) -> list[int]:
    """"AAMD" -> counts by course in content order."""
    hand = [0] * NUM_COURSES
    for letter in letters:
        hand[COURSE_INDEX[LETTER[letter]]] += 1
    return hand


def courses(letters: str) -> list[int]:
    return [LETTER[letter] for letter in letters]


def position(
    hands: list[str],
    pile: str,
    seat: int = 0,
    phase: int = pb.PHASE_DRAW,
    round_: int = 1,
    rounds_limit: int = CONTENT.default_rounds,
    deck_top: str = "",
    clock_minutes: float = 0.0,
    known: list[str] | None = None,
    seed: int = 5,
    served: list[list[int]] | None = None,
    served_this_turn: int = 0,
    deck: str | None = None,
    rest_served_by: int = 0,
    deck_counts: list[int] | None = None,
) -> pb.State:
    """A running game: the given hands, dishes served (counts by recipe) and discard pile (bottom
    first). The deck holds every other card, with `deck_top` on top (its last letter is the very top
    card); or, when `deck` is given, exactly those cards, and every other card lies in dishes served
    by seat `rest_served_by` (they must make whole Classic meals and Break the rules dishes).
    `deck_counts` plays with another deck than the content's (the caller patches the engine's counts)."""
    state = ENGINE.new_game(len(hands), {}, seed)
    served = [list(dishes) for dishes in served] if served else [[0] * NUM_RECIPES for _ in hands]
    left = list(deck_counts or COUNTS)
    for text in [*hands, pile, deck_top if deck is None else deck]:
        for k, count in enumerate(counts(text)):
            left[k] -= count
    for dishes in served:
        for r, count in enumerate(dishes):
            for k in range(NUM_COURSES):
                left[k] -= count * NEEDS[r][k]
    assert all(count >= 0 for count in left), "more cards than the deck holds"
    if deck is None:
        rest = [entry.course for k, entry in enumerate(CONTENT.deck) for _ in range(left[k])]
        state.deck[:] = rest + courses(deck_top)
    else:
        state.deck[:] = courses(deck)
        # Appetizers, mains, desserts left: Classic meals take one of each, Break the rules A A M.
        a, m, d = (left[COURSE_INDEX[LETTER[letter]]] for letter in "AMD")
        classic, breaking = d, m - d
        assert breaking >= 0 and a == classic + 2 * breaking, "the other cards make no whole dishes"
        served[rest_served_by][CLASSIC] += classic
        served[rest_served_by][BREAK] += breaking
    state.discard_pile[:] = courses(pile)
    for index, text in enumerate(hands):
        state.players[index].hand[:] = counts(text)
        state.players[index].known[:] = counts(known[index] if known else "")
        state.players[index].served[:] = served[index]
    state.dishes_served_this_turn = served_this_turn
    state.core.seat_to_move = seat
    state.phase = phase
    state.round = round_
    state.rounds_limit = rounds_limit
    state.clock_minutes = clock_minutes
    ENGINE.check_invariants(state)
    return state


def results(state: pb.State) -> list[common_pb2.SeatResult]:
    """The seat results of a finished game."""
    outcome = ENGINE.outcome(state)
    assert outcome is not None, "the game is not over"
    return list(outcome.results)
