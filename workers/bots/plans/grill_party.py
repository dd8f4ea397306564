"""Grill Party's single-minded plans: the simple strategies a player hunting for a strong one would
try (docs/rules/grill_party.md, "Balance").

A plan is the set of actions it takes where one is legal (`SingleMindedBot` lets the heuristic choose
among them, and plays as the heuristic where none is). The exchange plans fix whom to exchange with or
how; the top-card plans fix which played card ends on top of the score pile (it blocks the identical
card for everyone else), leaving the heuristic to play every playable card as usual.

The under-deck plan acts only in matches with the tactical variant (`tactical=true`), so the gate
measures every plan under the default options and with the variant on (`OPTION_SETS`): with the
default options alone it measured nothing there (a black-box audit: it is the heuristic itself).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.rules.games.grill_party.public import CARDS, HOLDS, LAYOUT, condition_holds
from sizzle.games.grill_party.v1 import grill_party_pb2 as pb
from workers.bots.plans import Plan

KINDS = LAYOUT.kinds
# Seats: the rulebook's end (the game stops the moment someone plays out) decides what a seat is
# worth, not a ruling of ours.
SEATS_RULED_BY_US = False
# The options the balance gate plays each plan under: the rulebook's tactical variant is a match
# option a table may switch on.
OPTION_SETS: tuple[dict[str, str], ...] = ({}, {"tactical": "true"})
# How easy each card is to play: the share of the grills it holds on (every grill holds four grillables).
EASE = [sum(m >> c & 1 for m in HOLDS) / len(HOLDS) for c in range(LAYOUT.cards)]


def _exchange(action_id: int) -> tuple[int, int, int] | None:
    """(source, take, give) of an exchange id (source 0: the grill; r: the seat r places to the left)."""
    if action_id >= LAYOUT.play_base:
        return None
    source, rest = divmod(action_id, KINDS * KINDS)
    take, give = divmod(rest, KINDS)
    return source, take, give


def _with_grill(view: Any, action_id: int) -> bool:
    exchange = _exchange(action_id)
    return exchange is not None and exchange[0] == 0


def _with_next_player(view: Any, action_id: int) -> bool:
    exchange = _exchange(action_id)
    return exchange is not None and exchange[0] == 1


def _cards_left(player: Any) -> int:
    return int(player.hand_size + player.deck_size)


def _with_leader(view: Any, action_id: int) -> bool:
    """Takes from the stock of the other seat with the fewest cards left (any of them on a tie)."""
    exchange = _exchange(action_id)
    if exchange is None or exchange[0] == 0:
        return False
    me, n = view.core.viewer, view.core.num_players
    fewest = min(_cards_left(view.players[(me + r) % n]) for r in range(1, n))
    return _cards_left(view.players[(me + exchange[0]) % n]) == fewest


def _like_for_like(view: Any, action_id: int) -> bool:
    exchange = _exchange(action_id)
    return exchange is not None and exchange[1] == exchange[2]


def _playable(view: Any) -> list[int]:
    """The viewer's hand cards that match the grill and are not blocked by another face-up top card."""
    me = view.core.viewer
    blocked = {p.top_card for p in view.players if p.seat != me and p.HasField("top_card")}
    return [c for c in view.players[me].hand if c not in blocked and condition_holds(CARDS[c], view.grill)]


def _top_card(hardest: bool) -> Callable[[Any, int], bool]:
    """Plays every playable card, keeping for last (on top, where it blocks) the hardest or the
    easiest one to play."""

    def picks(view: Any, action_id: int) -> bool:
        if view.phase != pb.PHASE_PLAY or not LAYOUT.play_base <= action_id < LAYOUT.stop:
            return False
        playable = _playable(view)
        key = (lambda c: (-EASE[c], c)) if hardest else (lambda c: (EASE[c], c))
        last = min(playable, key=key)
        return action_id - LAYOUT.play_base != last or len(playable) == 1

    return picks


def _under_deck(view: Any, action_id: int) -> bool:
    return LAYOUT.tuck_base <= action_id < LAYOUT.draw


PLANS: tuple[Plan, ...] = (
    Plan("always exchange with the grill", _with_grill),
    Plan("always exchange with the next player", _with_next_player),
    Plan("always exchange with the leader", _with_leader),
    Plan("always like-for-like", _like_for_like),
    Plan("always the hardest card on top", _top_card(hardest=True)),
    Plan("always the easiest card on top", _top_card(hardest=False)),
    Plan("always put the hand under the deck", _under_deck),
)
