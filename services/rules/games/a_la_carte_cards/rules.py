"""A la carte, the card game (rulebook 002, first part): draw, serve complete dishes, discard.

Setup deals six cards each and turns one card over to start the discard pile. A turn (RULINGS.md,
"A la carte: the card game"): take a card (the top of the deck, or the top of the discard pile);
serve, if the seat wishes, any complete dishes from the hand, face up, one point each; restock three
cards from the deck for each dish served this turn; discard one. When the deck is empty at a draw,
the discard pile except its top card is shuffled into a new deck; when a card must be drawn and
none is left, the game ends at once. Otherwise the timer (a match option, see timer.py) ends it.
Every player then scores the dishes served plus the best set of disjoint dishes still in hand
(scoring.py), and the most points win, ties shared.
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
    NUM_COURSES,
    NUM_RECIPES,
    course_name,
)
from services.rules.games.a_la_carte_cards.render import render_view
from services.rules.games.a_la_carte_cards.scoring import (
    NEEDS,
    best_dishes,
    can_serve,
    dishes_text,
    final_score,
    hand_score,
    served_points,
)
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

COUNTS = tuple(entry.count for entry in CONTENT.deck)
SERVE_IDS = tuple(LAYOUT.serve_base + r for r in range(NUM_RECIPES))
END_TEXT = {
    pb.END_REASON_ROUNDS: "the round timer ran out",
    pb.END_REASON_CLOCK: "the clock ran out",
    pb.END_REASON_KITCHEN_EMPTY: "the kitchen ran out of cards",
}


def _a(course: int) -> str:
    name = course_name(course)
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _dish(recipe: int) -> str:
    name = CONTENT.recipes[recipe].name
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _cards(courses: list[int]) -> str:
    return ", ".join(course_name(course) for course in courses)


def cards_to_draw(state: Any) -> int:
    """Cards the deck can still give: the deck and the discard pile below its top card (the top card
    stays when the pile is shuffled into a new deck)."""
    return len(state.deck) + max(len(state.discard_pile) - 1, 0)


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
    # 2: dishes are served as they are completed (serve, restock), the final score is dishes served
    # plus the best dishes still in hand, and the game ends when the kitchen has no card to draw.
    rules_revision = 2

    # ------------------------------------------------------------------ setup
    def setup(self, state: Any, options: Mapping[str, str], rng: RandomSource) -> None:
        timer = timer_from_options(options)
        state.rounds_limit = timer.rounds_limit
        state.clock_minutes = timer.clock_minutes
        deck = [entry.course for entry in CONTENT.deck for _ in range(entry.count)]
        rng.shuffle(deck)
        for _ in range(state.core.num_players):
            player = state.players.add()
            hand = [0] * NUM_COURSES
            for _ in range(CONTENT.hand_size):
                hand[COURSE_INDEX[deck.pop()]] += 1
            player.hand.extend(hand)
            player.known.extend([0] * NUM_COURSES)
            player.served.extend([0] * NUM_RECIPES)
        for _ in range(CONTENT.discard_pile_at_setup):
            state.discard_pile.append(deck.pop())
        state.deck.extend(deck)
        state.phase = pb.PHASE_DRAW
        state.round = 1

    # ------------------------------------------------------------------ legal actions
    def legal_action_ids(self, state: Any) -> list[int]:
        phase = state.phase
        if phase == pb.PHASE_DRAW:
            ids = []
            # The deck can be drawn from while it, or the pile below its top, holds a card; the pile
            # holds at least the card discarded last at every draw.
            if cards_to_draw(state):
                ids.append(LAYOUT.draw_from_deck)
            if state.discard_pile:
                ids.append(LAYOUT.take_discard)
            return ids
        hand = state.players[state.core.seat_to_move].hand
        discards = [LAYOUT.discard_base + k for k in range(NUM_COURSES) if hand[k]]
        if phase == pb.PHASE_SERVE:
            serves = [LAYOUT.serve_base + r for r in range(NUM_RECIPES) if can_serve(hand, r)]
            # Serving nothing, the seat discards at once; after a dish it restocks before discarding.
            return [*serves, LAYOUT.done_serving] if state.dishes_served_this_turn else serves + discards
        return discards

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
            events.append(
                Event(
                    seat=seat,
                    text=f"seat {seat} draws from the deck",
                    secret_text=f"you draw {_a(course)}",
                    secret_seat=seat,
                )
            )
            self._after_draw(state, seat)
            return events
        if kind == "take_discard":
            course = state.discard_pile.pop()
            k = COURSE_INDEX[course]
            me.hand[k] += 1
            me.known[k] += 1  # everyone saw it taken
            self._after_draw(state, seat)
            return [Event(seat=seat, text=f"seat {seat} takes {_a(course)} from the discard pile")]
        if kind == "serve":
            return self._serve(state, seat, action.serve.recipe)
        if kind == "done_serving":
            return self._restock(state, seat, rng)
        course = action.discard.course
        text = f"seat {seat} discards {_a(course)}"
        if state.phase == pb.PHASE_SERVE:
            text = f"seat {seat} serves nothing and discards {_a(course)}"
        events = [self._discard(state, seat, course, text)]
        events.extend(self._end_turn(state, seat))
        return events

    def _after_draw(self, state: Any, seat: int) -> None:
        """The serve step follows every draw, dish in hand or not, so that the step itself tells
        nobody whether the hand holds a complete dish."""
        state.dishes_served_this_turn = 0
        state.phase = pb.PHASE_SERVE

    def _serve(self, state: Any, seat: int, recipe: int) -> list[Event]:
        """Lays one complete dish face up in front of the seat. Serving ends when the seat says so
        (done serving), never by itself: that would tell the table the hand holds no other dish."""
        me = state.players[seat]
        for k, need in enumerate(NEEDS[recipe]):
            me.hand[k] -= need
            # Nobody can tell which of the seat's cards of the course went into the dish.
            me.known[k] = max(me.known[k] - need, 0)
        me.served[recipe] += 1
        state.dishes_served_this_turn += 1
        courses = list(CONTENT.recipes[recipe].courses)
        return [Event(seat=seat, text=f"seat {seat} serves {_dish(recipe)} ({_cards(courses)})")]

    def _restock(self, state: Any, seat: int, rng: RandomSource) -> list[Event]:
        """Draws restock_per_dish cards from the deck per dish served this turn, then the seat
        discards; the game ends at once if a card must be drawn and none is left."""
        me = state.players[seat]
        wanted = state.dishes_served_this_turn * CONTENT.restock_per_dish
        events: list[Event] = []
        drawn: list[int] = []
        for _ in range(wanted):
            if not state.deck:
                if len(state.discard_pile) <= 1:
                    events.append(self._restock_event(seat, drawn))
                    events.extend(self._finish(state, pb.END_REASON_KITCHEN_EMPTY))
                    return events
                events.extend(self._reshuffle(state, rng))
            course = state.deck.pop()
            me.hand[COURSE_INDEX[course]] += 1
            drawn.append(course)
        if wanted:
            events.append(self._restock_event(seat, drawn))
        state.phase = pb.PHASE_DISCARD
        return events

    @staticmethod
    def _restock_event(seat: int, drawn: list[int]) -> Event:
        return Event(
            seat=seat,
            text=f"seat {seat} restocks {len(drawn)} card(s) from the deck",
            secret_text=f"you restock: {_cards(drawn) or 'nothing'}",
            secret_seat=seat,
        )

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
        state.dishes_served_this_turn = 0
        if seat == n - 1:
            if state.round >= state.rounds_limit:
                return self._finish(state, pb.END_REASON_ROUNDS)
            state.round += 1
        state.core.seat_to_move = (seat + 1) % n
        return []

    def _finish(self, state: Any, reason: int) -> list[Event]:
        state.core.game_over = True
        state.end_reason = reason
        if reason == pb.END_REASON_ROUNDS and state.clock_minutes > 0:
            why = f"the kitchen closes after the safety limit of {state.rounds_limit} rounds"
        elif reason == pb.END_REASON_ROUNDS:
            why = f"the timer ran out after {state.rounds_limit} rounds"
        else:
            why = END_TEXT[reason]
        events = [Event(seat=-1, text=f"{why}: served dishes and hands are tallied")]
        for seat, player in enumerate(state.players):
            points, dishes = best_dishes(player.hand)
            served = served_points(player.served)
            events.append(
                Event(
                    seat=seat,
                    text=f"seat {seat} scores {served + points}: served {dishes_text(player.served)},"
                    f" in hand {dishes_text(dishes)}",
                )
            )
        return events

    # ------------------------------------------------------------------ the clock
    def clock_limit_seconds(self, state: Any) -> float | None:
        return state.clock_minutes * SECONDS_PER_MINUTE if state.clock_minutes > 0 else None

    def on_clock_expired(self, state: Any) -> list[Event]:
        if state.clock_minutes <= 0:
            raise GameError(
                common_pb2.ERROR_REASON_ILLEGAL_ACTION, "this game is timed by rounds, not by the clock"
            )
        events: list[Event] = []
        seat = state.core.seat_to_move
        if state.phase == pb.PHASE_SERVE:
            # The clock rang while the seat was serving: it serves no more and restocks for what it
            # served (the restock is part of the turn), then discards as below.
            events.append(Event(seat=-1, text=f"the clock rang mid-turn: seat {seat} stops serving"))
            events.extend(self._restock(state, seat, RandomSource(state.core.random)))
            if state.core.game_over:  # the restock found the kitchen empty
                return events
        if state.phase == pb.PHASE_DISCARD:
            # The clock rang between the draw and the discard: the seat finishes its turn with the
            # discard its hand misses least, so no hand is tallied with a seventh card.
            course = least_missed_course(state.players[seat].hand)
            text = f"the clock rang mid-turn: seat {seat} discards {_a(course)}, the card missed least"
            events.append(self._discard(state, seat, course, text))
        state.phase = pb.PHASE_DRAW
        state.dishes_served_this_turn = 0
        events.extend(self._finish(state, pb.END_REASON_CLOCK))
        return events

    # ------------------------------------------------------------------ the end
    def outcome(self, state: Any) -> common_pb2.Outcome | None:
        if not state.core.game_over:
            return None
        scores = [final_score(player.hand, player.served) for player in state.players]
        reason = END_TEXT.get(state.end_reason, "the game ended")
        keys = [(float(s),) for s in scores]
        return ranked_outcome(keys, scores, f"{reason}; most points from served dishes and dishes in hand win")

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
            dishes_served_this_turn=state.dishes_served_this_turn,
        )
        over = state.core.game_over
        for other, player in enumerate(state.players):
            served = served_points(player.served)
            pv = view.players.add(
                seat=other,
                hand_size=sum(player.hand),
                known=player.known,
                served=player.served,
                served_points=served,
            )
            if other == seat or over:
                pv.hand.extend(player.hand)
                points, dishes = best_dishes(player.hand)
                pv.score = served + points
                pv.dishes.extend(dishes)
        return view

    def observation(self, view: Any) -> np.ndarray:
        return encoding.observation(view)

    def resample_hidden(self, state: Any, seat: int, rng: RandomSource) -> Any:
        """Redraws the deck order and the cards of the others' hands nobody saw them take (once the
        game is over every hand is public, and only the deck order is redrawn)."""
        sample = pb.State()
        sample.CopyFrom(state)
        sample.core.random.counter = rng.next_u64()
        pool = list(sample.deck)
        others = [] if sample.core.game_over else [p for other, p in enumerate(sample.players) if other != seat]
        for player in others:
            for k in range(NUM_COURSES):
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
        totals = [0] * NUM_COURSES
        for course in [*state.deck, *state.discard_pile]:
            totals[COURSE_INDEX[course]] += 1
        over = state.core.game_over
        off_size = 0
        for seat, player in enumerate(state.players):
            assert len(player.hand) == len(player.known) == NUM_COURSES, "hand counts must cover every course"
            assert len(player.served) == NUM_RECIPES, "served counts must cover every recipe"
            assert min(player.served) >= 0, "served counts are never negative"
            assert all(0 <= known <= have for known, have in zip(player.known, player.hand, strict=True)), (
                "known cards must be in the hand"
            )
            size = sum(player.hand)
            if over:
                off_size += size != CONTENT.hand_size
                assert size <= CONTENT.hand_size + 1, "a hand holds too many cards"
            else:
                expected = CONTENT.hand_size
                if seat == state.core.seat_to_move and state.phase == pb.PHASE_DISCARD:
                    expected += 1
                elif seat == state.core.seat_to_move and state.phase == pb.PHASE_SERVE:
                    expected += 1 - state.dishes_served_this_turn * CONTENT.restock_per_dish
                assert size == expected, "wrong hand size"
            for k in range(NUM_COURSES):
                totals[k] += player.hand[k]
            for r, count in enumerate(player.served):
                for k in range(NUM_COURSES):
                    totals[k] += count * NEEDS[r][k]
        assert tuple(totals) == COUNTS, "cards were created or lost"
        assert state.phase in (pb.PHASE_DRAW, pb.PHASE_SERVE, pb.PHASE_DISCARD), "unknown phase"
        assert 1 <= state.round <= state.rounds_limit, "round outside the timer"
        assert state.dishes_served_this_turn >= 0, "negative dishes served this turn"
        if not over:
            assert state.end_reason == pb.END_REASON_UNSPECIFIED, "a running game has no end reason"
            me = state.players[state.core.seat_to_move]
            assert state.dishes_served_this_turn <= sum(me.served), "served this turn beyond served"
            if state.phase == pb.PHASE_DRAW:
                assert state.discard_pile, "the discard pile is empty at a draw"
                assert state.dishes_served_this_turn == 0, "a turn starts with no dish served"
        else:
            assert state.end_reason != pb.END_REASON_UNSPECIFIED, "a finished game needs an end reason"
            if state.end_reason == pb.END_REASON_KITCHEN_EMPTY:
                assert off_size <= 1 and not state.deck, "only the restocking seat's hand is short"
            else:
                assert off_size == 0, "every hand is tallied with its six cards"

    # ------------------------------------------------------------------ words
    def describe_action(self, state: Any, seat: int, action: Any) -> str:
        kind = action.WhichOneof("kind")
        if kind == "draw_from_deck":
            return "draw from the deck"
        if kind == "take_discard":
            if state.discard_pile:
                return f"take {_a(state.discard_pile[-1])} from the discard pile"
            return "take the top of the discard pile"
        if kind == "serve":
            recipe = action.serve.recipe
            if 0 <= recipe < NUM_RECIPES:
                return f"serve {_dish(recipe)}"
            raise ValueError(f"there is no recipe {recipe}")
        if kind == "done_serving":
            return "done serving"
        if kind == "discard":
            return f"discard {_a(action.discard.course)}"
        raise ValueError("an action of no kind")

    def render(self, view: Any) -> str:
        return render_view(view)


def least_missed_course(hand: Any) -> int:
    """The course whose discard keeps the most points (the first in content order among equals)."""
    best_course, best_points = COURSES[0], -1
    for k in range(NUM_COURSES):
        if hand[k]:
            rest = list(hand)
            rest[k] -= 1
            points = hand_score(rest)
            if points > best_points:
                best_course, best_points = COURSES[k], points
    return best_course
