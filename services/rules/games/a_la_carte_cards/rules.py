"""A la carte, the card game (rulebook 002, first part): draw and discard to hold complete dishes.

Setup deals six cards each and turns one card over to start the discard pile. A turn is two
sub-actions: take a card (the top of the deck, or the top of the discard pile), then discard one.
When the deck is empty at a draw, the discard pile except its top card is shuffled into a new deck.
The timer (a match option, see timer.py) ends the game; every hand then scores its best set of
disjoint dishes (scoring.py), and the most points win, ties shared.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from services.kit.errors import GameError
from services.rules.engine import Engine, core_view, ranked_outcome
from services.rules.games.a_la_carte_cards import encoding
from services.rules.games.a_la_carte_cards.content import (
    CONTENT,
    COURSE_INDEX,
    COURSES,
    LAYOUT,
    K,
    course_name,
)
from services.rules.games.a_la_carte_cards.render import render_view
from services.rules.games.a_la_carte_cards.scoring import best_dishes, dishes_text, hand_score
from services.rules.games.a_la_carte_cards.timer import (
    MINUTES_OPTION,
    ROUNDS_OPTION,
    SECONDS_PER_MINUTE,
    timer_from_options,
)
from services.rules.random_source import RandomSource
from services.rules.spec import GameSpec
from sizzle.common.v1 import common_pb2
from sizzle.common.v1.common_pb2 import Event
from sizzle.games.a_la_carte_cards.v1 import a_la_carte_cards_pb2 as pb

DRAW_IDS = [LAYOUT.draw_from_deck, LAYOUT.take_discard]
COUNTS = tuple(entry.count for entry in CONTENT.deck)


def _a(course: int) -> str:
    name = course_name(course)
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


class ALaCarteCards(Engine):
    spec = GameSpec(
        game_id="a_la_carte_cards",
        display_name="A la carte (card game)",
        min_players=CONTENT.min_players,
        max_players=CONTENT.max_players,
        num_distinct_actions=LAYOUT.size,
        observation_shape=(encoding.OBSERVATION_SIZE,),
        options=(ROUNDS_OPTION, MINUTES_OPTION),
    )
    State = pb.State
    Action = pb.Action
    View = pb.View

    # ------------------------------------------------------------------ setup
    def setup(self, state: Any, options: Mapping[str, str], rng: RandomSource) -> None:
        timer = timer_from_options(options)
        state.rounds_limit = timer.rounds_limit
        state.clock_minutes = timer.clock_minutes
        deck = [entry.course for entry in CONTENT.deck for _ in range(entry.count)]
        rng.shuffle(deck)
        for _ in range(state.core.num_players):
            player = state.players.add()
            hand = [0] * K
            for _ in range(CONTENT.hand_size):
                hand[COURSE_INDEX[deck.pop()]] += 1
            player.hand.extend(hand)
            player.known.extend([0] * K)
        for _ in range(CONTENT.discard_pile_at_setup):
            state.discard_pile.append(deck.pop())
        state.deck.extend(deck)
        state.phase = pb.PHASE_DRAW
        state.round = 1

    # ------------------------------------------------------------------ legal actions
    def legal_action_ids(self, state: Any) -> list[int]:
        if state.phase == pb.PHASE_DRAW:
            # Content guarantees the deck and the pile below its top can feed a draw (content.py).
            return DRAW_IDS if state.discard_pile else [LAYOUT.draw_from_deck]
        hand = state.players[state.core.seat_to_move].hand
        return [LAYOUT.discard_base + k for k in range(K) if hand[k]]

    # ------------------------------------------------------------------ codec
    def id_to_action(self, state: Any, seat: int, action_id: int) -> pb.Action:
        return encoding.id_to_action(action_id)

    def action_to_id(self, state: Any, seat: int, action: Any) -> int | None:
        return encoding.action_to_id(action)

    # ------------------------------------------------------------------ applying
    def mutate(self, state: Any, seat: int, action: Any, rng: RandomSource) -> list[Event]:
        kind = action.WhichOneof("kind")
        me = state.players[seat]
        if kind == "draw_from_deck":
            events = self._reshuffle(state, rng) if not state.deck else []
            course = state.deck.pop()
            me.hand[COURSE_INDEX[course]] += 1
            state.phase = pb.PHASE_DISCARD
            events.append(
                Event(
                    seat=seat,
                    text=f"seat {seat} draws from the deck",
                    secret_text=f"you draw {_a(course)}",
                    secret_seat=seat,
                )
            )
            return events
        if kind == "take_discard":
            course = state.discard_pile.pop()
            k = COURSE_INDEX[course]
            me.hand[k] += 1
            me.known[k] += 1  # everyone saw it taken
            state.phase = pb.PHASE_DISCARD
            return [Event(seat=seat, text=f"seat {seat} takes {_a(course)} from the discard pile")]
        course = action.discard.course
        events = [self._discard(state, seat, course, f"seat {seat} discards {_a(course)}")]
        events.extend(self._end_turn(state, seat))
        return events

    def _reshuffle(self, state: Any, rng: RandomSource) -> list[Event]:
        """The deck ran out: the discard pile except its top card becomes the new deck."""
        below_top = list(state.discard_pile[:-1])
        del state.discard_pile[:-1]
        rng.shuffle(below_top)
        state.deck.extend(below_top)
        text = f"the deck ran out: {len(below_top)} discarded cards are shuffled into a new deck"
        return [Event(seat=-1, text=text)]

    def _discard(self, state: Any, seat: int, course: int, text: str) -> Event:
        me = state.players[seat]
        k = COURSE_INDEX[course]
        me.hand[k] -= 1
        if me.known[k]:
            # Had the seat held only known cards of this course, one of them is gone; had it held
            # unknown ones too, the others still know it holds at least one fewer.
            me.known[k] -= 1
        state.discard_pile.append(course)
        return Event(seat=seat, text=text)

    def _end_turn(self, state: Any, seat: int) -> list[Event]:
        n = state.core.num_players
        state.phase = pb.PHASE_DRAW
        if seat == n - 1:
            if state.round >= state.rounds_limit:
                return self._finish(state, pb.END_REASON_ROUNDS)
            state.round += 1
        state.core.seat_to_move = (seat + 1) % n
        return []

    def _finish(self, state: Any, reason: int) -> list[Event]:
        state.core.game_over = True
        state.end_reason = reason
        if reason == pb.END_REASON_CLOCK:
            why = "the clock ran out"
        elif state.clock_minutes > 0:
            why = f"the kitchen closes after the safety limit of {state.rounds_limit} rounds"
        else:
            why = f"the timer ran out after {state.rounds_limit} rounds"
        events = [Event(seat=-1, text=f"{why}: hands are tallied")]
        for seat, player in enumerate(state.players):
            points, dishes = best_dishes(player.hand)
            events.append(Event(seat=seat, text=f"seat {seat} scores {points} ({dishes_text(dishes)})"))
        return events

    # ------------------------------------------------------------------ the clock
    def clock_limit_seconds(self, state: Any) -> float | None:
        return state.clock_minutes * SECONDS_PER_MINUTE if state.clock_minutes > 0 else None

    def on_clock_expired(self, state: Any) -> list[Event]:
        if state.clock_minutes <= 0:
            raise GameError(
                common_pb2.ERROR_REASON_ILLEGAL_ACTION, "this game is timed by rounds, not by the clock"
            )
        events = []
        if state.phase == pb.PHASE_DISCARD:
            # The timer rang between the draw and the discard: the seat finishes its turn with the
            # discard its hand misses least, so no hand is tallied with a seventh card.
            seat = state.core.seat_to_move
            course = least_missed_course(state.players[seat].hand)
            text = f"the clock rang mid-turn: seat {seat} discards {_a(course)}, the card missed least"
            events.append(self._discard(state, seat, course, text))
            state.phase = pb.PHASE_DRAW
        events.extend(self._finish(state, pb.END_REASON_CLOCK))
        return events

    # ------------------------------------------------------------------ the end
    def outcome(self, state: Any) -> common_pb2.Outcome | None:
        if not state.core.game_over:
            return None
        scores = [hand_score(player.hand) for player in state.players]
        reason = "the clock ran out" if state.end_reason == pb.END_REASON_CLOCK else "the round timer ran out"
        keys = [(float(s),) for s in scores]
        return ranked_outcome(keys, scores, f"{reason}; most points from complete dishes win")

    # ------------------------------------------------------------------ views
    def view(self, state: Any, seat: int) -> pb.View:
        view = pb.View(
            core=core_view(state, seat),
            deck_size=len(state.deck),
            discard_pile=state.discard_pile,
            phase=state.phase,
            round=state.round,
            rounds_limit=state.rounds_limit,
            clock_minutes=state.clock_minutes,
            end_reason=state.end_reason,
        )
        over = state.core.game_over
        for other, player in enumerate(state.players):
            pv = view.players.add(seat=other, hand_size=sum(player.hand), known=player.known)
            if other == seat or over:
                pv.hand.extend(player.hand)
                points, dishes = best_dishes(player.hand)
                pv.score = points
                pv.dishes.extend(dishes)
        return view

    def observation(self, view: Any) -> np.ndarray:
        return encoding.observation(view)

    def resample_hidden(self, state: Any, seat: int, rng: RandomSource) -> Any:
        """Redraws the deck order and the cards of the others' hands nobody saw them take."""
        sample = pb.State()
        sample.CopyFrom(state)
        sample.core.random.counter = rng.next_u64()
        pool = list(sample.deck)
        others = [p for other, p in enumerate(sample.players) if other != seat]
        for player in others:
            for k in range(K):
                pool.extend([COURSES[k]] * (player.hand[k] - player.known[k]))
        rng.shuffle(pool)
        for player in others:
            unknown = sum(player.hand) - sum(player.known)
            hand = list(player.known)
            for _ in range(unknown):
                hand[COURSE_INDEX[pool.pop()]] += 1
            player.hand[:] = hand
        sample.deck[:] = pool
        return sample

    def check_invariants(self, state: Any) -> None:
        n = state.core.num_players
        assert len(state.players) == n, "wrong number of players"
        totals = [0] * K
        for course in [*state.deck, *state.discard_pile]:
            totals[COURSE_INDEX[course]] += 1
        for seat, player in enumerate(state.players):
            assert len(player.hand) == K and len(player.known) == K, "hand counts must cover every course"
            assert all(0 <= known <= have for known, have in zip(player.known, player.hand, strict=True)), (
                "known cards must be in the hand"
            )
            to_move = not state.core.game_over and seat == state.core.seat_to_move
            drawing = to_move and state.phase == pb.PHASE_DISCARD
            assert sum(player.hand) == CONTENT.hand_size + (1 if drawing else 0), "wrong hand size"
            for k in range(K):
                totals[k] += player.hand[k]
        assert tuple(totals) == COUNTS, "cards were created or lost"
        assert state.phase in (pb.PHASE_DRAW, pb.PHASE_DISCARD), "unknown phase"
        assert 1 <= state.round <= state.rounds_limit, "round outside the timer"
        if not state.core.game_over:
            assert state.end_reason == pb.END_REASON_UNSPECIFIED, "a running game has no end reason"
            if state.phase == pb.PHASE_DRAW:
                assert state.discard_pile, "the discard pile is empty at a draw"
        else:
            assert state.end_reason != pb.END_REASON_UNSPECIFIED, "a finished game needs an end reason"

    # ------------------------------------------------------------------ words
    def describe_action(self, state: Any, seat: int, action: Any) -> str:
        kind = action.WhichOneof("kind")
        if kind == "draw_from_deck":
            return "draw from the deck"
        if kind == "take_discard":
            if state.discard_pile:
                return f"take {_a(state.discard_pile[-1])} from the discard pile"
            return "take the top of the discard pile"
        if kind == "discard":
            return f"discard {_a(action.discard.course)}"
        raise ValueError("an action of no kind")

    def render(self, view: Any) -> str:
        return render_view(view)


def least_missed_course(hand: Any) -> int:
    """The course whose discard keeps the most points (the first in content order among equals)."""
    best_course, best_points = COURSES[0], -1
    for k in range(K):
        if hand[k]:
            rest = list(hand)
            rest[k] -= 1
            points = hand_score(rest)
            if points > best_points:
                best_course, best_points = COURSES[k], points
    return best_course
