"""The heuristic bot plays whole games with legal actions only and beats random bots; it uses a
re-season cup's three tips and several coffee breaks a turn; every single-minded plan plays legal
games (the heuristic answers with one of the plan's ids); the expert goes on tipping while it hurts."""

from __future__ import annotations

import random

import pytest

from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb
from tests.rules.games.a_la_carte.scenario import (
    CHAMOIS,
    ENGINE,
    HIPPO,
    OCTOPUS,
    PAPRIKA,
    PEPPER,
    RESEASON,
    L,
    force,
    give_cup,
    kitchen,
    put_dish,
)
from workers.bots.heuristic.a_la_carte import ALaCarteHeuristic, dish_value
from workers.bots.interface import RandomBot
from workers.bots.plans import Plan, SingleMindedBot
from workers.bots.plans.a_la_carte import PLANS, SEATS_RULED_BY_US
from workers.training.experts.a_la_carte import ALaCarteExpert


def test_heuristic_plays_legal_actions_and_beats_random_bots() -> None:
    wins = 0.0
    games = 40
    for game in range(games):
        bots = [ALaCarteHeuristic(random.Random(game))] + [RandomBot(random.Random(game + s)) for s in (1, 2)]
        state = ENGINE.new_game(3, {}, game)
        while not state.core.game_over:
            seat = state.core.seat_to_move
            legal = ENGINE.legal_actions(state)
            action = bots[seat].step(ENGINE.view(state, seat), legal)
            assert action in legal
            ENGINE.apply(state, seat, action)
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        winners = [r.winner for r in outcome.results]
        wins += winners[0] / sum(winners)
    assert wins / games > 0.5, "a sensible beginner wins most games against two random players"


def _step(bot: object, state: pb.State) -> int:
    seat = state.core.seat_to_move
    action = bot.step(ENGINE.view(state, seat), ENGINE.legal_actions(state))  # type: ignore[attr-defined]
    assert action in ENGINE.legal_actions(state)
    return action


def _leader_with_pepper(num_players: int = 2) -> pb.State:
    """Seat 1 leads by far and its Octopus (pepper 2) holds one pepper; seat 0 holds a re-season cup."""
    state = kitchen(num_players, dishes=(HIPPO, OCTOPUS, CHAMOIS)[:num_players])
    put_dish(state, 1, OCTOPUS, heat=1, pan={PEPPER: 1})
    for dish in (9, 10):
        state.supply.remove(dish)
        state.players[1].finished.append(dish)
    give_cup(state, 0, RESEASON)
    return state


def _pan_total(state: pb.State, seat: int) -> int:
    stove = state.players[seat].stove
    return sum(stove.pan) + stove.salt


def test_heuristic_reseasons_the_leader_and_goes_on_tipping_until_the_dish_is_spoiled() -> None:
    state = _leader_with_pepper()
    bot = ALaCarteHeuristic(random.Random(0))
    first = _step(bot, state)
    assert first == L.reseason_base + PAPRIKA, "a colour off the recipe: pepper would help the dish"
    state, _ = force(state, first, lambda s: s.players[1].stove.pan[PAPRIKA] == 1 and _pan_total(s, 1) == 2)
    second = _step(bot, state)
    assert second == L.reseason_base + PAPRIKA, "the next tip is free, onto the colour nearest three"
    state, _ = force(state, second, lambda s: s.players[1].stove.pan[PAPRIKA] >= 3)
    assert state.HasField("reseasoning")
    assert not L.reseason_base <= _step(bot, state) < L.lower_base, "a spoiled dish needs no more tips"


def test_heuristic_takes_several_coffee_breaks_a_turn() -> None:
    state = _leader_with_pepper()
    give_cup(state, 0, RESEASON)
    bot = ALaCarteHeuristic(random.Random(0))
    for _ in range(3):  # the first cup's three tips, every one letting nothing fall
        state, _ = force(state, _step(bot, state), lambda s: _pan_total(s, 1) == 1)
    assert not state.HasField("reseasoning") and state.players[0].cups[RESEASON] == 1
    assert L.reseason_base <= _step(bot, state) < L.reseason_base + 4, "the second cup, in the same turn"


def test_heuristic_values_quick_dishes_over_slow_rich_ones() -> None:
    assert dish_value(0) > dish_value(19), "Breakfast Fidel (3 points, no condiments) beats Baked Alaska (8, narrow)"


@pytest.mark.parametrize("plan", PLANS, ids=[p.name for p in PLANS])
def test_every_plan_plays_legal_games_and_keeps_to_its_plan(plan: Plan) -> None:
    for players in (2, 4):
        rng = random.Random(players)
        bots = [SingleMindedBot("a_la_carte", plan, rng)] + [ALaCarteHeuristic(rng) for _ in range(players - 1)]
        state = ENGINE.new_game(players, {}, players)
        while not state.core.game_over:
            seat = state.core.seat_to_move
            view = ENGINE.view(state, seat)
            legal = ENGINE.legal_actions(state)
            action = bots[seat].step(view, legal)
            assert action in legal
            if seat == 0 and any(plan.picks(view, a) for a in legal):
                assert plan.picks(view, action), f"{plan.name} strayed from its plan"
            ENGINE.apply(state, seat, action)


def test_plans_the_kitchen_games_seats_are_ours_to_balance() -> None:
    assert SEATS_RULED_BY_US
    assert len({p.name for p in PLANS}) == len(PLANS) >= 10


def test_expert_goes_on_tipping_a_reseason_while_it_hurts() -> None:
    state = _leader_with_pepper(3)
    state.core.random.counter = 5
    ENGINE.apply(state, 0, L.reseason_base + PEPPER)
    expert = ALaCarteExpert(random.Random(0))
    action = _step(expert, state)
    if state.players[1].stove.pan[PEPPER] < 3:
        assert L.reseason_base <= action < L.reseason_base + 4, "a free tip onto the leader's dish"
