"""The heuristic bot plays only legal moves from its view and beats random play."""

from __future__ import annotations

import random

import pytest

from services.rules.games.hibachi.content import INGREDIENT_SPACE
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb
from tests.rules.games.hibachi.hibachi_builders import (
    EGG,
    ENGINE,
    FRIED_RICE,
    ONION,
    RICE,
    L,
    action_space,
    give,
    ingredient_space,
    kind,
    legal,
    new_table,
    plain_grill,
    put_chip,
    put_on,
    to_cleaning,
    v,
)
from workers.bots.heuristic import heuristic_class
from workers.bots.heuristic.hibachi import HibachiHeuristic, wanted_kinds
from workers.bots.interface import RandomBot
from workers.training.experts.hibachi import HibachiExpert


def test_the_bot_is_found_for_the_game() -> None:
    assert heuristic_class("hibachi") is HibachiHeuristic


def test_wanted_kinds_are_what_the_closest_recipe_lacks() -> None:
    hand = [0] * 10
    hand[RICE] = hand[EGG] = 1
    assert wanted_kinds(hand, [FRIED_RICE]) == [ONION]


def test_heuristic_beats_random_players() -> None:
    wins = 0
    games = 12
    for game in range(games):
        rng = random.Random(game)
        bots = [HibachiHeuristic(rng), RandomBot(rng)]
        state = ENGINE.new_game(2, {}, game)
        while not state.core.game_over:
            seat = state.core.seat_to_move
            legal = ENGINE.legal_actions(state)
            choice = bots[seat].step(ENGINE.view(state, seat), legal)
            assert choice in legal
            ENGINE.apply(state, seat, choice)
        wins += ENGINE.outcome(state).results[0].winner
    assert wins >= games * 3 // 4


# ---------------------------------------------------------------------- the board of revision 2
YAKISOBA, STEAK_AND_VEGETABLES = 6, 17  # noodles, beef, onion; beef, mushroom, zucchini
BEEF = kind(pb.INGREDIENT_BEEF)
BONUS_SPACE = action_space(pb.SPACE_KIND_BONUS_INGREDIENT)


def test_offered_only_some_throws_the_heuristic_chooses_among_them() -> None:
    state = new_table(players=2)
    only_bonus = [L.throw(w, BONUS_SPACE) for w in range(L.values)]
    choice = HibachiHeuristic(random.Random(1)).step(ENGINE.view(state, 0), only_bonus)
    assert choice == L.throw(v(100), BONUS_SPACE)  # its cheapest chip
    give(state, 0, BEEF)  # a card no recipe on show needs can be sold: there, its dearest chip
    state.recipes_on_show[:] = [FRIED_RICE, FRIED_RICE + 1, FRIED_RICE + 2]
    beef = ingredient_space(pb.INGREDIENT_BEEF)
    only_beef = [L.throw(w, beef) for w in range(L.values)]
    assert HibachiHeuristic(random.Random(1)).step(ENGINE.view(state, 0), only_beef) == L.throw(v(600), beef)


def sell_table(money: int) -> object:
    """Seat 0 holds egg, onion and beef, its 400 chip on Beef: Hibachi Fried Rice lacks rice and
    Yakisoba noodles (so the beef is kept for Yakisoba), Steak and Vegetables is further off."""
    state = new_table(players=2)
    cards = [r for r in [*state.recipes_on_show, *state.recipe_deck] if r not in (FRIED_RICE, YAKISOBA)]
    state.recipes_on_show[:] = [FRIED_RICE, YAKISOBA, STEAK_AND_VEGETABLES]
    state.recipe_deck[:] = [r for r in cards if r != STEAK_AND_VEGETABLES]
    for k in (EGG, ONION, BEEF):
        give(state, 0, k)
    state.players[0].money = money
    put_on(state, 0, 400, ingredient_space(pb.INGREDIENT_BEEF))
    put_chip(state, 1, 100, *plain_grill())
    return to_cleaning(state, seat=0)


def test_short_of_money_the_heuristic_sells_a_card_its_target_recipe_does_not_need() -> None:
    state = sell_table(money=100)
    choice = HibachiHeuristic(random.Random(1)).step(ENGINE.view(state, 0), legal(state))
    assert choice == L.sell(v(400), BEEF)


def test_with_money_the_heuristic_keeps_the_cards_of_its_next_recipe() -> None:
    state = sell_table(money=1200)
    choice = HibachiHeuristic(random.Random(1)).step(ENGINE.view(state, 0), legal(state))
    assert choice != L.sell(v(400), BEEF)


@pytest.mark.parametrize(("skill", "at_bonus"), [("expert", True), ("average", False), ("novice", False)])
def test_the_expert_sends_its_first_chip_to_bonus_ingredient_only_if_it_lands_there_mostly(
    skill: str, at_bonus: bool
) -> None:
    state = new_table(players=2, seat_skills=f"{skill},average")
    choice = HibachiExpert(random.Random(1)).step(ENGINE.view(state, 0), legal(state))
    aimed = (choice - L.throw_base) % L.spaces
    assert (aimed == BONUS_SPACE) is at_bonus
    if not at_bonus:
        assert aimed in INGREDIENT_SPACE.values() and choice // L.spaces == v(100)  # cheapest chip, to buy


@pytest.mark.parametrize(
    ("players", "skill", "aims_at_place"), [(4, "expert", True), (4, "average", False), (3, "expert", False)]
)
def test_with_a_chip_left_in_the_supply_an_accurate_heuristic_aims_at_place_a_chip(
    players: int, skill: str, aims_at_place: bool
) -> None:
    state = new_table(players=players, skill=skill)
    place, reserve = action_space(pb.SPACE_KIND_PLACE_CHIP), action_space(pb.SPACE_KIND_RESERVE_RECIPE)
    offered = sorted(L.throw(w, space) for w in range(L.values) for space in (place, reserve))
    choice = HibachiHeuristic(random.Random(1)).step(ENGINE.view(state, 0), offered)
    assert (choice - L.throw_base) % L.spaces == (place if aims_at_place else reserve)
