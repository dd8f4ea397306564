"""The flow of a round: whose throw it is, the turn to the cleaning step, whose activation it is, and
the end of the round (the game's end, the head chef card, recipes refilled, chips back)."""

from __future__ import annotations

from typing import Any

from services.rules.games.hibachi.content import CHIP_VALUES, CONTENT, recipe_name
from services.rules.games.hibachi.table import chips_per_round, has_chip_on_board
from sizzle.common.v1.common_pb2 import Event
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb


def after_throw(state: Any) -> list[Event]:
    """Counts a throw; the next chef round the table throws, or the cleaning step begins."""
    state.throws_made += 1
    n = state.core.num_players
    if state.throws_made < n * chips_per_round(n):
        state.core.seat_to_move = (state.head_chef + state.throws_made) % n
        return []
    return start_cleaning(state)


def start_cleaning(state: Any) -> list[Event]:
    """Turns every chip in play face up and gives the first activation to the head chef (or the
    first chef round the table who has a chip on the board)."""
    state.phase = pb.PHASE_CLEANING
    shown = []
    for chip in state.chips:
        if chip.status == pb.CHIP_STATUS_ON_BOARD:
            chip.face_up = True
            shown.append(f"seat {chip.owner} {CHIP_VALUES[chip.value_index]}")
    events = [Event(seat=-1, text="cleaning: the chips are turned face up: " + (", ".join(shown) or "none in play"))]
    first = next_cleaner(state, state.head_chef)
    if first is None:
        return events + end_round(state)
    state.core.seat_to_move = first
    return events


def next_cleaner(state: Any, start: int) -> int | None:
    """The first seat from `start` round the table that still has a chip on the board."""
    n = state.core.num_players
    for step in range(n):
        seat = (start + step) % n
        if has_chip_on_board(state, seat):
            return seat
    return None


def after_activation(state: Any, seat: int) -> list[Event]:
    nxt = next_cleaner(state, seat + 1)
    if nxt is None:
        return end_round(state)
    state.core.seat_to_move = nxt
    return []


def end_round(state: Any) -> list[Event]:
    """Ends the round: the game ends if a chef has cooked enough recipes (or the round safeguard is
    reached); otherwise the head chef card moves, the recipes on show are refilled and the chips go
    back to their owners."""
    n = state.core.num_players
    done = [seat for seat, player in enumerate(state.players) if len(player.cooked) >= CONTENT.recipes_to_win]
    if done or state.round >= CONTENT.max_rounds:
        state.core.game_over = True
        why = (
            f"seat{'s' if len(done) > 1 else ''} {', '.join(map(str, done))} cooked {CONTENT.recipes_to_win} recipes"
            if done
            else f"round {state.round} was the last"
        )
        return [Event(seat=-1, text=f"the game ends: {why}")]
    events = []
    if state.next_head_chef >= 0:
        state.head_chef = state.next_head_chef
    else:
        state.head_chef = (state.head_chef + 1) % n
    state.next_head_chef = -1
    drawn = []
    while len(state.recipes_on_show) < CONTENT.recipes_on_show and state.recipe_deck:
        drawn.append(state.recipe_deck.pop(0))
        state.recipes_on_show.append(drawn[-1])
    if drawn:
        events.append(Event(seat=-1, text="new recipes on show: " + ", ".join(recipe_name(r) for r in drawn)))
    for chip in state.chips:
        chip.status = pb.CHIP_STATUS_IN_SUPPLY
        chip.x = chip.y = 0.0
        chip.face_up = False
        chip.arrival = -1
        chip.space_bits = 0
    state.round += 1
    state.phase = pb.PHASE_THROWING
    state.throws_made = 0
    state.arrivals = 0
    state.core.seat_to_move = state.head_chef
    events.append(Event(seat=-1, text=f"round {state.round}: seat {state.head_chef} is head chef"))
    return events
