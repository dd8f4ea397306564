"""License to Grill's rules: the turn (advance the tracks, two actions, free moves), every action's
conditions and effects, the placements, the knobs, serving with the tablecloth's icons, and the end.

A multi-part choice is a short sequence of sub-actions, and `State.phase` says which is pending:
choose a recipe for an action (PHASE_ACTION, or PHASE_BONUS for a covered icon), then place its tile
(PHASE_PLACE), then, after a Grill action, turn a knob (PHASE_KNOB). A recipe choice is offered only
when the tile has somewhere to go, so every pending placement has at least one legal square.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from services.rules.engine import Engine, ranked_outcome
from services.rules.games.license_to_grill import codec, views
from services.rules.games.license_to_grill import geometry as geo
from services.rules.games.license_to_grill import kitchen as kit
from services.rules.games.license_to_grill.content import (
    ACTION_KINDS,
    CHOOSE_KINDS,
    CONTENT,
    KNOB_NAMES,
    LAYOUT,
    NUM_RECIPES,
    RECIPES,
    kind_name,
    recipe_name,
    side_name,
)
from services.rules.games.license_to_grill.invariants import check_invariants
from services.rules.games.license_to_grill.render import render_view
from services.rules.random_source import RandomSource
from services.rules.spec import GameSpec
from sizzle.common.v1 import common_pb2
from sizzle.games.license_to_grill.v1 import license_to_grill_pb2 as pb
from sizzle.games.license_to_grill.v1.license_to_grill_pb2 import (  # enum values: module globals are fast
    ACTION_KIND_UNSPECIFIED,
    COOLER_MEAT,
    COOLER_VEGGIE,
    END_REASON_COOLERS_EMPTY,
    END_REASON_DISHES_SERVED,
    END_REASON_STALEMATE,
    GRILL_SIDE_MEAT,
    PHASE_ACTION,
    PHASE_ADVANCE,
    PHASE_BONUS,
    PHASE_FREE_MOVES,
    PHASE_KNOB,
    PHASE_PLACE,
    PHASE_UNSPECIFIED,
    SPOT_GRILL,
    SPOT_PREPARE,
    SPOT_REST,
)

Event = common_pb2.Event
EventList = list[common_pb2.Event]
ALL_ACTIONS = frozenset(ACTION_KINDS)
LAST_SETTING = len(CONTENT.knobs.settings) - 1
CLICKS = codec.CLICKS
PLACE_BASE = codec.PLACE_BASE
PLACE_SIZE = LAYOUT.place_size
LEAVE_KNOBS = codec.LEAVE_KNOBS
CHOOSE_KNOB_BASE = codec.CHOOSE_KNOB_BASE
SKIP_BONUS = codec.SKIP_BONUS
END_TURN = codec.END_TURN


class LicenseToGrill(Engine):
    spec = GameSpec(
        game_id="license_to_grill",
        display_name="License to Grill",
        min_players=CONTENT.min_players,
        max_players=CONTENT.max_players,
        num_distinct_actions=LAYOUT.size,
        observation_shape=(views.OBSERVATION_SIZE,),
        options=(),
    )
    State = pb.State
    Action = pb.Action
    View = pb.View
    # 2: EndTurn is legal whenever the seat chooses its next action (the two actions are a budget).
    rules_revision = 2

    # ------------------------------------------------------------------ setup
    def setup(self, state: Any, options: Mapping[str, str], rng: RandomSource) -> None:
        state.meat_knob = state.veggie_knob = CONTENT.knobs.start_setting
        for cooler, deck, shown in (
            (COOLER_MEAT, state.meat_cooler, state.meat_on_show),
            (COOLER_VEGGIE, state.veggie_cooler, state.veggie_on_show),
        ):
            cards = [r.id for r in RECIPES if r.cooler == cooler]
            rng.shuffle(cards)
            shown.extend(cards[: CONTENT.on_show_per_cooler])
            deck.extend(cards[CONTENT.on_show_per_cooler :])
        for _ in range(state.core.num_players):
            state.players.add()
        state.end_trigger_seat = -1
        state.final_turns_left = -1
        # "The player who prepared food most recently goes first": the table seats that player as seat 0.
        if not self._start_turn(state, 0, []):
            self._end_turn(state, 0, [])

    # ------------------------------------------------------------------ legal actions
    def legal_action_ids(self, state: Any) -> list[int]:
        seat = state.core.seat_to_move
        phase = state.phase
        if phase == PHASE_ACTION:
            # The two actions are a budget, not a duty (RULINGS): the turn may end between actions.
            ids = kit.choose_ids(state, seat, ALL_ACTIONS)
            ids.extend(kit.move_ids(state, seat))
            ids.sort()
            ids.append(END_TURN)
            return ids
        if phase == PHASE_PLACE:
            base = PLACE_BASE
            return [base + o for o in kit.place_offsets(state, seat, state.pending_kind, state.pending_card)]
        if phase == PHASE_KNOB:
            return self._knob_ids(state)
        if phase == PHASE_BONUS:
            ids = kit.choose_ids(state, seat, set(state.bonus_icons))
            ids.sort()
            ids.extend((SKIP_BONUS, END_TURN))
            return ids
        if phase == PHASE_FREE_MOVES:
            return [*kit.move_ids(state, seat), END_TURN]
        if phase == PHASE_ADVANCE:
            return [CHOOSE_KNOB_BASE, CHOOSE_KNOB_BASE + 1]
        raise ValueError(f"unknown phase {phase}")

    def _knob_ids(self, state: Any) -> list[int]:
        rip = kit.find_recipe(state.players[state.core.seat_to_move], state.pending_card)
        ids = []
        for side in kit.sides_of(kit.grill_placement(rip)):
            setting = kit.knob_of_side(state, side)
            if setting - CLICKS >= 0:
                ids.append(codec.turn_knob_id(side, -1))
            if setting + CLICKS <= LAST_SETTING:
                ids.append(codec.turn_knob_id(side, +1))
        ids.append(LEAVE_KNOBS)
        return ids

    # ------------------------------------------------------------------ codec (codec.py)
    def id_to_action(self, state: Any, seat: int, action_id: int) -> pb.Action:
        return codec.id_to_action(action_id)

    def action_to_id(self, state: Any, seat: int, action: Any) -> int | None:
        return codec.action_to_id(state, action)

    def describe_action(self, state: Any, seat: int, action: Any) -> str:
        return codec.describe_action(state, action)

    def is_legal_id(self, state: Any, action_id: int) -> bool:
        """The test legal_action_ids makes, for one id (apply calls this on every action)."""
        phase = state.phase
        seat = state.core.seat_to_move
        if phase == PHASE_PLACE:
            offset = action_id - PLACE_BASE
            return 0 <= offset < PLACE_SIZE and kit.can_place(
                state, seat, state.pending_kind, state.pending_card, offset
            )
        if phase in (PHASE_ACTION, PHASE_BONUS, PHASE_FREE_MOVES) and action_id < PLACE_BASE:
            kind = CHOOSE_KINDS[action_id // NUM_RECIPES]
            if phase == PHASE_ACTION:
                allowed = True
            elif phase == PHASE_BONUS:
                allowed = kind in state.bonus_icons
            else:
                allowed = kind == kit.MOVE
            return allowed and kit.can_choose(state, seat, kind, action_id % NUM_RECIPES)
        return action_id in self.legal_action_ids(state)

    # ------------------------------------------------------------------ applying
    def mutate(self, state: Any, seat: int, action: Any, rng: RandomSource) -> EventList:
        kind = action.WhichOneof("kind")
        events: EventList = []
        if kind in codec.CHOOSE_FIELDS:
            self._choose(state, seat, codec.CHOOSE_FIELDS[kind], getattr(action, kind).card, events)
        elif kind == "place":
            self._place(state, seat, action.place, rng, events)
        elif kind == "turn_knob":
            knob = action.turn_knob
            if knob.side == GRILL_SIDE_MEAT:
                state.meat_knob += knob.clicks
                setting = state.meat_knob
            else:
                state.veggie_knob += knob.clicks
                setting = state.veggie_knob
            word = "up" if knob.clicks > 0 else "down"
            events.append(
                Event(
                    seat=seat, text=f"seat {seat} turns the {side_name(knob.side)} knob {word} to {KNOB_NAMES[setting]}"
                )
            )
            self._continue(state, seat, events)
        elif kind == "leave_knobs":
            self._continue(state, seat, events)
        elif kind == "choose_knob":
            card = state.advance_queue.pop(0)
            self._advance_grill(
                state, seat, kit.find_recipe(state.players[seat], card), action.choose_knob.side, events
            )
            if not state.advance_queue:
                self._continue(state, seat, events)
        elif kind == "skip_bonus":
            lost = ", ".join(kind_name(k) for k in state.bonus_icons)
            del state.bonus_icons[:]
            events.append(Event(seat=seat, text=f"seat {seat} gives up the covered {lost}"))
            self._continue(state, seat, events)
        else:
            self._stop(state, seat, events)
            self._end_turn(state, seat, events)
        return events

    @staticmethod
    def _stop(state: Any, seat: int, events: EventList) -> None:
        """EndTurn: the seat stops, giving up the covered icons and the actions it has not spent."""
        given_up = []
        if state.bonus_icons:
            given_up.append("the covered " + ", ".join(kind_name(k) for k in state.bonus_icons))
            del state.bonus_icons[:]
        if state.phase in (PHASE_ACTION, PHASE_BONUS) and state.actions_left:
            left = state.actions_left
            given_up.append(f"{left} action{'s' if left > 1 else ''}")
        if given_up:
            events.append(Event(seat=seat, text=f"seat {seat} ends the turn, leaving {' and '.join(given_up)} unspent"))

    def _choose(self, state: Any, seat: int, kind: int, card: int, events: EventList) -> None:
        if kind != kit.MOVE:
            if state.phase == PHASE_BONUS:
                state.bonus_icons.remove(kind)
            else:
                state.actions_left -= 1
        if kind in (kit.SEASON, kit.SAUCE):
            rip = kit.find_recipe(state.players[seat], card)
            if kind == kit.SEASON:
                rip.season_cubes += 1
            else:
                rip.sauce_cubes += 1
            events.append(
                Event(
                    seat=seat, text=f"seat {seat} {'seasons' if kind == kit.SEASON else 'sauces'} {recipe_name(card)}"
                )
            )
            self._continue(state, seat, events)
            return
        state.pending_kind = kind
        state.pending_card = card
        state.phase = PHASE_PLACE

    def _place(self, state: Any, seat: int, place: Any, rng: RandomSource, events: EventList) -> None:
        kind, card = state.pending_kind, state.pending_card
        rotation = geo.CANONICAL_ROTATION[card][place.rotation]
        player = state.players[seat]
        where = f"(turn {rotation}, row {place.row}, col {place.col})"
        if kind == kit.PREPARE:
            self._take_from_cooler(state, card, rng)
            rip = player.recipes.add(
                card=card,
                spot=SPOT_PREPARE,
                rotation=rotation,
                row=place.row,
                col=place.col,
                grill_cube=-1,
                rest_cube=-1,
            )
            player.prepare_squares |= kit.tile_mask(rip)
            events.append(Event(seat=seat, text=f"seat {seat} prepares {recipe_name(card)} {where}"))
            self._continue(state, seat, events)
            return
        if kind == kit.SERVE:
            self._serve(state, seat, card, rotation, place, events)
            return
        rip = kit.find_recipe(player, card)
        self._lift(state, player, rip)
        rip.rotation, rip.row, rip.col = rotation, place.row, place.col
        if kind == kit.REST:
            rip.spot = SPOT_REST
            rip.rest_cube = 0
            player.rest_squares |= kit.tile_mask(rip)
            events.append(Event(seat=seat, text=f"seat {seat} rests {recipe_name(card)} {where}"))
            self._continue(state, seat, events)
            return
        rip.spot = SPOT_GRILL
        state.grill_squares |= kit.tile_mask(rip)
        section = "Warming Rack" if kit.grill_placement(rip).section == geo.WARMING_RACK else "Main Grill"
        if kind == kit.MOVE:
            rip.moved_this_turn = True
            events.append(Event(seat=seat, text=f"seat {seat} moves {recipe_name(card)} to the {section} {where}"))
            self._continue(state, seat, events)
            return
        rip.grill_cube = 0
        rip.grilled_this_turn = True
        events.append(Event(seat=seat, text=f"seat {seat} grills {recipe_name(card)} on the {section} {where}"))
        state.phase = PHASE_KNOB  # pending stays: the knob turned depends on where the tile went

    @staticmethod
    def _lift(state: Any, player: Any, rip: Any) -> None:
        """Frees the squares a recipe's tile takes where it lies now."""
        mask = kit.tile_mask(rip)
        if rip.spot == SPOT_GRILL:
            state.grill_squares &= ~mask
        elif rip.spot == SPOT_PREPARE:
            player.prepare_squares &= ~mask
        else:
            player.rest_squares &= ~mask

    def _take_from_cooler(self, state: Any, card: int, rng: RandomSource) -> None:
        if RECIPES[card].cooler == COOLER_MEAT:
            shown, deck = state.meat_on_show, state.meat_cooler
        else:
            shown, deck = state.veggie_on_show, state.veggie_cooler
        index = list(shown).index(card)
        if deck:
            shown[index] = deck.pop(0)  # refill its place from the top of the same cooler
        else:
            del shown[index]

    def _serve(self, state: Any, seat: int, card: int, rotation: int, place: Any, events: EventList) -> None:
        player = state.players[seat]
        index = next(i for i, r in enumerate(player.recipes) if r.card == card)
        points = kit.dish_points(player.recipes[index])
        self._lift(state, player, player.recipes[index])
        del player.recipes[index]
        piece = state.table.add(seat=seat, card=card, rotation=rotation, row=place.row, col=place.col)
        placement = geo.TABLE_BY_OFFSET[state.core.num_players][card][kit.offset(piece)]
        state.table_squares |= placement.mask
        player.served.add(card=card, points=points)
        player.score += points
        icons = placement.icons
        covered = f", covering {', '.join(kind_name(k) for k in icons)}" if icons else ""
        events.append(Event(seat=seat, text=f"seat {seat} serves {recipe_name(card)} for {points} points{covered}"))
        state.bonus_icons.extend(icons)
        if len(player.served) >= CONTENT.dishes_to_end and state.end_trigger_seat < 0:
            state.end_trigger_seat = seat
            events.append(
                Event(
                    seat=-1,
                    text=f"seat {seat} has served {CONTENT.dishes_to_end} dishes: the others take one more turn",
                )
            )
        self._continue(state, seat, events)

    # ------------------------------------------------------------------ turn flow
    def _continue(self, state: Any, seat: int, events: EventList) -> None:
        """Moves on once an action (with its sub-actions) is done: covered icons, the actions left,
        free moves, or the end of the turn."""
        state.pending_kind = ACTION_KIND_UNSPECIFIED
        state.pending_card = 0
        if state.bonus_icons:
            if kit.choose_ids(state, seat, set(state.bonus_icons)):
                state.phase = PHASE_BONUS
                return
            lost = ", ".join(kind_name(k) for k in state.bonus_icons)
            del state.bonus_icons[:]
            events.append(Event(seat=seat, text=f"seat {seat} cannot use the covered {lost}"))
        if state.actions_left > 0:
            if self._open_actions(state, seat):
                return
            events.append(Event(seat=seat, text=f"seat {seat} can do nothing more this turn"))
        elif kit.any_move(state, seat):
            state.phase = PHASE_FREE_MOVES
            return
        self._end_turn(state, seat, events)

    @staticmethod
    def _open_actions(state: Any, seat: int) -> bool:
        """Opens the choice of an action; False when the seat can neither act nor move a tile (the
        turn then ends by itself, as a forced pass)."""
        if kit.any_choice(state, seat) or kit.any_move(state, seat):
            state.phase = PHASE_ACTION
            return True
        return False

    def _end_turn(self, state: Any, seat: int, events: EventList) -> None:
        """Ends `seat`'s turn and starts the next one that has something to decide (a loop, not
        recursion: seats that can do nothing pass in turn)."""
        n = state.core.num_players
        while True:
            # A turn in which no action was spent (free moves aside) is quiet: the stalemate count.
            quiet = state.actions_left == CONTENT.actions_per_turn
            state.quiet_turns = state.quiet_turns + 1 if quiet else 0
            for rip in state.players[seat].recipes:
                rip.grilled_this_turn = False
                rip.moved_this_turn = False
            state.actions_left = 0
            if state.end_trigger_seat >= 0:
                # The trigger seat finishes its turn, then every other player takes one more.
                left = state.final_turns_left
                state.final_turns_left = n - 1 if left < 0 else left - 1
                if state.final_turns_left == 0:
                    self._game_over(state, END_REASON_DISHES_SERVED, events)
                    return
            if self._nothing_left_to_cook(state):
                self._game_over(state, END_REASON_COOLERS_EMPTY, events)
                return
            if state.quiet_turns >= CONTENT.stalemate_rounds * n:
                events.append(Event(seat=-1, text=f"no action spent for {CONTENT.stalemate_rounds} rounds: stalemate"))
                self._game_over(state, END_REASON_STALEMATE, events)
                return
            seat = (seat + 1) % n
            if self._start_turn(state, seat, events):
                return
            events.append(Event(seat=seat, text=f"seat {seat} can do nothing and passes"))

    @staticmethod
    def _nothing_left_to_cook(state: Any) -> bool:
        if state.meat_cooler or state.veggie_cooler or state.meat_on_show or state.veggie_on_show:
            return False
        return not any(player.recipes for player in state.players)

    def _game_over(self, state: Any, reason: int, events: EventList) -> None:
        state.core.game_over = True
        state.end_reason = reason
        state.phase = PHASE_UNSPECIFIED
        scores = ", ".join(f"seat {s}: {p.score}" for s, p in enumerate(state.players))
        events.append(Event(seat=-1, text=f"the cookout is over ({scores})"))

    def _start_turn(self, state: Any, seat: int, events: EventList) -> bool:
        """Time passes: each of the seat's recipes advances where its tile lies, and may be ruined.
        Returns whether the seat has something to decide (else its turn is a forced pass)."""
        state.core.seat_to_move = seat
        state.turn_number += 1
        state.actions_left = CONTENT.actions_per_turn
        player = state.players[seat]
        for rip in list(player.recipes):
            spot = rip.spot
            if spot == SPOT_PREPARE:
                rip.prepare_cube += 1
                self._ruin_if_over(state, seat, rip, len(RECIPES[rip.card].prepare), rip.prepare_cube, events)
            elif spot == SPOT_REST:
                rip.rest_cube += 1
                self._ruin_if_over(state, seat, rip, len(RECIPES[rip.card].rest), rip.rest_cube, events)
            else:
                placement = kit.grill_placement(rip)
                sides = kit.sides_of(placement)
                steps = {kit.advance_by(state, placement, side) for side in sides}
                if len(steps) > 1:
                    state.advance_queue.append(rip.card)  # a yellow tile across the line: the owner chooses
                else:
                    self._advance_grill(state, seat, rip, sides[0], events)
        if state.advance_queue:
            state.phase = PHASE_ADVANCE
            return True
        return self._open_actions(state, seat)

    def _advance_grill(self, state: Any, seat: int, rip: Any, side: int, events: EventList) -> None:
        track = len(RECIPES[rip.card].grill)
        rip.grill_cube = min(rip.grill_cube + kit.advance_by(state, kit.grill_placement(rip), side), track)
        self._ruin_if_over(state, seat, rip, track, rip.grill_cube, events)

    def _ruin_if_over(self, state: Any, seat: int, rip: Any, track: int, cube: int, events: EventList) -> None:
        if cube < track:
            return
        card = rip.card
        player = state.players[seat]
        self._lift(state, player, rip)
        del player.recipes[next(i for i, r in enumerate(player.recipes) if r.card == card)]
        state.ruined.append(card)
        events.append(Event(seat=seat, text=f"seat {seat}'s {recipe_name(card)} is ruined and leaves the game"))

    # ------------------------------------------------------------------ the end
    def outcome(self, state: Any) -> common_pb2.Outcome | None:
        if not state.core.game_over:
            return None
        keys = [(float(p.score), float(len(p.served)), float(kit.largest_served(p))) for p in state.players]
        reason = {
            END_REASON_DISHES_SERVED: "a player served their last dish and everyone took a final turn",
            END_REASON_COOLERS_EMPTY: "the coolers are empty and nothing is left to cook",
            END_REASON_STALEMATE: f"stalemate: no action spent for {CONTENT.stalemate_rounds} rounds",
        }[state.end_reason]
        return ranked_outcome(keys, [p.score for p in state.players], reason + "; ties: most dishes, then largest dish")

    # ------------------------------------------------------------------ views
    def view(self, state: Any, seat: int) -> pb.View:
        return views.make_view(state, seat)

    def observation(self, view: Any) -> np.ndarray:
        return views.observation(view)

    def resample_hidden(self, state: Any, seat: int, rng: RandomSource) -> Any:
        """Only the order of the two cooler decks is hidden (and the random source)."""
        sample = pb.State()
        sample.CopyFrom(state)
        sample.core.random.counter = rng.next_u64()
        for deck in (sample.meat_cooler, sample.veggie_cooler):
            cards = list(deck)
            rng.shuffle(cards)
            deck[:] = cards
        return sample

    def check_invariants(self, state: Any) -> None:
        check_invariants(state)

    # ------------------------------------------------------------------ words
    def render(self, view: Any) -> str:
        return render_view(view)
