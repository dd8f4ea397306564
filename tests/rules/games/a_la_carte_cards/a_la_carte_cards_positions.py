"""Builds A la carte (card game) positions for scenario tests: hands written as course letters."""

from __future__ import annotations

from services.rules.games.a_la_carte_cards import ENGINE
from services.rules.games.a_la_carte_cards.content import CONTENT, COURSE_INDEX, K
from sizzle.common.v1 import common_pb2
from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb

LETTER = {"A": pb.COURSE_APPETIZER, "M": pb.COURSE_MAIN_COURSE, "D": pb.COURSE_DESSERT}
COUNTS = [entry.count for entry in CONTENT.deck]


def counts(letters: str) -> list[int]:
    """"AAMD" -> counts by course in content order."""
    hand = [0] * K
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
) -> pb.State:
    """A running game: the given hands and discard pile (bottom first); the deck holds every other
    card, with `deck_top` on top (its last letter is the very top card)."""
    state = ENGINE.new_game(len(hands), {}, seed)
    left = list(COUNTS)
    for text in [*hands, pile, deck_top]:
        for k, count in enumerate(counts(text)):
            left[k] -= count
    assert all(count >= 0 for count in left), "more cards than the deck holds"
    rest = [entry.course for k, entry in enumerate(CONTENT.deck) for _ in range(left[k])]
    state.deck[:] = rest + courses(deck_top)
    state.discard_pile[:] = courses(pile)
    for index, text in enumerate(hands):
        state.players[index].hand[:] = counts(text)
        state.players[index].known[:] = counts(known[index] if known else "")
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
