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
from services.rules.games.license_to_grill import geometry as geo
from services.rules.games.license_to_grill import kitchen as kit
from services.rules.games.license_to_grill import views
from services.rules.games.license_to_grill.content import (
    ACTION_KINDS,
    CHOOSE_KINDS,
    CONTENT,
    KNOB_NAMES,
    LAYOUT,
    NUM_RECIPES,
    RECIPES,
    ROTATIONS,
    kind_name,
    recipe_name,
    side_name,
)
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
    GRILL_SIDE_MEAT,
    GRILL_SIDE_VEGGIE,
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
ALL_ACTIONS = frozenset(ACTION_KINDS)
KNOB_SIDES = (GRILL_SIDE_MEAT, GRILL_SIDE_VEGGIE)
LAST_SETTING = len(CONTENT.knobs.settings) - 1
CLICKS = CONTENT.knobs.clicks_per_grill
PLACE_BASE = LAYOUT.place_base
PLACE_SIZE = LAYOUT.place_size
PLACE_END = PLACE_BASE + PLACE_SIZE
PLACE_PLANE = LAYOUT.place_rows * LAYOUT.place_cols
TURN_KNOB_BASE = LAYOUT.turn_knob_base
LEAVE_KNOBS = LAYOUT.leave_knobs
CHOOSE_KNOB_BASE = LAYOUT.choose_knob_base
SKIP_BONUS = LAYOUT.skip_bonus
END_TURN = LAYOUT.end_turn


def _turn_knob_id(side: int, clicks: int) -> int:
    return TURN_KNOB_BASE + 2 * KNOB_SIDES.index(side) + (1 if clicks > 0 else 0)


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
            ids = kit.choose_ids(state, seat, ALL_ACTIONS)
            moves = kit.move_ids(state, seat)
            if not ids:
                # No action is possible, only free moves: move tiles, then end the turn.
                return [*moves, END_TURN]
            ids.extend(moves)
            ids.sort()
            return ids
        if phase == PHASE_PLACE:
            base = PLACE_BASE
            return [base + o for o in kit.place_offsets(state, seat, state.pending_kind, state.pending_card)]
        if phase == PHASE_KNOB:
            return self._knob_ids(state)
        if phase == PHASE_BONUS:
            ids = kit.choose_ids(state, seat, set(state.bonus_icons))
            ids.sort()
            ids.append(SKIP_BONUS)
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
                ids.append(_turn_knob_id(side, -1))
            if setting + CLICKS <= LAST_SETTING:
                ids.append(_turn_knob_id(side, +1))
        ids.append(LEAVE_KNOBS)
        return ids

    # ------------------------------------------------------------------ codec
    def id_to_action(self, state: Any, seat: int, action_id: int) -> pb.Action:
        if action_id < PLACE_BASE:
            block, card = divmod(action_id, NUM_RECIPES)
            return pb.Action(**{_CHOOSE_FIELD_NAMES[block]: pb.ChooseRecipe(card=card)})
        if action_id < PLACE_END:
            rest = action_id - PLACE_BASE
            rotation, rest = divmod(rest, PLACE_PLANE)
            row, col = divmod(rest, LAYOUT.place_cols)
            return pb.Action(place=pb.Place(rotation=rotation, row=row, col=col))
        if action_id < LEAVE_KNOBS:
            index = action_id - TURN_KNOB_BASE
            return pb.Action(turn_knob=pb.TurnKnob(side=KNOB_SIDES[index // 2], clicks=CLICKS if index % 2 else -CLICKS))
        if action_id == LEAVE_KNOBS:
            return pb.Action(leave_knobs=pb.LeaveKnobs())
        if action_id < SKIP_BONUS:
            return pb.Action(choose_knob=pb.ChooseKnob(side=KNOB_SIDES[action_id - CHOOSE_KNOB_BASE]))
        if action_id == SKIP_BONUS:
            return pb.Action(skip_bonus=pb.SkipBonus())
        return pb.Action(end_turn=pb.EndTurn())

    def action_to_id(self, state: Any, seat: int, action: Any) -> int | None:
        kind = action.WhichOneof("kind")
        if kind is None:
            return None
        if kind in _CHOOSE_FIELDS:
            card = getattr(action, kind).card
            return kit.BASE[_CHOOSE_FIELDS[kind]] + card if 0 <= card < NUM_RECIPES else None
        if kind == "place":
            place = action.place
            if not (0 <= place.rotation < ROTATIONS and 0 <= place.row < LAYOUT.place_rows):
                return None
            if not 0 <= place.col < LAYOUT.place_cols:
                return None
            rotation = place.rotation
            if state.pending_kind != ACTION_KIND_UNSPECIFIED and 0 <= state.pending_card < NUM_RECIPES:
                # A turn that gives the same shape is the same placement (a square tile turned once).
                rotation = geo.CANONICAL_ROTATION[state.pending_card][rotation]
            return PLACE_BASE + LAYOUT.place_offset(rotation, place.row, place.col)
        if kind == "turn_knob":
            knob = action.turn_knob
            if knob.side not in KNOB_SIDES or knob.clicks not in (-CLICKS, CLICKS):
                return None
            return _turn_knob_id(knob.side, knob.clicks)
        if kind == "leave_knobs":
            return LEAVE_KNOBS
        if kind == "choose_knob":
            side = action.choose_knob.side
            return CHOOSE_KNOB_BASE + KNOB_SIDES.index(side) if side in KNOB_SIDES else None
        if kind == "skip_bonus":
            return SKIP_BONUS
        return END_TURN

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
    def mutate(self, state: Any, seat: int, action: Any, rng: RandomSource) -> list[common_pb2.Event]:
        kind = action.WhichOneof("kind")
        events: list[common_pb2.Event] = []
        if kind in _CHOOSE_FIELDS:
            self._choose(state, seat, _CHOOSE_FIELDS[kind], getattr(action, kind).card, events)
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
            events.append(Event(seat=seat, text=f"seat {seat} turns the {side_name(knob.side)} knob {word} to {KNOB_NAMES[setting]}"))
            self._continue(state, seat, events)
        elif kind == "leave_knobs":
            self._continue(state, seat, events)
        elif kind == "choose_knob":
            card = state.advance_queue.pop(0)
            self._advance_grill(state, seat, kit.find_recipe(state.players[seat], card), action.choose_knob.side, events)
            if not state.advance_queue:
                self._continue(state, seat, events)
        elif kind == "skip_bonus":
            lost = ", ".join(kind_name(k) for k in state.bonus_icons)
            del state.bonus_icons[:]
            events.append(Event(seat=seat, text=f"seat {seat} gives up the covered {lost}"))
            self._continue(state, seat, events)
        else:
            if state.phase == PHASE_ACTION and state.actions_left:
                events.append(Event(seat=seat, text=f"seat {seat} can do nothing more and ends the turn"))
            self._end_turn(state, seat, events)
        return events

    def _choose(self, state: Any, seat: int, kind: int, card: int, events: list[Event]) -> None:
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
            events.append(Event(seat=seat, text=f"seat {seat} {'seasons' if kind == kit.SEASON else 'sauces'} {recipe_name(card)}"))
            self._continue(state, seat, events)
            return
        state.pending_kind = kind
        state.pending_card = card
        state.phase = PHASE_PLACE

    def _place(self, state: Any, seat: int, place: Any, rng: RandomSource, events: list[Event]) -> None:
        kind, card = state.pending_kind, state.pending_card
        rotation = geo.CANONICAL_ROTATION[card][place.rotation]
        player = state.players[seat]
        where = f"(turn {rotation}, row {place.row}, col {place.col})"
        if kind == kit.PREPARE:
            self._take_from_cooler(state, card, rng)
            rip = player.recipes.add(
                card=card, spot=SPOT_PREPARE, rotation=rotation, row=place.row, col=place.col, grill_cube=-1, rest_cube=-1
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

    def _serve(self, state: Any, seat: int, card: int, rotation: int, place: Any, events: list[Event]) -> None:
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
            events.append(Event(seat=-1, text=f"seat {seat} has served {CONTENT.dishes_to_end} dishes: every other player takes one more turn"))
        self._continue(state, seat, events)

    # ------------------------------------------------------------------ turn flow
    def _continue(self, state: Any, seat: int, events: list[Event]) -> None:
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
        elif kit.move_ids(state, seat):
            state.phase = PHASE_FREE_MOVES
            return
        self._end_turn(state, seat, events)

    @staticmethod
    def _open_actions(state: Any, seat: int) -> bool:
        """Opens the choice of an action; False when the seat can neither act nor move a tile (the
        turn then ends by itself, as a forced pass)."""
        if kit.choose_ids(state, seat, ALL_ACTIONS) or kit.move_ids(state, seat):
            state.phase = PHASE_ACTION
            return True
        return False

    def _end_turn(self, state: Any, seat: int, events: list[Event]) -> None:
        """Ends `seat`'s turn and starts the next one that has something to decide (a loop, not
        recursion: seats that can do nothing pass in turn)."""
        n = state.core.num_players
        while True:
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
            seat = (seat + 1) % n
            if self._start_turn(state, seat, events):
                return
            events.append(Event(seat=seat, text=f"seat {seat} can do nothing and passes"))

    @staticmethod
    def _nothing_left_to_cook(state: Any) -> bool:
        if state.meat_cooler or state.veggie_cooler or state.meat_on_show or state.veggie_on_show:
            return False
        return not any(player.recipes for player in state.players)

    def _game_over(self, state: Any, reason: int, events: list[Event]) -> None:
        state.core.game_over = True
        state.end_reason = reason
        state.phase = PHASE_UNSPECIFIED
        scores = ", ".join(f"seat {s}: {p.score}" for s, p in enumerate(state.players))
        events.append(Event(seat=-1, text=f"the cookout is over ({scores})"))

    def _start_turn(self, state: Any, seat: int, events: list[Event]) -> bool:
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

    def _advance_grill(self, state: Any, seat: int, rip: Any, side: int, events: list[Event]) -> None:
        track = len(RECIPES[rip.card].grill)
        rip.grill_cube = min(rip.grill_cube + kit.advance_by(state, kit.grill_placement(rip), side), track)
        self._ruin_if_over(state, seat, rip, track, rip.grill_cube, events)

    def _ruin_if_over(self, state: Any, seat: int, rip: Any, track: int, cube: int, events: list[Event]) -> None:
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
        reason = (
            "a player served their last dish and everyone took a final turn"
            if state.end_reason == END_REASON_DISHES_SERVED
            else "the coolers are empty and nothing is left to cook"
        )
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
        n = state.core.num_players
        assert len(state.players) == n, "one player board per seat"
        places = [*state.meat_cooler, *state.veggie_cooler, *state.meat_on_show, *state.veggie_on_show, *state.ruined]
        for player in state.players:
            places.extend(r.card for r in player.recipes)
            places.extend(d.card for d in player.served)
        assert sorted(places) == list(range(NUM_RECIPES)), "every recipe card is in exactly one place"
        for cards, cooler in ((state.meat_cooler, COOLER_MEAT), (state.meat_on_show, COOLER_MEAT),
                              (state.veggie_cooler, COOLER_VEGGIE), (state.veggie_on_show, COOLER_VEGGIE)):
            assert all(RECIPES[c].cooler == cooler for c in cards), "a card is beside the wrong cooler"
        assert len(state.meat_on_show) <= CONTENT.on_show_per_cooler >= len(state.veggie_on_show), "too many on show"
        assert not state.meat_cooler or len(state.meat_on_show) == CONTENT.on_show_per_cooler, "a gap on show"
        assert not state.veggie_cooler or len(state.veggie_on_show) == CONTENT.on_show_per_cooler, "a gap on show"
        assert 0 <= state.meat_knob <= LAST_SETTING and 0 <= state.veggie_knob <= LAST_SETTING, "knob off its scale"
        grill = 0
        for player in state.players:
            boards = {SPOT_PREPARE: 0, SPOT_REST: 0}
            for rip in player.recipes:
                recipe = RECIPES[rip.card]
                assert 0 <= rip.prepare_cube < len(recipe.prepare), "prepare cube off its track"
                assert 0 <= rip.season_cubes <= recipe.season and 0 <= rip.sauce_cubes <= recipe.sauce, "bonus cubes"
                off = kit.offset(rip)
                if rip.spot == SPOT_GRILL:
                    mask = geo.GRILL_BY_OFFSET[rip.card][off].mask
                    assert not grill & mask, "tiles overlap on the grill"
                    grill |= mask
                    assert 0 <= rip.grill_cube < len(recipe.grill) and rip.rest_cube == -1, "grill cubes"
                else:
                    by_offset = geo.PREPARE_BY_OFFSET if rip.spot == SPOT_PREPARE else geo.REST_BY_OFFSET
                    mask = by_offset[rip.card][off].mask
                    assert not boards[rip.spot] & mask, "tiles overlap on a player board"
                    boards[rip.spot] |= mask
                    if rip.spot == SPOT_PREPARE:
                        assert rip.grill_cube == -1 and rip.rest_cube == -1 and rip.sauce_cubes == 0, "prepare cubes"
                    else:
                        assert 0 <= rip.grill_cube < len(recipe.grill), "a resting recipe was grilled"
                        assert 0 <= rip.rest_cube < len(recipe.rest), "rest cube off its track"
            assert player.prepare_squares == boards[SPOT_PREPARE], "Prepare squares out of step with the tiles"
            assert player.rest_squares == boards[SPOT_REST], "Rest squares out of step with the tiles"
            assert player.score == sum(d.points for d in player.served), "score is the sum of the dishes"
            assert all(d.points >= 0 for d in player.served), "a dish never scores below zero"
        table = 0
        for piece in state.table:
            mask = geo.TABLE_BY_OFFSET[n][piece.card][kit.offset(piece)].mask
            assert not table & mask, "tiles overlap on the tablecloth"
            table |= mask
        assert len(state.table) == sum(len(p.served) for p in state.players), "every served dish is on the table"
        assert state.grill_squares == grill, "grill squares out of step with the tiles"
        assert state.table_squares == table, "tablecloth squares out of step with the tiles"
        if not state.core.game_over:
            assert 0 <= state.actions_left <= CONTENT.actions_per_turn, "actions left"
            assert state.phase != PHASE_UNSPECIFIED, "a running game has a phase"
            pending = state.phase in (PHASE_PLACE, PHASE_KNOB)
            assert pending == (state.pending_kind != ACTION_KIND_UNSPECIFIED), "pending action and phase disagree"
            assert (state.phase == PHASE_ADVANCE) == bool(state.advance_queue), "advance queue and phase disagree"
            assert (state.phase == PHASE_BONUS) <= bool(state.bonus_icons), "bonus phase without icons"

    # ------------------------------------------------------------------ words
    def describe_action(self, state: Any, seat: int, action: Any) -> str:
        kind = action.WhichOneof("kind")
        if kind in _CHOOSE_FIELDS:
            card = getattr(action, kind).card
            verb = "free move of" if kind == "move" else kind
            return f"{verb} {recipe_name(card)}"
        if kind == "place":
            p = action.place
            what = recipe_name(state.pending_card) if state.pending_kind else "the tile"
            target = {
                kit.PREPARE: "the Prepare area",
                kit.GRILL: "the grill",
                kit.MOVE: "the grill",
                kit.REST: "the Rest area",
                kit.SERVE: "the tablecloth",
            }.get(state.pending_kind, "its area")
            return f"put {what} on {target}, {p.rotation} quarter turn(s), row {p.row}, col {p.col}"
        if kind == "turn_knob":
            k = action.turn_knob
            return f"turn the {side_name(k.side)} knob {'up' if k.clicks > 0 else 'down'}"
        if kind == "leave_knobs":
            return "leave the knobs"
        if kind == "choose_knob":
            return f"cook with the {side_name(action.choose_knob.side)} knob"
        if kind == "skip_bonus":
            return "give up the covered icons"
        return "end the turn"

    def render(self, view: Any) -> str:
        return render_view(view)


_CHOOSE_FIELDS: dict[str, int] = {kind_name(k): k for k in CHOOSE_KINDS}
_CHOOSE_FIELD_NAMES: tuple[str, ...] = tuple(kind_name(k) for k in CHOOSE_KINDS)
