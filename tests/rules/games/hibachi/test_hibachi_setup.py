"""Preparation and match options (rulebook "Preparation")."""

from __future__ import annotations

import pytest

from services.kit.errors import GameError
from services.rules.games.hibachi.content import CONTENT, SKILL_SPREADS
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb
from tests.rules.games.hibachi.hibachi_builders import CHILI, ENGINE, RICE


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_gives_each_chef_four_chips_and_1200_yen(players: int) -> None:
    state = ENGINE.new_game(players, {}, 7)
    assert [p.money for p in state.players] == [1200] * players
    for seat in range(players):
        values = sorted(CONTENT.chip_values[c.value_index] for c in state.chips if c.owner == seat)
        assert values == [100, 200, 400, 600]
    assert all(c.status == pb.CHIP_STATUS_IN_SUPPLY for c in state.chips)
    assert all(sum(p.hand) == 0 for p in state.players)


def test_setup_lays_out_full_ingredient_and_chili_piles() -> None:
    state = ENGINE.new_game(2, {}, 7)
    assert state.piles[RICE] == 8 and state.piles[CHILI] == 12
    assert sum(state.piles) == 72 + 12


def test_setup_shuffles_recipes_and_shows_three() -> None:
    state = ENGINE.new_game(3, {}, 7)
    assert len(state.recipes_on_show) == 3
    assert len(state.recipe_deck) == 15
    assert sorted([*state.recipes_on_show, *state.recipe_deck]) == list(range(18))
    orders = {tuple(ENGINE.new_game(3, {}, seed).recipe_deck) for seed in range(10)}
    assert len(orders) > 1


def test_setup_head_chef_is_chosen_at_random_and_throws_first() -> None:
    heads = set()
    for seed in range(30):
        state = ENGINE.new_game(4, {}, seed)
        assert state.core.seat_to_move == state.head_chef
        assert state.phase == pb.PHASE_THROWING and state.round == 1
        heads.add(state.head_chef)
    assert heads == {0, 1, 2, 3}


def test_skill_option_sets_every_chefs_throwing_spread() -> None:
    state = ENGINE.new_game(3, {"skill": "expert"}, 1)
    assert [p.skill for p in state.players] == ["expert"] * 3
    assert [p.throw_spread for p in state.players] == [SKILL_SPREADS["expert"]] * 3


def test_seat_skills_option_overrides_skill_per_seat() -> None:
    state = ENGINE.new_game(3, {"skill": "expert", "seat_skills": "novice, ,average"}, 1)
    assert [p.skill for p in state.players] == ["novice", "expert", "average"]
    assert state.players[0].throw_spread == SKILL_SPREADS["novice"]


@pytest.mark.parametrize("value", ["novice,expert", "novice,expert,average,novice", "novice,pro,average"])
def test_seat_skills_option_must_name_a_known_skill_for_every_seat(value: str) -> None:
    with pytest.raises(GameError) as error:
        ENGINE.new_game(3, {"seat_skills": value}, 1)
    assert error.value.reason_name == "INVALID_OPTION"


def test_skill_option_refuses_unknown_levels() -> None:
    with pytest.raises(GameError):
        ENGINE.new_game(2, {"skill": "pro"}, 1)


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players: int) -> None:
    with pytest.raises(GameError):
        ENGINE.new_game(players, {}, 1)
