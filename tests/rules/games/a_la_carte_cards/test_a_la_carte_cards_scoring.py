"""Scenario tests: scoring the most disjoint dishes, break the rules, the winner and ties."""

from __future__ import annotations

from services.rules.games.a_la_carte_cards import ENGINE
from services.rules.games.a_la_carte_cards.content import LAYOUT
from services.rules.games.a_la_carte_cards.scoring import NEEDS, best_dishes, hand_score
from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb
from tests.rules.games.a_la_carte_cards.a_la_carte_cards_positions import counts, position, results

CLASSIC, BREAK = 0, 1


def test_a_dish_is_an_appetizer_a_main_course_and_a_dessert() -> None:
    assert NEEDS[CLASSIC] == tuple(counts("AMD"))
    assert best_dishes(counts("AMDAAD")) == (1, (1, 0))


def test_break_the_rules_two_appetizers_and_a_main_course_make_a_dish() -> None:
    assert NEEDS[BREAK] == tuple(counts("AAM"))
    assert best_dishes(counts("AAMMMM")) == (1, (0, 1))


def test_best_score_needs_the_break_the_rules_dish() -> None:
    # A A A M M D: one classic meal alone scores 1; with break the rules (A A M) beside it, 2.
    hand = counts("AAAMMD")
    assert best_dishes(hand) == (2, (1, 1))
    only_classic = min(hand[k] // need for k, need in enumerate(NEEDS[CLASSIC]))
    assert only_classic == 1


def test_using_break_the_rules_would_lower_the_score() -> None:
    # A A M M D D: two classic meals score 2; a break-the-rules dish (A A M) leaves M D D, no dish.
    hand = counts("AAMMDD")
    assert best_dishes(hand) == (2, (2, 0))
    after_breaking = [have - need for have, need in zip(hand, NEEDS[BREAK], strict=True)]
    assert 1 + hand_score(after_breaking) == 1


def test_two_break_the_rules_dishes_from_four_appetizers_and_two_mains() -> None:
    assert best_dishes(counts("AAAAMM")) == (2, (0, 2))


def test_a_card_serves_one_dish_only() -> None:
    # A M D + A: the appetizer, main and dessert cannot also make a second dish.
    assert hand_score(counts("AMDA")) == 1
    assert hand_score(counts("AAMD")) == 1
    assert hand_score(counts("DDDMMM")) == 0


def test_scoring_is_exact_over_every_hand_of_up_to_seven_cards() -> None:
    # Brute force: try every way of peeling dishes off a hand, one at a time.
    def brute(hand: tuple[int, ...]) -> int:
        best = 0
        for need in NEEDS:
            if all(h >= n for h, n in zip(hand, need, strict=True)):
                best = max(best, 1 + brute(tuple(h - n for h, n in zip(hand, need, strict=True))))
        return best

    for a in range(8):
        for m in range(8 - a):
            for d in range(8 - a - m):
                assert hand_score((a, m, d)) == brute((a, m, d)), (a, m, d)


def test_most_points_win_and_ties_share_the_rank() -> None:
    # Last turn of the last round: seat 2 drew a seventh card and discards a dessert.
    state = position(
        ["AAMMDD", "AAAAMM", "AAMDDDD"], pile="M", seat=2, phase=pb.PHASE_DISCARD, round_=3, rounds_limit=3
    )
    ENGINE.apply(state, 2, pb.Action(discard=pb.Discard(course=pb.COURSE_DESSERT)))
    assert state.core.game_over
    ranked = results(state)
    assert [(r.score, r.rank, r.winner) for r in ranked] == [(2, 1, True), (2, 1, True), (1, 3, False)]


def test_nobody_scoring_is_a_tie_of_everyone() -> None:
    state = position(["MMMDDD", "DDDDDD"], pile="M", seat=1, round_=1, rounds_limit=1)
    ENGINE.apply(state, 1, LAYOUT.take_discard)
    ENGINE.apply(state, 1, pb.Action(discard=pb.Discard(course=pb.COURSE_MAIN_COURSE)))
    assert [(r.score, r.rank, r.winner) for r in results(state)] == [(0, 1, True), (0, 1, True)]
