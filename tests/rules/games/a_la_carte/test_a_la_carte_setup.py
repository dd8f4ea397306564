"""Setup: stoves at zero, pans, a random cup each, trays, crepes, full dispensers, dishes chosen in turn
(the last seat first)."""

from __future__ import annotations

import pytest

from services.kit.errors import GameError
from services.rules.games.a_la_carte.content import CONTENT, NUM_DISHES
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb
from tests.rules.games.a_la_carte.scenario import ENGINE, HIPPO, KIPPER, OCTOPUS, VP, L, new_table


def test_setup_each_player_gets_a_stove_at_zero_a_pan_a_cup_a_tray_and_a_crepe() -> None:
    state = new_table(4)
    for player in state.players:
        assert player.stove.heat == 0 and player.stove.dish == -1 and not player.stove.crepe
        assert not any(player.stove.pan) and player.stove.salt == 0
        assert sum(player.cups) + player.victory_cups == 1, "one coffee cup each, at random"
        assert not player.finished and player.crepe == pb.CREPE_STATUS_UNUSED
    assert sum(state.tray) == 13 - 4, "the other cups wait on the coffee tray"
    assert state.stars_left == 9


def test_setup_starting_cups_are_random() -> None:
    hands = {tuple(p.cups) + (p.victory_cups,) for seed in range(30) for p in new_table(4, seed=seed).players}
    assert len(hands) == 5, "every kind of cup can be a starting cup"


def test_setup_victory_point_cup_goes_straight_onto_the_tray() -> None:
    for seed in range(50):
        state = new_table(4, seed=seed)
        for player in state.players:
            assert player.cups[VP] == 0
            if player.victory_cups:
                return
    raise AssertionError("no seed dealt a victory-point cup")


def test_setup_dispensers_hold_fifteen_of_a_colour_and_five_salt() -> None:
    state = new_table(2)
    assert [(d.pieces, d.salt) for d in state.dispensers] == [(15, 5)] * 4
    assert not any(state.sink) and state.sink_salt == 0


def test_setup_dishes_are_chosen_last_seat_first_then_the_first_player_starts() -> None:
    """Ours (content `setup_order`): the last seat chooses first, then the others in reverse seat
    order, so the first player, who moves first, chooses last."""
    assert CONTENT.setup_order == pb.SETUP_ORDER_LAST_PLAYER_FIRST
    state = new_table(3)
    assert state.phase == pb.PHASE_CHOOSE_DISH and state.core.seat_to_move == 2
    assert ENGINE.legal_actions(state) == [L.dish_base + d for d in range(NUM_DISHES)]
    assert ENGINE.legal_actions(state, 0) == [], "the first player does not choose first"
    for seat, dish in zip((2, 1, 0), (HIPPO, OCTOPUS, KIPPER), strict=True):
        assert state.core.seat_to_move == seat and state.phase == pb.PHASE_CHOOSE_DISH
        ENGINE.apply(state, seat, L.dish_base + dish)
    assert [p.stove.dish for p in state.players] == [KIPPER, OCTOPUS, HIPPO]
    assert state.phase == pb.PHASE_ACTIONS and state.core.seat_to_move == 0, "the first player starts"
    assert state.actions_left == CONTENT.actions_per_turn
    assert HIPPO not in state.supply


@pytest.mark.parametrize(("players", "order"), [(2, [1, 0]), (3, [2, 1, 0]), (4, [3, 2, 1, 0])])
def test_setup_order_goes_from_the_last_seat_down_to_the_first_player(players: int, order: list[int]) -> None:
    state = new_table(players)
    choosers = []
    while state.phase == pb.PHASE_CHOOSE_DISH:
        seat = state.core.seat_to_move
        choosers.append(seat)
        ENGINE.apply(state, seat, ENGINE.legal_actions(state)[0])
    assert choosers == order
    assert state.core.seat_to_move == 0 and state.phase == pb.PHASE_ACTIONS


def test_setup_order_is_content_data() -> None:
    """The other order the content may name: the first player first, round the table."""
    shipped = CONTENT.setup_order
    CONTENT.setup_order = pb.SETUP_ORDER_FIRST_PLAYER_FIRST
    try:
        state = new_table(3)
        choosers = []
        while state.phase == pb.PHASE_CHOOSE_DISH:
            choosers.append(state.core.seat_to_move)
            ENGINE.apply(state, state.core.seat_to_move, ENGINE.legal_actions(state)[0])
    finally:
        CONTENT.setup_order = shipped
    assert choosers == [0, 1, 2] and state.core.seat_to_move == 0


def test_setup_a_chosen_dish_is_no_longer_offered() -> None:
    state = new_table(2)
    ENGINE.apply(state, 1, L.dish_base + HIPPO)
    assert L.dish_base + HIPPO not in ENGINE.legal_actions(state)


def test_setup_crepe_is_not_a_starting_dish() -> None:
    assert L.crepe not in ENGINE.legal_actions(new_table(2))


def test_skill_option_applies_to_every_seat() -> None:
    state = new_table(3, {"skill": "expert"})
    assert [ENGINE.view(state, -1).players[s].skill for s in range(3)] == ["expert"] * 3


def test_seat_skills_override_the_skill_option() -> None:
    state = new_table(3, {"skill": "novice", "seat_skills": "expert, ,average"})
    assert [p.skill for p in ENGINE.view(state, 0).players] == ["expert", "novice", "average"]


@pytest.mark.parametrize("value", ["wizard", "expert,expert,expert"])
def test_seat_skills_refuses_unknown_names_and_extra_seats(value: str) -> None:
    with pytest.raises(GameError) as error:
        new_table(2, {"seat_skills": value})
    assert error.value.reason_name == "INVALID_OPTION"


def test_skill_option_refuses_unknown_levels() -> None:
    with pytest.raises(GameError):
        new_table(2, {"skill": "master"})
