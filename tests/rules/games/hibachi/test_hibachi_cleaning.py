"""Step 2, cleaning the cooking area: turn order, buying and selling, the action spaces, cooking,
doing nothing, the run-out rule, and what stays hidden."""

from __future__ import annotations

import pytest

from services.kit.errors import GameError
from services.rules.games.hibachi.content import LAYOUT
from services.rules.games.hibachi.table import RECIPE_KINDS, space_cost
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb
from tests.rules.games.hibachi.hibachi_builders import (
    CHILI,
    EGG,
    ENGINE,
    FRIED_RICE,
    ONION,
    RICE,
    SHRIMP,
    SHRIMP_FRIED_RICE,
    action_space,
    centre,
    chip,
    give,
    ingredient_space,
    legal,
    new_table,
    plain_grill,
    put_chip,
    put_on,
    to_cleaning,
    v,
)

L = LAYOUT
EGG_SPACE = ingredient_space(pb.INGREDIENT_EGG)
RICE_SPACE = ingredient_space(pb.INGREDIENT_RICE)
NOODLES_SPACE = ingredient_space(pb.INGREDIENT_NOODLES)
PLACE = action_space(pb.SPACE_KIND_PLACE_CHIP)
BONUS = action_space(pb.SPACE_KIND_BONUS_INGREDIENT)
RESERVE = action_space(pb.SPACE_KIND_RESERVE_RECIPE)
HEAD_CHEF = action_space(pb.SPACE_KIND_HEAD_CHEF)


def egg_table() -> object:
    """The rulebook's picture: Red (seat 0) has 200 on the egg space, Blue (seat 1) 400."""
    state = new_table(players=3, head_chef=0)
    put_on(state, 0, 200, EGG_SPACE, dx=-25.0)
    put_on(state, 1, 400, EGG_SPACE, dx=25.0)
    put_on(state, 2, 100, RICE_SPACE)
    return to_cleaning(state)


def test_cleaning_turns_every_chip_in_play_face_up() -> None:
    state = new_table(players=2, head_chef=0)
    while state.phase == pb.PHASE_THROWING:
        ENGINE.apply(state, state.core.seat_to_move, legal(state)[0])
    spectator = ENGINE.view(state, -1)
    for c in spectator.chips:
        if c.status == pb.CHIP_STATUS_ON_BOARD:
            assert c.face_up and c.HasField("value")


def test_cleaning_starts_with_the_head_chef_and_goes_round_the_table() -> None:
    state = new_table(players=3, head_chef=1)
    for seat in range(3):
        put_on(state, seat, 100, RICE_SPACE, dx=-40.0 + 40.0 * seat)
        put_on(state, seat, 200, BONUS, dx=-40.0 + 40.0 * seat)
    to_cleaning(state)
    order = []
    while not state.core.game_over and state.phase == pb.PHASE_CLEANING:
        seat = state.core.seat_to_move
        order.append(seat)
        ENGINE.apply(state, seat, L.nothing(chip_value_on_board(state, seat)))
    assert order == [1, 2, 0, 1, 2, 0]


def chip_value_on_board(state: object, seat: int) -> int:
    for c in state.chips:  # type: ignore[attr-defined]
        if c.owner == seat and c.status == pb.CHIP_STATUS_ON_BOARD:
            return c.value_index
    raise AssertionError(f"seat {seat} has no chip on the board")


def test_cleaning_skips_chefs_without_chips_on_the_board() -> None:
    state = new_table(players=3, head_chef=0)
    put_on(state, 0, 100, RICE_SPACE)
    put_on(state, 0, 200, BONUS)
    put_on(state, 2, 100, EGG_SPACE)
    to_cleaning(state)
    ENGINE.apply(state, 0, L.nothing(v(100)))
    assert state.core.seat_to_move == 2  # seat 1's chips all missed the board
    ENGINE.apply(state, 2, L.nothing(v(100)))
    assert state.core.seat_to_move == 0


def test_buy_costs_the_sum_of_all_chips_on_the_space() -> None:
    state = egg_table()
    assert space_cost(state, EGG_SPACE) == 600
    ENGINE.apply(state, 0, pb.Action(buy=pb.Buy(chip_value=200, ingredient=pb.INGREDIENT_EGG)))
    assert state.players[0].money == 1200 - 600
    assert state.players[0].hand[EGG] == 1 and state.piles[EGG] == 7


def test_buy_needs_enough_money() -> None:
    state = egg_table()
    state.players[0].money = 599
    assert L.buy(v(200), EGG) not in legal(state)
    state.players[0].money = 600
    assert L.buy(v(200), EGG) in legal(state)


def test_sell_earns_twice_the_sum_of_all_chips_on_the_space() -> None:
    state = egg_table()
    give(state, 0, EGG)
    ENGINE.apply(state, 0, pb.Action(sell=pb.Sell(chip_value=200, ingredient=pb.INGREDIENT_EGG)))
    assert state.players[0].money == 1200 + 1200
    assert state.players[0].hand[EGG] == 0 and state.piles[EGG] == 8


def test_sell_needs_a_matching_card() -> None:
    state = egg_table()
    assert L.sell(v(200), EGG) not in legal(state)
    with pytest.raises(GameError):
        ENGINE.apply(state, 0, pb.Action(sell=pb.Sell(chip_value=200, ingredient=pb.INGREDIENT_EGG)))


def test_cost_falls_as_chips_leave_the_space() -> None:
    state = egg_table()
    ENGINE.apply(state, 0, L.nothing(v(200)))  # Red removes its 200 from the egg space
    assert chip(state, 0, 200).status == pb.CHIP_STATUS_USED
    ENGINE.apply(state, 1, L.buy(v(400), EGG))
    assert state.players[1].money == 1200 - 400


def test_a_chip_buys_or_sells_only_the_ingredient_it_is_on() -> None:
    state = egg_table()
    give(state, 0, RICE)
    ids = legal(state)
    assert L.buy(v(200), RICE) not in ids and L.sell(v(200), RICE) not in ids
    assert L.buy(v(200), EGG) in ids


def test_same_chef_may_buy_with_one_chip_and_sell_with_another_on_one_space() -> None:
    state = new_table(players=2, head_chef=0)
    put_on(state, 0, 100, EGG_SPACE, dx=-25.0)
    put_on(state, 0, 600, EGG_SPACE, dx=25.0)
    put_on(state, 1, 100, RICE_SPACE)
    to_cleaning(state)
    ENGINE.apply(state, 0, L.buy(v(100), EGG))  # pays 700
    ENGINE.apply(state, 1, L.nothing(v(100)))
    ENGINE.apply(state, 0, L.sell(v(600), EGG))  # only the 600 is left: earns 1200
    assert state.players[0].money == 1200 - 700 + 1200
    assert state.players[0].hand[EGG] == 0


def test_chip_on_several_spaces_lets_its_owner_choose_which_to_trigger() -> None:
    state = new_table(players=2, head_chef=0)
    rice_x, rice_y = centre(RICE_SPACE)
    put_chip(state, 0, 200, (rice_x + centre(NOODLES_SPACE)[0]) / 2, rice_y)
    put_on(state, 1, 100, EGG_SPACE)
    to_cleaning(state)
    noodles = ENGINE.action_to_id(state, 0, pb.Action(buy=pb.Buy(chip_value=200, ingredient=pb.INGREDIENT_NOODLES)))
    ids = legal(state)
    assert L.buy(v(200), RICE) in ids and noodles in ids
    # A chip on two spaces counts towards the cost of both.
    assert space_cost(state, RICE_SPACE) == space_cost(state, NOODLES_SPACE) == 200


def test_the_activated_chip_is_removed_from_the_board() -> None:
    state = egg_table()
    ENGINE.apply(state, 0, L.buy(v(200), EGG))
    removed = chip(state, 0, 200)
    assert removed.status == pb.CHIP_STATUS_USED and removed.space_bits == 0
    assert space_cost(state, EGG_SPACE) == 400


def test_do_nothing_only_removes_the_chip() -> None:
    state = egg_table()
    before = ENGINE.view(state, 0)
    events = ENGINE.apply(state, 0, pb.Action(do_nothing=pb.DoNothing(chip_value=200)))
    after = ENGINE.view(state, 0)
    assert after.players[0] == before.players[0] and list(after.piles) == list(before.piles)
    assert chip(state, 0, 200).status == pb.CHIP_STATUS_USED
    assert "does nothing" in events[0].text


def place_table(players: int = 4) -> object:
    state = new_table(players=players, head_chef=0)
    put_on(state, 0, 100, PLACE)
    put_on(state, 0, 200, EGG_SPACE)
    put_on(state, 1, 100, RICE_SPACE)
    return state


def test_place_a_chip_puts_a_chip_from_the_supply_face_up_on_the_board() -> None:
    state = to_cleaning(place_table(players=4))
    ENGINE.apply(state, 0, L.place(v(100), v(600), RICE_SPACE))
    placed = chip(state, 0, 600)
    assert placed.status == pb.CHIP_STATUS_ON_BOARD and placed.face_up
    assert (placed.x, placed.y) == centre(RICE_SPACE)
    assert space_cost(state, RICE_SPACE) == 100 + 600
    assert chip(state, 0, 100).status == pb.CHIP_STATUS_USED
    seen = [c for c in ENGINE.view(state, 1).chips if c.owner == 0 and c.status == pb.CHIP_STATUS_ON_BOARD]
    assert {c.value for c in seen} == {200, 600}


def test_place_a_chip_may_place_an_invalid_throw() -> None:
    state = place_table(players=2)
    put_chip(state, 0, 400, 5.0, 5.0).status = pb.CHIP_STATUS_INVALID
    chip(state, 0, 400).space_bits = 0
    to_cleaning(state)
    assert L.place(v(100), v(400), BONUS) in legal(state)
    ENGINE.apply(state, 0, L.place(v(100), v(400), BONUS))
    assert chip(state, 0, 400).status == pb.CHIP_STATUS_ON_BOARD


def test_place_a_chip_may_move_a_chip_already_on_the_board() -> None:
    state = to_cleaning(place_table(players=2))
    ENGINE.apply(state, 0, L.place(v(100), v(200), HEAD_CHEF))
    assert (chip(state, 0, 200).x, chip(state, 0, 200).y) == centre(HEAD_CHEF)
    assert space_cost(state, EGG_SPACE) == 0


def test_place_a_chip_never_places_a_chip_already_activated() -> None:
    state = place_table(players=2)
    put_on(state, 0, 400, BONUS)
    to_cleaning(state)
    ENGINE.apply(state, 0, L.nothing(v(400)))
    ENGINE.apply(state, 1, L.nothing(v(100)))
    ids = legal(state)
    assert not any(L.place(v(100), v(400), s) in ids for s in range(L.spaces))
    assert L.place(v(100), v(200), RICE_SPACE) in ids
    assert not any(L.place(v(100), v(100), s) in ids for s in range(L.spaces))  # nor the chip itself


def test_a_placed_chip_is_activated_later_in_the_cleaning_step() -> None:
    state = to_cleaning(place_table(players=4))
    ENGINE.apply(state, 0, L.place(v(100), v(600), BONUS))
    ENGINE.apply(state, 1, L.nothing(v(100)))
    assert state.core.seat_to_move == 0
    ENGINE.apply(state, 0, L.bonus(v(600), SHRIMP))
    assert state.players[0].hand[SHRIMP] == 1


def test_a_person_may_place_a_chip_at_any_point_inside_the_edge() -> None:
    state = to_cleaning(place_table(players=4))
    anywhere = pb.Action(place_chip=pb.PlaceChip(chip_value=100, placed_chip_value=600, x=300.5, y=222.0))
    assert ENGINE.action_to_id(state, 0, anywhere) is None
    ENGINE.apply(state, 0, anywhere)
    assert (chip(state, 0, 600).x, chip(state, 0, 600).y) == (300.5, 222.0)
    state = to_cleaning(place_table(players=4))
    with pytest.raises(GameError):
        ENGINE.apply(state, 0, pb.Action(place_chip=pb.PlaceChip(chip_value=100, placed_chip_value=600, x=2, y=2)))


def test_bonus_ingredient_takes_a_card_of_any_kind_for_free() -> None:
    state = new_table(players=2, head_chef=0)
    put_on(state, 0, 600, BONUS)
    put_on(state, 1, 100, RICE_SPACE)
    to_cleaning(state)
    assert {a - L.bonus_base - v(600) * L.kinds for a in legal(state) if L.bonus_base <= a < L.place_base} == set(
        range(L.kinds)
    )
    chili = pb.BonusIngredient(chip_value=600, ingredient=pb.INGREDIENT_CHILI)
    ENGINE.apply(state, 0, pb.Action(bonus_ingredient=chili))
    assert state.players[0].hand[CHILI] == 1 and state.players[0].money == 1200


def test_reserve_a_recipe_takes_the_top_of_the_deck_into_a_private_reserve() -> None:
    state = new_table(players=2, head_chef=0)
    put_on(state, 0, 100, RESERVE)
    put_on(state, 1, 100, RICE_SPACE)
    to_cleaning(state)
    top = state.recipe_deck[0]
    events = ENGINE.apply(state, 0, L.reserve(v(100)))
    assert list(state.players[0].reserve) == [top]
    assert ENGINE.view(state, 0).players[0].reserve == [top]
    other = ENGINE.view(state, 1).players[0]
    assert other.reserve_size == 1 and list(other.reserve) == []
    assert str(top) not in events[0].text and events[0].secret_seat == 0


def test_reserve_a_recipe_needs_a_card_in_the_deck() -> None:
    state = new_table(players=2, head_chef=0)
    put_on(state, 0, 100, RESERVE)
    put_on(state, 1, 100, RICE_SPACE)
    state.players[1].reserve.extend(state.recipe_deck)
    del state.recipe_deck[:]
    to_cleaning(state)
    assert L.reserve(v(100)) not in legal(state)


def test_only_the_owner_may_cook_a_reserved_recipe() -> None:
    state = new_table(players=2, head_chef=0)
    hidden = state.recipe_deck[-1]
    state.recipe_deck.remove(hidden)
    state.players[1].reserve.append(hidden)
    put_on(state, 0, 100, RICE_SPACE)
    put_on(state, 1, 100, EGG_SPACE)
    for seat in (0, 1):
        for k in RECIPE_KINDS[hidden]:
            give(state, seat, k)
    to_cleaning(state)
    assert not any(L.cook(v(100), hidden, option) in legal(state) for option in range(L.cook_options))
    ENGINE.apply(state, 0, L.nothing(v(100)))
    assert L.cook(v(100), hidden, 0) in legal(state)
    ENGINE.apply(state, 1, L.cook(v(100), hidden, 0))
    assert list(state.players[1].cooked) == [hidden] and not state.players[1].reserve


def test_head_chef_space_makes_its_activator_head_chef_next_round() -> None:
    state = new_table(players=3, head_chef=0)
    put_on(state, 2, 100, HEAD_CHEF)
    put_on(state, 0, 100, RICE_SPACE)
    to_cleaning(state)
    ENGINE.apply(state, 0, L.nothing(v(100)))
    ENGINE.apply(state, 2, pb.Action(take_head_chef=pb.TakeHeadChef(chip_value=100)))
    assert state.round == 2 and state.head_chef == 2 and state.core.seat_to_move == 2


def test_if_several_take_the_head_chef_space_the_last_one_wins() -> None:
    state = new_table(players=3, head_chef=0)
    put_on(state, 1, 100, HEAD_CHEF, dx=-25.0)
    put_on(state, 2, 100, HEAD_CHEF, dx=25.0)
    to_cleaning(state, seat=1)
    ENGINE.apply(state, 1, L.head_chef(v(100)))
    assert state.next_head_chef == 1
    ENGINE.apply(state, 2, L.head_chef(v(100)))
    assert state.head_chef == 2 and state.round == 2


def cook_table(recipe: int = FRIED_RICE) -> object:
    state = new_table(players=2, head_chef=0)
    cards = [r for r in [*state.recipes_on_show, *state.recipe_deck] if r != recipe]
    state.recipes_on_show[:] = [recipe, *cards[:2]]
    state.recipe_deck[:] = cards[2:]
    put_chip(state, 0, 100, *plain_grill())  # on the plain grill: no space at all
    put_on(state, 0, 200, EGG_SPACE)
    put_on(state, 1, 100, RICE_SPACE)
    return state


def test_cook_a_recipe_on_show_with_any_chip_anywhere() -> None:
    state = cook_table()
    for k in (RICE, EGG, ONION):
        give(state, 0, k)
    to_cleaning(state)
    assert chip(state, 0, 100).space_bits == 0
    events = ENGINE.apply(state, 0, pb.Action(cook=pb.Cook(chip_value=100, recipe=FRIED_RICE)))
    assert list(state.players[0].cooked) == [FRIED_RICE]
    assert FRIED_RICE not in state.recipes_on_show
    assert sum(state.players[0].hand) == 0 and state.piles[RICE] == 8  # the cards go back to the board
    assert "Hibachi Fried Rice" in events[0].text


def test_cooking_needs_all_three_ingredients() -> None:
    state = cook_table()
    give(state, 0, RICE)
    give(state, 0, EGG)
    to_cleaning(state)
    assert not any(L.cook(v(100), FRIED_RICE, option) in legal(state) for option in range(L.cook_options))


def test_two_chili_replace_any_one_ingredient() -> None:
    state = cook_table()
    give(state, 0, RICE)
    give(state, 0, EGG)
    give(state, 0, CHILI, 2)
    to_cleaning(state)
    onion_slot = 1 + 2  # Hibachi Fried Rice lists rice, egg, onion
    assert L.cook(v(100), FRIED_RICE, onion_slot) in legal(state)
    assert L.cook(v(100), FRIED_RICE, 0) not in legal(state)
    ENGINE.apply(state, 0, pb.Action(cook=pb.Cook(chip_value=100, recipe=FRIED_RICE, chili_for=pb.INGREDIENT_ONION)))
    assert state.players[0].hand[CHILI] == 0 and state.piles[CHILI] == 12
    assert list(state.players[0].cooked) == [FRIED_RICE]


def test_chili_replaces_only_one_ingredient_per_recipe() -> None:
    state = cook_table()
    give(state, 0, RICE)
    give(state, 0, CHILI, 4)
    to_cleaning(state)
    assert not any(L.cook(v(100), FRIED_RICE, option) in legal(state) for option in range(L.cook_options))


def test_one_chili_is_not_enough() -> None:
    state = cook_table()
    give(state, 0, RICE)
    give(state, 0, EGG)
    give(state, 0, CHILI, 1)
    to_cleaning(state)
    assert not any(L.cook(v(100), FRIED_RICE, option) in legal(state) for option in range(L.cook_options))


def test_recipes_on_show_are_not_refilled_until_the_end_of_the_round() -> None:
    state = cook_table()
    for k in (RICE, EGG, ONION):
        give(state, 0, k)
    to_cleaning(state)
    ENGINE.apply(state, 0, L.cook(v(100), FRIED_RICE, 0))
    assert len(state.recipes_on_show) == 2
    ENGINE.apply(state, 1, L.nothing(v(100)))
    assert len(state.recipes_on_show) == 2  # still cleaning
    ENGINE.apply(state, 0, L.nothing(v(200)))
    assert state.round == 2 and len(state.recipes_on_show) == 3


def test_run_out_rule_shows_all_hands_and_the_most_put_back_half() -> None:
    state = new_table(players=3, head_chef=0)
    put_on(state, 0, 100, EGG_SPACE)
    put_on(state, 1, 100, RICE_SPACE)
    give(state, 0, EGG, 1)
    give(state, 1, EGG, 5)
    give(state, 2, EGG, 2)
    assert state.piles[EGG] == 0
    to_cleaning(state)
    events = ENGINE.apply(state, 0, L.buy(v(100), EGG))
    assert state.players[1].hand[EGG] == 5 - 2  # five, half rounded down is two
    assert state.players[2].hand[EGG] == 2
    assert state.players[0].hand[EGG] == 2 and state.piles[EGG] == 1
    assert any("all hands are shown" in e.text and "seat 1: " in e.text for e in events)


def test_run_out_rule_with_a_tie_for_most_makes_each_put_back_half() -> None:
    state = new_table(players=3, head_chef=0)
    put_on(state, 0, 100, BONUS)
    put_on(state, 1, 100, RICE_SPACE)
    give(state, 0, CHILI, 2)
    give(state, 1, CHILI, 5)
    give(state, 2, CHILI, 5)
    to_cleaning(state)
    ENGINE.apply(state, 0, L.bonus(v(100), CHILI))
    assert [p.hand[CHILI] for p in state.players] == [3, 3, 3]
    assert state.piles[CHILI] == 3


def test_hands_are_hidden_from_the_other_chefs() -> None:
    state = egg_table()
    give(state, 1, EGG, 2)
    give(state, 1, SHRIMP, 1)
    for seat in (0, 2, -1):
        seen = ENGINE.view(state, seat).players[1]
        assert seen.hand_size == 3 and list(seen.hand) == []
    assert ENGINE.view(state, 1).players[1].hand[EGG] == 2


def test_chip_values_stay_hidden_until_the_cleaning_step() -> None:
    state = new_table(players=2, head_chef=0)
    while state.phase == pb.PHASE_THROWING:
        before = state.throws_made
        ENGINE.apply(state, state.core.seat_to_move, legal(state)[0])
        if state.phase == pb.PHASE_THROWING:
            seen = {c.arrival: c for c in ENGINE.view(state, -1).chips if c.arrival >= 0}
            for c in state.chips:
                if c.arrival >= 0:
                    assert seen[c.arrival].HasField("value") == c.face_up
        assert state.throws_made == before + 1 or state.phase == pb.PHASE_CLEANING
    for seen in ENGINE.view(state, -1).chips:
        if seen.status == pb.CHIP_STATUS_ON_BOARD:
            assert seen.HasField("value")


def test_shrimp_fried_rice_uses_its_own_ingredients() -> None:
    state = cook_table(SHRIMP_FRIED_RICE)
    for k in (RICE, SHRIMP, EGG):
        give(state, 0, k)
    to_cleaning(state)
    assert L.cook(v(100), SHRIMP_FRIED_RICE, 0) in legal(state)
