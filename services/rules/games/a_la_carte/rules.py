"""A la carte's rules (the kitchen game of rulebook 002): setup, the three actions of a turn (heat or
season), the coffee break, taking cups, crepe turns, and the end. The physical actions (tipping a
dispenser, flipping a crepe) are drawn by the engine from the seeded random source, shaped by the
acting seat's skill; no client ever chooses their outcome."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from services.rules.engine import Engine, ranked_outcome
from services.rules.games.a_la_carte import actions, flow, observe, render
from services.rules.games.a_la_carte.content import (
    CONDIMENTS,
    CONTENT,
    CUP_KINDS,
    DIE,
    DIE_WEIGHTS,
    DISPENSER_FILLS,
    LAYOUT,
    NUM_CONDIMENTS,
    NUM_CUP_KINDS,
    NUM_DISHES,
    SKILLS,
    TOTAL_CUPS,
    VICTORY_CUP,
    cup_name,
)
from services.rules.games.a_la_carte.kitchen import (
    finished_count,
    heat_up,
    points,
    pour_into_pan,
    receive_cup,
    refill_dispensers,
    tip,
    tip_text,
)
from services.rules.games.a_la_carte.skills import OPTIONS, seat_skills
from services.rules.random_source import RandomSource
from services.rules.spec import GameSpec
from sizzle.common.v1 import common_pb2
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb

Events = list[common_pb2.Event]
say = flow.say


class ALaCarte(Engine):
    spec = GameSpec(
        game_id="a_la_carte",
        display_name="A la carte",
        min_players=CONTENT.min_players,
        max_players=CONTENT.max_players,
        num_distinct_actions=LAYOUT.size,
        observation_shape=(observe.OBSERVATION_SIZE,),
        options=OPTIONS,
    )
    State = pb.State
    Action = pb.Action
    View = pb.View
    # 2: a fifth finished dish plays the round out; any number of coffee breaks a turn (none after
    # three spoons); a re-season cup tips up to three times onto one dish; a new dish after a
    # trashed one is of a colour neither finished nor trashed; starting dishes are chosen in the
    # content's setup order (the last seat first).
    rules_revision = 2

    # ------------------------------------------------------------------ setup
    def setup(self, state: Any, options: Mapping[str, str], rng: RandomSource) -> None:
        n = state.core.num_players
        skills = seat_skills(options, n)
        for fill in DISPENSER_FILLS:
            state.dispensers.add(condiment=fill.condiment, pieces=fill.pieces, salt=fill.salt)
        state.sink.extend([0] * NUM_CONDIMENTS)
        # Every player gets one cup at random; the rest wait face down on the coffee tray.
        cups = [index for index, supply in enumerate(CONTENT.cups) for _ in range(supply.count)]
        rng.shuffle(cups)
        state.tray.extend([0] * NUM_CUP_KINDS)
        for seat in range(n):
            player = state.players.add(crepe=pb.CREPE_STATUS_UNUSED, skill=skills[seat])
            player.stove.dish = -1
            player.stove.pan.extend([0] * NUM_CONDIMENTS)
            player.cups.extend([0] * NUM_CUP_KINDS)
            receive_cup(player, cups[seat])
        for index in cups[n:]:
            state.tray[index] += 1
        state.supply.extend(range(NUM_DISHES))
        state.stars_left = CONTENT.stars
        state.ended_by = -1
        state.last_round_by = -1
        state.actions_left = CONTENT.actions_per_turn
        # Dishes are chosen in turn before the first turn, in the content's order (ours: the last
        # seat first, so the first player, who moves first, chooses last).
        state.core.seat_to_move = flow.setup_choosers(n)[0]
        state.phase = pb.PHASE_CHOOSE_DISH
        state.after_dish = pb.AFTER_DISH_NEXT_SETUP_CHOICE

    # ------------------------------------------------------------------ legal actions and codec
    def legal_action_ids(self, state: Any) -> list[int]:
        return actions.legal_ids(state)

    def id_to_action(self, state: Any, seat: int, action_id: int) -> pb.Action:
        return actions.id_to_action(state.core.num_players, seat, action_id)

    def action_to_id(self, state: Any, seat: int, action: Any) -> int | None:
        return actions.action_to_id(state.core.num_players, seat, action)

    def describe_action(self, state: Any, seat: int, action: Any) -> str:
        return actions.describe(state, action)

    # ------------------------------------------------------------------ applying
    def mutate(self, state: Any, seat: int, action: Any, rng: RandomSource) -> Events:
        events: Events = []
        kind = action.WhichOneof("kind")
        me = state.players[seat]
        if state.HasField("reseasoning") and not (
            kind == "reseason" and action.reseason.seat == state.reseasoning.seat
        ):
            # Anything but the next tip onto the same dish ends the re-season cup in use.
            state.ClearField("reseasoning")
        if kind == "roll_die":
            self._roll(state, seat, rng, events)
        elif kind == "season":
            self._season(state, seat, CONDIMENTS.index(action.season.dispenser), rng, events)
        elif kind == "choose_heat":
            heat = heat_up(me.stove, action.choose_heat.amount)
            say(events, seat, f"seat {seat} turns the knob up by {action.choose_heat.amount} to {heat}")
            flow.after_heating(state, seat, events)
        elif kind == "choose_dish":
            flow.place_dish(state, seat, action.choose_dish.dish, events)
        elif kind == "place_crepe":
            flow.place_crepe(state, seat, events)
        elif kind == "take_cup":
            self._take_cup(state, seat, action.take_cup, events)
        elif kind == "trash_dish":
            flow.trash_dish(state, seat, events)
        elif kind == "flip_crepe":
            state.actions_left -= 1
            state.flips_this_turn += 1
            odds = SKILLS[me.skill].flips
            result = odds[rng.weighted_index([o.weight for o in odds])].result
            flow.land_crepe(state, seat, result, events)
        elif kind == "stop_flipping":
            say(events, seat, f"seat {seat} stops flipping; its turn ends")
            flow.end_turn(state, seat, events)
        else:
            self._coffee_break(state, seat, action, kind, rng, events)
        return events

    def _roll(self, state: Any, seat: int, rng: RandomSource, events: Events) -> None:
        """A heat action (or a crepe turn's first action): roll the die and do what it shows."""
        state.actions_left -= 1
        index = rng.weighted_index(DIE_WEIGHTS)
        state.last_face = index + 1
        face = DIE[index]
        stove = state.players[seat].stove
        rolled = f"seat {seat} rolls {face.label}"
        if face.kind == pb.DIE_FACE_KIND_HEAT:
            before = stove.heat
            say(events, seat, f"{rolled}: heat {before} -> {heat_up(stove, face.amount)}")
        elif face.kind == pb.DIE_FACE_KIND_CHOOSE:
            say(events, seat, rolled)
            state.phase = pb.PHASE_CHOOSE_HEAT
            return
        elif face.kind == pb.DIE_FACE_KIND_ALL_STOVES:
            for player in state.players:
                heat_up(player.stove, face.amount)
            say(events, seat, f"{rolled}: every stove goes up by {face.amount}")
        else:
            say(events, seat, rolled)
            if sum(state.tray):
                kind = rng.weighted_index(list(state.tray))
                state.tray[kind] -= 1
                receive_cup(state.players[seat], kind)
                say(events, seat, f"seat {seat} takes a {cup_name(kind)} cup from the coffee tray")
            elif any(sum(p.cups) for s, p in enumerate(state.players) if s != seat):
                state.phase = pb.PHASE_TAKE_CUP
                return
            else:
                say(events, seat, "no cup is left to take")
        flow.after_heating(state, seat, events)

    def _season(self, state: Any, seat: int, dispenser: int, rng: RandomSource, events: Events) -> None:
        """A season action: tip one dispenser once over the own pan."""
        state.actions_left -= 1
        me = state.players[seat]
        pieces, salt = tip(rng, me.skill, state.dispensers[dispenser])
        pour_into_pan(me.stove, dispenser, pieces, salt)
        say(events, seat, f"seat {seat} tips the {DISPENSER_FILLS[dispenser].name} dispenser: "
            f"{tip_text(dispenser, pieces, salt)} falls into the pan")
        for note in refill_dispensers(state):
            say(events, -1, note)
        flow.settle_own_dish(state, seat, events)

    def _take_cup(self, state: Any, seat: int, take: pb.TakeCup, events: Events) -> None:
        kind = CUP_KINDS.index(take.cup)
        state.players[take.seat].cups[kind] -= 1
        receive_cup(state.players[seat], kind)
        say(events, seat, f"seat {seat} takes a {cup_name(kind)} cup from seat {take.seat}")
        flow.after_heating(state, seat, events)

    def _coffee_break(
        self, state: Any, seat: int, action: Any, kind: str, rng: RandomSource, events: Events
    ) -> None:
        """A free coffee break: use a cup, which goes back onto the coffee tray (any number a turn,
        none after three spoons). The next tip of a re-season cup in use takes no cup."""
        me = state.players[seat]
        if kind == "reseason" and state.HasField("reseasoning"):
            self._reseason_tip(state, seat, action.reseason, rng, events)
            return
        cup = {
            "swap_stoves": actions.SWAP_CUP,
            "three_spoons": actions.SPOONS_CUP,
            "reseason": actions.RESEASON_CUP,
            "lower_heat": actions.LOWER_CUP,
        }[kind]
        me.cups[cup] -= 1
        state.tray[cup] += 1
        if kind == "swap_stoves":
            other = state.players[action.swap_stoves.seat]
            mine = pb.Stove()
            mine.CopyFrom(me.stove)
            me.stove.CopyFrom(other.stove)
            other.stove.CopyFrom(mine)
            say(events, seat, f"seat {seat} takes a coffee break and swaps stoves with seat {action.swap_stoves.seat}")
        elif kind == "three_spoons":
            state.actions_left += CONTENT.extra_actions
            state.three_spoons_taken = True
            say(events, seat, f"seat {seat} takes a coffee break: {CONTENT.extra_actions} more actions, no other cup"
                " this turn")
        elif kind == "reseason":
            state.reseasoning.seat = action.reseason.seat
            state.reseasoning.tips_left = CONTENT.reseason_tips
            say(events, seat, f"seat {seat} takes a coffee break to re-season seat {action.reseason.seat}'s dish"
                f" (up to {CONTENT.reseason_tips} tips)")
            self._reseason_tip(state, seat, action.reseason, rng, events)
            return
        else:
            before = me.stove.heat
            me.stove.heat = max(0, before - action.lower_heat.amount)
            say(events, seat, f"seat {seat} takes a coffee break and turns the knob down: {before} -> {me.stove.heat}")
        flow.settle_own_dish(state, seat, events)

    def _reseason_tip(self, state: Any, seat: int, reseason: Any, rng: RandomSource, events: Events) -> None:
        """One tip of the re-season cup in use, by the acting seat's skill, into the other pan; the
        cup is spent when its tips run out."""
        target = reseason.seat
        dispenser = CONDIMENTS.index(reseason.dispenser)
        pieces, salt = tip(rng, state.players[seat].skill, state.dispensers[dispenser])
        pour_into_pan(state.players[target].stove, dispenser, pieces, salt)
        state.reseasoning.tips_left -= 1
        left = state.reseasoning.tips_left
        say(events, seat, f"seat {seat} tips the {DISPENSER_FILLS[dispenser].name} dispenser over seat {target}'s"
            f" dish: {tip_text(dispenser, pieces, salt)} falls in ({left} tip{'' if left == 1 else 's'} left)")
        if left <= 0:
            state.ClearField("reseasoning")
        for note in refill_dispensers(state):
            say(events, -1, note)
        flow.settle_own_dish(state, seat, events)

    # ------------------------------------------------------------------ the end
    def outcome(self, state: Any) -> common_pb2.Outcome | None:
        if not state.core.game_over:
            return None
        scores = [points(player) for player in state.players]
        keys = [
            (1.0 if player.stars >= CONTENT.stars_to_win else 0.0, float(score))
            for player, score in zip(state.players, scores, strict=True)
        ]
        return ranked_outcome(keys, scores, observe.end_text(state.end, state.ended_by))

    # ------------------------------------------------------------------ views
    def view(self, state: Any, seat: int) -> pb.View:
        return observe.make_view(state, seat)

    def observation(self, view: Any) -> np.ndarray:
        return observe.observation(view)

    def render(self, view: Any) -> str:
        return render.render(view)

    def resample_hidden(self, state: Any, seat: int, rng: RandomSource) -> Any:
        """Everything on the table lies open (the tray's cups are counted by kind, which follows from
        the open cups); the only unknown is the random source, so only it is redrawn."""
        sample = pb.State()
        sample.CopyFrom(state)
        sample.core.random.counter = rng.next_u64()
        return sample

    def check_invariants(self, state: Any) -> None:
        n = state.core.num_players
        assert len(state.players) == n, "one player per seat"
        assert len(state.dispensers) == NUM_CONDIMENTS and len(state.sink) == NUM_CONDIMENTS
        assert len(state.tray) == NUM_CUP_KINDS
        in_pans = [0] * NUM_CONDIMENTS
        salt = sum(d.salt for d in state.dispensers) + state.sink_salt
        dishes = list(state.supply) + list(state.trash)
        cups = list(state.tray)
        stars = state.stars_left
        for player in state.players:
            stove = player.stove
            assert 0 <= stove.heat <= CONTENT.max_heat, "heat out of range"
            assert len(stove.pan) == NUM_CONDIMENTS and len(player.cups) == NUM_CUP_KINDS
            assert not (stove.crepe and stove.dish >= 0), "a pan holds one thing"
            assert stove.crepe == (player.crepe == pb.CREPE_STATUS_IN_PAN), "the crepe is in its owner's pan"
            for d in range(NUM_CONDIMENTS):
                in_pans[d] += stove.pan[d]
            salt += stove.salt
            if stove.dish >= 0:
                dishes.append(stove.dish)
            elif not stove.crepe:
                assert not any(stove.pan) and not stove.salt, "an empty pan holds no condiments"
            dishes.extend(player.finished)
            for c in range(NUM_CUP_KINDS):
                cups[c] += player.cups[c]
            cups[VICTORY_CUP] += player.victory_cups
            assert player.cups[VICTORY_CUP] == 0, "victory-point cups go onto the tray at once"
            assert all(c >= 0 for c in player.cups), "negative cups"
            stars += player.stars
            assert player.stars <= CONTENT.stars_to_win, "the third star ends the game"
            assert 0 <= player.skill < len(SKILLS)
        assert sorted(dishes) == list(range(NUM_DISHES)), "every dish is in exactly one place"
        trashed = [dish for player in state.players for dish in player.trashed]
        assert sorted(trashed) == sorted(state.trash), "every trashed dish was trashed by one player"
        assert -1 <= state.last_round_by < n, "the seat that started the last round"
        if state.last_round_by >= 0:
            assert finished_count(state.players[state.last_round_by]) >= CONTENT.dishes_to_end
        assert list(state.supply) == sorted(state.supply), "the supply is kept in order"
        for d, fill in enumerate(DISPENSER_FILLS):
            total = state.dispensers[d].pieces + state.sink[d] + in_pans[d]
            assert total == fill.pieces, f"{fill.name} pieces were created or lost"
        assert salt == sum(fill.salt for fill in DISPENSER_FILLS), "salt was created or lost"
        assert sum(cups) == TOTAL_CUPS, "coffee cups were created or lost"
        assert cups == [s.count for s in CONTENT.cups], "cups by kind"
        assert stars == CONTENT.stars, "stars were created or lost"
        counts = [*state.sink, state.sink_salt, *(v for d in state.dispensers for v in (d.pieces, d.salt))]
        counts += [v for p in state.players for v in (*p.stove.pan, p.stove.salt, p.victory_cups, p.stars)]
        assert min(counts) >= 0, "negative pieces, cups or stars"
        assert 0 <= state.last_face <= len(DIE), "unknown die face"
        if not state.core.game_over:
            assert state.phase != pb.PHASE_UNSPECIFIED, "a decision is pending"
            assert state.actions_left >= 0
            stove = state.players[state.core.seat_to_move].stove
            if state.phase == pb.PHASE_CHOOSE_HEAT:
                assert state.last_face and DIE[state.last_face - 1].kind == pb.DIE_FACE_KIND_CHOOSE
            if state.phase in (pb.PHASE_CREPE_ROLL, pb.PHASE_CREPE_FLIP):
                assert stove.crepe, "a crepe turn needs a crepe"
            if state.phase in (pb.PHASE_ACTIONS, pb.PHASE_SPOILED):
                assert stove.dish >= 0, "actions need a dish in the pan"
            if state.phase == pb.PHASE_CHOOSE_DISH:
                assert stove.dish < 0 and not stove.crepe, "a new dish goes into an empty pan"
            else:
                assert not state.after_trash, "only a dish choice follows a trashed dish"
            if state.HasField("reseasoning"):
                target = state.reseasoning.seat
                assert state.phase == pb.PHASE_ACTIONS, "a re-season cup is used between actions"
                assert 0 <= target < n and target != state.core.seat_to_move, "onto another player's dish"
                assert 0 < state.reseasoning.tips_left < CONTENT.reseason_tips, "a cup in use has tips left"
