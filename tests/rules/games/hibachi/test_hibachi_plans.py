"""Hibachi's single-minded plans (workers/bots/plans/hibachi.py) and a short form of the balance gate:
a bot that throws every chip at Bonus ingredient no longer beats sensible play (it won 92.5% of
two-player games against the heuristic on the board of revision 1)."""

from __future__ import annotations

import random

from services.rules.games.hibachi.content import ACTION_SPACE, INGREDIENT_SPACE, LAYOUT
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb
from tests.rules.games.hibachi.hibachi_builders import ENGINE, new_table, put_on
from workers.bots.heuristic import heuristic_bot
from workers.bots.interface import Bot
from workers.bots.plans import Plan, SingleMindedBot, game_plans
from workers.bots.plans.hibachi import (
    CONTROL,
    PLANS,
    SEATS_RULED_BY_US,
    aimed_space,
    cheapest_ingredients,
    safest_spaces,
    wasted_chances,
)
from workers.training.arena import play_game

BONUS_SPACE = ACTION_SPACE[pb.SPACE_KIND_BONUS_INGREDIENT]


def plan(name: str) -> Plan:
    return next(p for p in PLANS if p.name == name)


def test_the_gate_finds_the_plans_one_for_every_action_space_at_least() -> None:
    assert game_plans("hibachi") == PLANS
    names = [p.name for p in PLANS]
    assert len(set(names)) == len(names)
    for space in ("Bonus ingredient", "Place a chip", "Reserve a recipe", "Head chef"):
        assert f"always {space}" in names
    assert SEATS_RULED_BY_US is False  # the head chef passes left (the rulebook); the first is drawn


def test_plans_pick_only_throws_and_the_control_picks_nothing() -> None:
    state = new_table(players=3)
    view = ENGINE.view(state, 0)
    for p in PLANS:
        picked = [a for a in range(LAYOUT.size) if p.picks(view, a)]
        assert picked and all(aimed_space(a) is not None for a in picked), p.name
    assert not any(CONTROL.picks(view, a) for a in range(LAYOUT.size))


def test_the_bonus_plan_throws_only_at_bonus_ingredient_and_plays_the_heuristic_while_cleaning() -> None:
    bot = SingleMindedBot("hibachi", plan("always Bonus ingredient"), random.Random(3))
    state = new_table(players=2, seed=5)
    while state.phase == pb.PHASE_THROWING:
        seat = state.core.seat_to_move
        legal = ENGINE.legal_actions(state)
        action = bot.step(ENGINE.view(state, seat), legal)
        assert aimed_space(action) == BONUS_SPACE
        ENGINE.apply(state, seat, action)


def test_the_cheapest_ingredients_are_the_emptiest_ingredient_spaces() -> None:
    state = new_table(players=2)
    everything = frozenset(INGREDIENT_SPACE.values())
    assert cheapest_ingredients(ENGINE.view(state, 0)) == everything
    egg = INGREDIENT_SPACE[2]
    put_on(state, 1, 100, egg)
    assert cheapest_ingredients(ENGINE.view(state, 0)) == everything - {egg}


def test_the_safest_spaces_are_ingredient_spaces_away_from_the_edge() -> None:
    inner_six = {INGREDIENT_SPACE[k] for k in (1, 2, 3, 6, 7, 8)}  # noodles, egg, shrimp; onion, mushroom, zucchini
    for spread, expected in ((18.0, frozenset(INGREDIENT_SPACE.values())), (35.0, inner_six), (70.0, inner_six)):
        state = new_table(players=2)
        state.players[0].throw_spread = spread
        assert safest_spaces(ENGINE.view(state, 0)) == expected
        assert wasted_chances(spread)[BONUS_SPACE] > max(wasted_chances(spread)[s] for s in expected)


def test_always_bonus_ingredient_loses_to_sensible_play() -> None:
    games, wins = 40, 0.0
    for game in range(games):
        rng = random.Random(game)
        bots: list[Bot] = [heuristic_bot("hibachi", rng) for _ in range(2)]
        hero = game % 2
        bots[hero] = SingleMindedBot("hibachi", plan("always Bonus ingredient"), rng)
        shares, _ = play_game(ENGINE, bots, rng.getrandbits(63))
        wins += shares[hero]
    assert wins / games < 0.5  # 92.5% on the board of revision 1
