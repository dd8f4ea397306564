"""The heuristic and the expert with the turn's budget: they act when acting pays, stop when nothing
useful is left, and give up unusable covered icons without giving up their actions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from services.rules.games.license_to_grill.content import LAYOUT
from tests.rules.games.license_to_grill.ltg_positions import (
    BURGER,
    ENGINE,
    FILET,
    RIBEYE,
    act,
    choose,
    empty_cooler,
    give,
    new,
    pb,
    place,
    ready,
    to_move,
)
from workers.bots.heuristic.license_to_grill import LicenseToGrillHeuristic
from workers.training.experts.license_to_grill import LicenseToGrillExpert

BOTS = (LicenseToGrillHeuristic, LicenseToGrillExpert)
SERVE_BASE = LAYOUT.choose_base(pb.ACTION_KIND_SERVE)


def _decide(bot_class: Any, state: Any) -> int:
    seat = state.core.seat_to_move
    bot = bot_class(random.Random(1))
    legal = ENGINE.legal_actions(state)
    action = int(bot.step(ENGINE.view(state, seat), legal))
    assert action in legal
    return action


def _nothing_on_show(state: Any) -> None:
    empty_cooler(state)
    state.ruined.extend([*state.meat_on_show, *state.veggie_on_show])
    del state.meat_on_show[:]
    del state.veggie_on_show[:]


@pytest.mark.parametrize("bot_class", BOTS)
def test_a_dish_past_its_best_rest_is_served_not_left(bot_class: Any) -> None:
    state = new()
    give(state, 0, FILET, pb.SPOT_REST, 0, 0, 0, grill_cube=3, rest_cube=1)  # rest [1, 3, 2, 0]: 3 now, 2 next
    to_move(state, 0)
    ready(state)
    assert LAYOUT.end_turn in ENGINE.legal_actions(state)
    assert _decide(bot_class, state) == SERVE_BASE + FILET


@pytest.mark.parametrize("bot_class", BOTS)
def test_the_turn_ends_when_nothing_useful_is_left(bot_class: Any) -> None:
    """Nothing on show; the only recipe went on the grill this turn (no Rest yet, no Sauce square),
    and on the low knob a free move would not change its pace: the bot ends the turn."""
    state = new()
    _nothing_on_show(state)
    give(state, 0, RIBEYE, pb.SPOT_GRILL, 0, 2, 0, grill_cube=0, grilled_this_turn=True)
    state.meat_knob = 0  # low: the Main Grill and the Warming Rack both advance 1
    to_move(state, 0, actions_left=1)
    ready(state)
    assert {a for a in ENGINE.legal_actions(state) if a < LAYOUT.place_base}  # a free move is open
    assert _decide(bot_class, state) == LAYOUT.end_turn


def test_the_beginner_waits_for_a_resting_steak() -> None:
    """The only recipe rests and gets better with another turn (Ribeye's rest track rises); nothing is
    on show: the beginner, who waits for peaks, ends the turn rather than serve early. (The expert
    serves: it trades the point for tempo.)"""
    bot_class = LicenseToGrillHeuristic
    state = new()
    _nothing_on_show(state)
    give(state, 0, RIBEYE, pb.SPOT_REST, 0, 0, 0, grill_cube=3, rest_cube=0)  # rest [1, 3, 4, 2, 0]
    to_move(state, 0)
    ready(state)
    assert SERVE_BASE + RIBEYE in ENGINE.legal_actions(state)
    assert _decide(bot_class, state) == LAYOUT.end_turn


@pytest.mark.parametrize("bot_class", BOTS)
def test_covered_icons_never_cost_the_action_left(bot_class: Any) -> None:
    """Serving over a Grill and a Rest icon with an action left: whatever a bot does with the icons,
    it does not end the turn there (the action left is worth keeping)."""
    state = _serving_over_grill_and_rest()
    assert {LAYOUT.skip_bonus, LAYOUT.end_turn} <= set(ENGINE.legal_actions(state))
    assert _decide(bot_class, state) != LAYOUT.end_turn


def test_the_beginner_gives_up_an_icon_it_does_not_want_but_keeps_its_action() -> None:
    """Only the covered Rest is left, and the Filet on the grill is far from its best: the beginner
    skips the icon (SkipBonus) rather than end its turn."""
    state = _serving_over_grill_and_rest()
    del state.bonus_icons[:]
    state.bonus_icons.append(pb.ACTION_KIND_REST)
    assert _decide(LicenseToGrillHeuristic, state) == LAYOUT.skip_bonus


def _serving_over_grill_and_rest() -> Any:
    state = new()
    give(state, 0, RIBEYE, pb.SPOT_REST, 0, 0, 0, grill_cube=3, rest_cube=1)
    give(state, 0, BURGER, pb.SPOT_PREPARE)
    give(state, 0, FILET, pb.SPOT_GRILL, 0, 2, 0, grill_cube=0)  # grill [-1, 2, 4, 5, 2]: far from its best
    to_move(state, 0)
    ready(state)
    act(state, choose("serve", RIBEYE))
    act(state, place(0, 0, 3))  # covers a Grill and a Rest icon
    assert state.phase == pb.PHASE_BONUS and state.actions_left == 1
    return state
