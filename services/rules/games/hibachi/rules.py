"""Hibachi: Fired Up! (rulebook 003): each round the chefs throw their chips onto the board, then
activate them one at a time to buy and sell ingredients, trigger action spaces and cook recipes.
The round in which a chef completes three recipes is the last.

This module is the Engine: setup and options, and dispatch to the modules that hold the rules
(throwing, cleaning, rounds, legal, codec, views, render).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from services.kit.errors import GameError
from services.rules.engine import Engine, ranked_outcome
from services.rules.games.hibachi import codec, legal, render, rounds, views
from services.rules.games.hibachi.cleaning import activate
from services.rules.games.hibachi.content import (
    CHIP_VALUES,
    CHIPS_PER_SEAT,
    CONTENT,
    LAYOUT,
    RECIPES,
    SKILL_SPREADS,
    card_count,
    space_name,
)
from services.rules.games.hibachi.geometry import (
    CHIP_DIAMETER,
    beyond_edge,
    on_board,
    space_bits,
    spaces_of,
    spaces_under_hole,
)
from services.rules.games.hibachi.table import chip_slot, chips_per_round, value_index_of
from services.rules.games.hibachi.throwing import throw_chip
from services.rules.random_source import RandomSource
from services.rules.spec import GameSpec, OptionSpec
from sizzle.common.v1 import common_pb2
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb

SKILL_NAMES = tuple(SKILL_SPREADS)
CARD_COUNTS = [card_count(k) for k in range(LAYOUT.kinds)]
ALL_RECIPES = [recipe.id for recipe in RECIPES]


def seat_skills(options: Mapping[str, str], num_players: int) -> list[str]:
    """Each seat's skill: `skill` for all, overridden seat by seat by the comma-separated
    `seat_skills` (an empty entry keeps `skill`)."""
    skills = [options["skill"]] * num_players
    given = options.get("seat_skills", "")
    if not given.strip():
        return skills
    parts = [part.strip() for part in given.split(",")]
    if len(parts) != num_players or any(part and part not in SKILL_SPREADS for part in parts):
        raise GameError(
            common_pb2.ERROR_REASON_INVALID_OPTION,
            f"seat_skills must list {num_players} skills out of {', '.join(SKILL_NAMES)} (or blanks), got {given!r}",
            {"option": "seat_skills"},
        )
    return [part or skills[seat] for seat, part in enumerate(parts)]


@lru_cache(maxsize=256)
def aim_text(x: float, y: float) -> str:
    """The spaces an aim point is on, in words (ids aim at a few points over and over)."""
    return ", ".join(space_name(s) for s in spaces_under_hole(x, y)) or "no space"


@lru_cache(maxsize=4096)
def space_bits_cached(x: float, y: float) -> int:
    """space_bits, remembered: invariants recheck the same resting chips step after step."""
    return space_bits(x, y)


class Hibachi(Engine):
    spec = GameSpec(
        game_id="hibachi",
        display_name="Hibachi: Fired Up!",
        min_players=CONTENT.min_players,
        max_players=CONTENT.max_players,
        num_distinct_actions=LAYOUT.size,
        observation_shape=(views.OBSERVATION_SIZE,),
        options=(
            OptionSpec(
                "skill",
                "How well every chef throws: the spread of the landing point around the aim",
                CONTENT.throw_model.default_skill,
                SKILL_NAMES,
            ),
            OptionSpec(
                "seat_skills",
                "Per-seat throwing skills overriding `skill`, comma-separated in seat order (blank: keep `skill`)",
                "",
            ),
        ),
    )
    State = pb.State
    Action = pb.Action
    View = pb.View
    # 2: the board of revision 2 (small action spaces in the corners; docs/rules/hibachi.md).
    rules_revision = 2

    # ------------------------------------------------------------------ setup
    def setup(self, state: Any, options: Mapping[str, str], rng: RandomSource) -> None:
        n = state.core.num_players
        for skill in seat_skills(options, n):
            state.players.add(
                money=CONTENT.start_money,
                hand=[0] * LAYOUT.kinds,
                skill=skill,
                throw_spread=SKILL_SPREADS[skill],
            )
        for seat in range(n):
            for v in range(CHIPS_PER_SEAT):
                state.chips.add(owner=seat, value_index=v, status=pb.CHIP_STATUS_IN_SUPPLY, arrival=-1)
        state.piles.extend(card_count(k) for k in range(LAYOUT.kinds))
        deck = [recipe.id for recipe in RECIPES]
        rng.shuffle(deck)
        state.recipes_on_show.extend(deck[: CONTENT.recipes_on_show])
        state.recipe_deck.extend(deck[CONTENT.recipes_on_show :])
        state.head_chef = rng.below(n)  # "you may also choose the head chef randomly"
        state.next_head_chef = -1
        state.phase = pb.PHASE_THROWING
        state.round = 1
        state.core.seat_to_move = state.head_chef

    # ------------------------------------------------------------------ legality and the codec
    def legal_action_ids(self, state: Any) -> list[int]:
        return legal.legal_ids(state)

    def is_legal_id(self, state: Any, action_id: int) -> bool:
        return legal.is_legal(state, action_id)

    def id_to_action(self, state: Any, seat: int, action_id: int) -> pb.Action:
        return codec.id_to_action(action_id)

    def action_to_id(self, state: Any, seat: int, action: Any) -> int | None:
        return codec.action_to_id(action)

    def structured_is_legal(self, state: Any, seat: int, action: Any) -> bool:
        """A throw may aim at any point of the board and a placement may go to any point inside the
        raised edge; whether the chip may be thrown or placed at all is what its ids say (the same
        for every target, so the ids aimed at space 0 stand for all)."""
        kind = action.WhichOneof("kind")
        if kind == "throw":
            v = value_index_of(action.throw.chip_value)
            return (
                v is not None
                and on_board(action.throw.aim_x, action.throw.aim_y)
                and self.is_legal_id(state, LAYOUT.throw(v, 0))
            )
        if kind == "place_chip":
            place = action.place_chip
            v, w = value_index_of(place.chip_value), value_index_of(place.placed_chip_value)
            return (
                v is not None
                and w is not None
                and math.isfinite(place.x)
                and math.isfinite(place.y)
                and not beyond_edge(place.x, place.y)
                and self.is_legal_id(state, LAYOUT.place(v, w, 0))
            )
        return super().structured_is_legal(state, seat, action)

    # ------------------------------------------------------------------ applying
    def mutate(self, state: Any, seat: int, action: Any, rng: RandomSource) -> list[common_pb2.Event]:
        if action.WhichOneof("kind") == "throw":
            return self._throw(state, seat, action.throw, rng)
        events = activate(state, seat, action)
        return events + rounds.after_activation(state, seat)

    def _throw(self, state: Any, seat: int, throw: Any, rng: RandomSource) -> list[common_pb2.Event]:
        v = CHIP_VALUES.index(throw.chip_value)
        slot = chip_slot(state, seat, v)
        landing = throw_chip(state, slot, throw.aim_x, throw.aim_y, state.players[seat].throw_spread, rng)
        aimed = aim_text(throw.aim_x, throw.aim_y)
        face = f"face up: {throw.chip_value}" if landing.face_up else "face down"
        if landing.invalid:
            where = "on the raised edge: invalid this round"
        else:
            where = ", ".join(space_name(s) for s in spaces_of(state.chips[slot].space_bits)) or "no space"
            where = f"at ({landing.x:.0f}, {landing.y:.0f}) on {where}"
        events = [
            common_pb2.Event(
                seat=seat,
                text=f"seat {seat} throws a chip at {aimed}; it lands {face} {where}",
                secret_text=f"you threw your {throw.chip_value} chip",
                secret_seat=seat,
            )
        ]
        for push in landing.pushes:
            chip = state.chips[push.slot]
            if push.invalid:
                to = "onto the raised edge: invalid this round"
            else:
                to = "to " + (", ".join(space_name(s) for s in spaces_of(chip.space_bits)) or "no space")
            events.append(common_pb2.Event(seat=seat, text=f"  it knocks seat {chip.owner}'s chip {to}"))
        return events + rounds.after_throw(state)

    # ------------------------------------------------------------------ the end
    def outcome(self, state: Any) -> common_pb2.Outcome | None:
        if not state.core.game_over:
            return None
        win = CONTENT.recipes_to_win
        keys = [(float(min(len(p.cooked), win)), float(p.money)) for p in state.players]
        scores = [len(p.cooked) for p in state.players]
        if any(len(p.cooked) >= win for p in state.players):
            reason = f"{win} recipes cooked; among those who did, the most money wins"
        else:
            reason = f"no one cooked {win} recipes in {CONTENT.max_rounds} rounds: most recipes, then most money"
        return ranked_outcome(keys, scores, reason)

    # ------------------------------------------------------------------ views
    def view(self, state: Any, seat: int) -> pb.View:
        return views.make_view(state, seat)

    def observation(self, view: Any) -> np.ndarray:
        return views.observation(view)

    def resample_hidden(self, state: Any, seat: int, rng: RandomSource) -> Any:
        return views.resample_hidden(state, seat, rng)

    def render(self, view: Any) -> str:
        return render.render(view)

    def describe_action(self, state: Any, seat: int, action: Any) -> str:
        return codec.describe(action)

    # ------------------------------------------------------------------ invariants
    def check_invariants(self, state: Any) -> None:
        n = state.core.num_players
        assert len(state.players) == n and len(state.chips) == n * CHIPS_PER_SEAT, "wrong number of chefs or chips"
        assert len(state.piles) == LAYOUT.kinds, "one pile per ingredient"
        hands = [list(p.hand) for p in state.players]
        assert all(len(hand) == LAYOUT.kinds and min(hand) >= 0 for hand in hands), "bad hand"
        for k, pile in enumerate(state.piles):
            assert pile >= 0 and pile + sum(hand[k] for hand in hands) == CARD_COUNTS[k], f"kind {k} miscounted"
        recipes = [*state.recipe_deck, *state.recipes_on_show]
        for p in state.players:
            assert p.money >= 0, "a chef is in debt"
            recipes.extend(p.reserve)
            recipes.extend(p.cooked)
        assert sorted(recipes) == ALL_RECIPES, "recipes were created or lost"
        assert len(state.recipes_on_show) <= CONTENT.recipes_on_show, "too many recipes on show"
        assert 0 <= state.head_chef < n and -1 <= state.next_head_chef < n, "bad head chef"
        throwing = state.phase == pb.PHASE_THROWING
        assert throwing or state.phase == pb.PHASE_CLEANING, "unknown phase"
        on_board = []
        arrivals = []
        for slot, chip in enumerate(state.chips):
            assert (chip.owner, chip.value_index) == divmod(slot, CHIPS_PER_SEAT), "chip slots out of order"
            if chip.arrival >= 0:
                arrivals.append(chip.arrival)
            if chip.status == pb.CHIP_STATUS_ON_BOARD:
                x, y = chip.x, chip.y
                assert not beyond_edge(x, y), "a valid chip lies beyond the edge"
                assert chip.space_bits == space_bits_cached(x, y), "a chip's spaces are stale"
                assert throwing or chip.face_up, "a chip in play is face down while cleaning"
                on_board.append((x, y))
            else:
                assert chip.space_bits == 0, "a chip off the board is on spaces"
                assert not (throwing and chip.status == pb.CHIP_STATUS_USED), "a chip was used while throwing"
        assert len(arrivals) == len(set(arrivals)) and all(a < state.arrivals for a in arrivals), "bad arrivals"
        if throwing:
            assert state.throws_made < n * chips_per_round(n), "throwing step should be over"
            limit = CHIP_DIAMETER * CHIP_DIAMETER
            for i, (ax, ay) in enumerate(on_board):
                for bx, by in on_board[i + 1 :]:
                    assert (ax - bx) ** 2 + (ay - by) ** 2 >= limit, "thrown chips overlap"
