"""The short form of the balance gate (`make balance` is the full one, 1,000 games a plan): every
single-minded plan of every game against heuristic players, and the seat tables of games whose seat
order one of our rulings decides. A plan fails here only when even the low end of its 95% interval
is above 1.25x chance, so the short run flags a plan that clearly wins (always Bonus ingredient won
92.5% of two-player games), not noise."""

from __future__ import annotations

import pytest

from services.rules.registry import game_ids
from workers.bots.plans import game_plans
from workers.training.balance import PLAN_LIMIT, SEAT_RANGE, measure, seats_ruled_by_us

GAMES = 100  # per plan
SEAT_GAMES = 150  # per table size, where our ruling decides the seat order


@pytest.mark.parametrize("game_id", game_ids())
def test_no_single_minded_plan_clearly_beats_the_heuristic(game_id: str) -> None:
    plans = game_plans(game_id)
    assert plans, f"{game_id} has no single-minded plans (workers/bots/plans/{game_id}.py)"
    balance = measure(game_id, GAMES, 0, workers=1, seed=7)
    for name, standing in balance.plans.items():
        low, _ = standing.interval
        assert low / standing.chance <= PLAN_LIMIT, f"{game_id}: {name} wins {standing.ratio:.2f}x chance"


@pytest.mark.parametrize("game_id", [g for g in game_ids() if seats_ruled_by_us(g)])
def test_every_seat_stays_near_chance_where_our_ruling_decides_it(game_id: str) -> None:
    balance = measure(game_id, 0, SEAT_GAMES, workers=1, seed=7)
    low_limit, high_limit = SEAT_RANGE
    for players, table in balance.seats.items():
        for seat in range(players):
            low, high = table.interval(seat)
            assert low * players <= high_limit and high * players >= low_limit, (
                f"{game_id} {players}p seat {seat}: {table.ratio(seat):.2f}x chance")
