"""Single-minded plans of A la carte, the card game, and the figures of heuristic tables.

    python -m workers.bots.plans.a_la_carte_cards [--games N] [--players P ...] [--rounds NUM_RECIPES]

The plans are what a player hunting for the simplest strong plan would try: one source of cards
(always the deck, always the pile, always a main course off the pile), one serving habit (serve at
once, never serve and hoard for the end, always a Classic meal, always Break the rules) and one
discard habit (always the same course, when no dish can be served). The balance gate
(`workers.training.balance`) plays each against heuristic opponents.

Run as a script, it plays heuristic tables of every size (or --players) at the default timer (or
--rounds) and prints how often the kitchen ran out, the distribution of winning scores and the share
of games whose win was shared: the figures of docs/rules/a_la_carte_cards.md.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from services.rules.games.a_la_carte_cards.public import (
    CONTENT,
    COURSES,
    LAYOUT,
    NUM_COURSES,
    NUM_RECIPES,
    can_serve,
    course_name,
    final_score,
)
from services.rules.registry import get_engine
from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb
from workers.bots.heuristic import heuristic_bot
from workers.bots.plans import Plan
from workers.training.arena import play_out
from workers.training.tournament import wilson

GAME_ID = "a_la_carte_cards"
SERVE_IDS = range(LAYOUT.serve_base, LAYOUT.serve_base + NUM_RECIPES)
MAIN_COURSE = pb.COURSE_MAIN_COURSE
# The course every dish needs one of and the deck holds fewest of: it paces the game.
SCARCE = min(CONTENT.deck, key=lambda entry: entry.count).course

# The rulebook, not a ruling of ours, decides what a seat is worth: the first player may take the
# card turned face up at setup (a main course there, 17% of deals, lifts seat 0 to about 1.4x chance
# at six players; otherwise every seat is within 1.0 +- 0.07x). Our round timer gives every seat the
# same number of turns, and our end when the kitchen runs out cannot happen with the content's deck
# (docs/rules/a_la_carte_cards.md, "Balance"), so the seat shares are published, not gated.
SEATS_RULED_BY_US = False


def _holds_a_dish(view: Any) -> bool:
    hand = view.players[view.core.viewer].hand
    return any(can_serve(hand, r) for r in range(NUM_RECIPES))


def _always_discard(k: int) -> Plan:
    """Discards course k whenever it discards; a dish in hand is still served first (the discard
    habit is not a way to skip serving)."""
    action_id = LAYOUT.discard_base + k
    name = course_name(COURSES[k])
    article = "an" if name[:1].lower() in "aeiou" else "a"
    return Plan(f"always discard {article} {name}", lambda view, a: a == action_id and not _holds_a_dish(view))


def _serve_recipe(r: int) -> Plan:
    name = CONTENT.recipes[r].name
    title = f"always serve a {name}" if r == 0 else f"always {name}"
    return Plan(title, lambda view, a: a == LAYOUT.serve_base + r)


PLANS: tuple[Plan, ...] = (
    Plan("always draw from the deck", lambda view, a: a == LAYOUT.draw_from_deck),
    Plan("always take the discard pile", lambda view, a: a == LAYOUT.take_discard),
    Plan(
        "always take a Main course from the pile",
        lambda view, a: a == LAYOUT.take_discard and bool(view.discard_pile) and view.discard_pile[-1] == MAIN_COURSE,
    ),
    Plan("always serve at once", lambda view, a: a in SERVE_IDS),
    Plan("never serve (hoard for the end)", lambda view, a: a not in SERVE_IDS),
    *(_serve_recipe(r) for r in range(NUM_RECIPES)),
    *(_always_discard(k) for k in range(NUM_COURSES)),
)


@dataclass
class KitchenTable:
    """Heuristic games at one table size: how they ended and what won."""

    players: int
    games: int = 0
    kitchen_empty: int = 0
    shared_wins: int = 0
    winning_scores: Counter[int] = field(default_factory=Counter)
    seat_wins: list[float] = field(default_factory=list)
    scarce_left: int = 0  # cards of the scarcest course left in the deck and the pile at the ends
    scarce_gone: int = 0  # games that ended with none of them left there

    def line(self) -> str:
        low, high = wilson(self.kitchen_empty, self.games)
        tie_low, tie_high = wilson(self.shared_wins, self.games)
        scores = " ".join(f"{s}:{c / self.games:.1%}" for s, c in sorted(self.winning_scores.items()))
        mean = sum(s * c for s, c in self.winning_scores.items()) / self.games
        seats = " ".join(f"{w / self.games:.1%}" for w in self.seat_wins)
        scarce = course_name(SCARCE)
        return (
            f"{self.players}p {self.games} games | kitchen ran out {self.kitchen_empty / self.games:.1%}"
            f" [{low:.1%}, {high:.1%}] | {scarce} left in the kitchen at the end"
            f" {self.scarce_left / self.games:.1f}, none {self.scarce_gone / self.games:.1%}"
            f" | shared wins {self.shared_wins / self.games:.1%}"
            f" [{tie_low:.1%}, {tie_high:.1%}] | winning score mean {mean:.2f}: {scores} | seats {seats}"
        )


def kitchen_table(players: int, games: int, options: dict[str, str], seed: int) -> KitchenTable:
    """Plays `games` heuristic games at one table size."""
    engine = get_engine(GAME_ID)
    table = KitchenTable(players, seat_wins=[0.0] * players)
    for index in range(games):
        rng = random.Random(seed * 1_000_003 + players * 10_007 + index)
        bots = [heuristic_bot(GAME_ID, rng) for _ in range(players)]
        state = engine.new_game(players, options, rng.getrandbits(63))
        play_out(engine, state, bots)
        scores = [final_score(p.hand, p.served) for p in state.players]
        best = max(scores)
        winners = [seat for seat, score in enumerate(scores) if score == best]
        table.games += 1
        table.kitchen_empty += state.end_reason == pb.END_REASON_KITCHEN_EMPTY
        table.shared_wins += len(winners) > 1
        table.winning_scores[best] += 1
        left = sum(1 for course in [*state.deck, *state.discard_pile] if course == SCARCE)
        table.scarce_left += left
        table.scarce_gone += left == 0
        for seat in winners:
            table.seat_wins[seat] += 1.0 / len(winners)
    return table


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Heuristic tables of A la carte (card game): kitchen and scores")
    parser.add_argument("--games", type=int, default=1000, help="games per table size (default 1000)")
    parser.add_argument("--players", type=int, action="append", help="table size (repeatable; default: all)")
    parser.add_argument("--rounds", type=int, help="the round timer (default: the content's default)")
    parser.add_argument("--seed", type=int, default=20_261_206)
    args = parser.parse_args(argv)
    options = {"rounds": str(args.rounds)} if args.rounds else {}
    deck = ", ".join(f"{entry.count} {entry.name}" for entry in CONTENT.deck)
    print(f"deck: {deck}; rounds: {args.rounds or CONTENT.default_rounds}", flush=True)
    for players in args.players or range(CONTENT.min_players, CONTENT.max_players + 1):
        print(kitchen_table(players, args.games, options, args.seed).line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
