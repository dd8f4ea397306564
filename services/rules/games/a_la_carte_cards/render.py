"""A plain-text table of a view, for logs and terminals: the piles, every player's served dishes and
known cards, the viewer's hand; once the game is over every hand, its dishes, the points and the rank."""

from __future__ import annotations

from typing import Any

from services.rules.games.a_la_carte_cards.content import COURSES, NUM_COURSES, course_name
from services.rules.games.a_la_carte_cards.scoring import dishes_text
from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb


def cards_text(counts: Any) -> str:
    """Counts by course in words, e.g. "Appetizer x2, Dessert x1"."""
    return ", ".join(f"{course_name(COURSES[k])} x{counts[k]}" for k in range(NUM_COURSES) if counts[k]) or "-"


def _timer_text(view: Any) -> str:
    if view.clock_minutes > 0:
        return f"clock {view.clock_minutes:g} min (round {view.round}, safety limit {view.rounds_limit})"
    return f"round {view.round} of {view.rounds_limit}"


def render_view(view: Any) -> str:
    core = view.core
    if core.game_over:
        status = "GAME OVER (" + pb.EndReason.Name(view.end_reason).removeprefix("END_REASON_").lower() + ")"
    else:
        phase = pb.Phase.Name(view.phase).removeprefix("PHASE_").lower()
        status = f"seat {core.seat_to_move} to move ({phase})"
        if view.dishes_served_this_turn:
            status += f", {view.dishes_served_this_turn} dish(es) served this turn"
    top = course_name(view.discard_pile[-1]) if view.discard_pile else "-"
    lines = [
        f"A la carte (cards)  move {core.move_number}  {_timer_text(view)}  {status}",
        f"  deck {view.deck_size} | discard pile {len(view.discard_pile)} (top: {top})",
    ]
    if core.game_over:
        scores = [p.score for p in view.players]
        lines.append(f"  {'seat':<6}{'rank':<6}{'points':<8}{'served':<36}{'dishes in hand':<36}hand")
        for p in view.players:
            rank = 1 + sum(1 for s in scores if s > p.score)
            me = "*" if p.seat == core.viewer else ""
            lines.append(
                f"  {str(p.seat) + me:<6}{rank:<6}{p.score:<8}{dishes_text(p.served):<36}"
                f"{dishes_text(p.dishes):<36}{cards_text(p.hand)}"
            )
        return "\n".join(lines)
    for p in view.players:
        me = " (you)" if p.seat == core.viewer else ""
        known = cards_text(p.known)
        lines.append(
            f"  seat {p.seat}{me}: {p.served_points} point(s) served ({dishes_text(p.served)})"
            f" | {p.hand_size} cards | known: {known}"
        )
        if p.hand:
            lines.append(
                f"      hand: {cards_text(p.hand)} -> {dishes_text(p.dishes)}; {p.score} point(s) if the game ended now"
            )
    return "\n".join(lines)
