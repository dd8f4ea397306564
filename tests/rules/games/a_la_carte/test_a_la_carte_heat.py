"""Heat actions: the die's six faces, the cap at 7, taking coffee cups, three actions a turn."""

from __future__ import annotations

from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb
from tests.rules.games.a_la_carte.scenario import (
    ENGINE,
    FACE_ALL,
    FACE_CHOOSE,
    FACE_CUP,
    FACE_PLUS1,
    FACE_PLUS2,
    FACE_PLUS3,
    HIPPO,
    LEMON,
    LOWER,
    OCTOPUS,
    PEPPER,
    RESEASON,
    SWAP,
    VP,
    L,
    force,
    kitchen,
    put_dish,
    roll,
    texts,
)


def test_heat_roll_turns_the_knob_up_by_the_number_rolled() -> None:
    for face, amount in ((FACE_PLUS1, 1), (FACE_PLUS2, 2), (FACE_PLUS3, 3)):
        state, _ = roll(kitchen(), face)
        assert state.players[0].stove.heat == amount
        assert state.actions_left == 2, "a heat action costs one spoon"


def test_heat_is_capped_at_seven() -> None:
    state = kitchen(dishes=(HIPPO, OCTOPUS))
    state.players[0].stove.heat = 6
    _, events = roll(state, FACE_PLUS3)
    assert "heat 6 -> 7" in texts(events)


def test_heat_cap_ignores_extra_pips_at_the_maximum() -> None:
    state = kitchen()
    state.players[1].stove.heat = 7  # another player's stove, already at the top
    after, _ = roll(state, FACE_ALL)
    assert after.players[1].stove.heat == 7


def test_choose_face_lets_the_player_pick_one_to_three() -> None:
    state, _ = roll(kitchen(), FACE_CHOOSE)
    assert state.phase == pb.PHASE_CHOOSE_HEAT
    assert ENGINE.legal_actions(state) == [L.choose_heat_base, L.choose_heat_base + 1, L.choose_heat_base + 2]
    ENGINE.apply(state, 0, pb.Action(choose_heat=pb.ChooseHeat(amount=2)))
    assert state.players[0].stove.heat == 2 and state.phase == pb.PHASE_ACTIONS


def test_every_stove_face_heats_every_stove_by_one() -> None:
    state = kitchen(num_players=3, dishes=(HIPPO, OCTOPUS, 12))
    state.players[2].stove.heat = 2
    after, _ = roll(state, FACE_ALL)
    assert [p.stove.heat for p in after.players] == [1, 1, 3]


def test_coffee_cup_face_takes_a_cup_from_the_tray() -> None:
    state = kitchen()
    tray_before = sum(state.tray)
    after, _ = roll(state, FACE_CUP)
    me = after.players[0]
    assert sum(after.tray) == tray_before - 1
    assert sum(me.cups) + me.victory_cups == 1
    assert me.stove.heat == 0, "the cup face does not heat"


def test_coffee_cup_face_victory_cup_goes_onto_the_tray_at_once() -> None:
    state = kitchen()
    state.tray[:] = [3, 0, 0, 0, 0]
    for player in state.players:
        player.cups[:] = [0, 3, 2, 3, 2] if player is state.players[1] else [0] * 5
    after, _ = roll(state, FACE_CUP)
    assert after.players[0].victory_cups == 1 and after.players[0].cups[VP] == 0


def test_coffee_cup_face_takes_from_another_player_when_the_tray_is_empty() -> None:
    state = kitchen(num_players=3, dishes=(HIPPO, OCTOPUS, 12))
    state.tray[:] = [0, 0, 0, 0, 0]
    state.players[0].victory_cups = 3
    state.players[1].cups[:] = [0, 3, 2, 0, 0]
    state.players[2].cups[:] = [0, 0, 0, 3, 2]
    after, _ = roll(state, FACE_CUP)
    assert after.phase == pb.PHASE_TAKE_CUP
    legal = ENGINE.legal_actions(after)
    per_seat = len(after.tray)
    assert legal == [
        L.take_cup_base + SWAP, L.take_cup_base + 2,  # seat 1 holds swap and spoons cups
        L.take_cup_base + per_seat + RESEASON, L.take_cup_base + per_seat + LOWER,  # seat 2
    ]
    ENGINE.apply(after, 0, pb.Action(take_cup=pb.TakeCup(seat=2, cup=pb.CUP_KIND_LOWER_HEAT)))
    assert after.players[0].cups[LOWER] == 1 and after.players[2].cups[LOWER] == 1
    assert after.phase == pb.PHASE_ACTIONS and after.actions_left == 2


def test_victory_cups_on_a_tray_cannot_be_taken() -> None:
    state = kitchen()
    state.tray[:] = [0, 0, 0, 0, 0]
    state.players[0].cups[:] = [0, 3, 2, 3, 2]
    state.players[1].victory_cups = 3
    after, events = roll(state, FACE_CUP)
    assert after.phase == pb.PHASE_ACTIONS, "the only other cups are safe victory points"
    assert after.players[1].victory_cups == 3
    assert "no cup is left" in "\n".join(e.text for e in events)


def test_three_actions_a_turn_then_the_next_player() -> None:
    state = kitchen()
    for spent in range(3):
        assert state.core.seat_to_move == 0 and state.actions_left == 3 - spent
        state, _ = roll(state, FACE_PLUS1)
    assert state.core.seat_to_move == 1 and state.actions_left == 3
    assert state.players[0].stove.heat == 3


def test_play_goes_clockwise_round_the_table() -> None:
    state = kitchen(num_players=3, dishes=(HIPPO, OCTOPUS, 12), seat=2)
    for _ in range(3):
        state, _ = roll(state, FACE_CUP)
    assert state.core.seat_to_move == 0


def test_heat_outcome_is_drawn_by_the_engine_not_chosen() -> None:
    faces = set()
    for counter in range(200):
        state = kitchen()
        state.core.random.counter = counter
        ENGINE.apply(state, 0, L.roll)
        faces.add(state.last_face)
    assert faces == {1, 2, 3, 4, 5, 6}


def test_heat_can_push_a_dish_into_its_green_range_and_finish_it() -> None:
    state = kitchen()
    put_dish(state, 0, HIPPO, heat=2, pan={PEPPER: 2, LEMON: 1})
    after, events = force(state, L.roll, lambda s: s.last_face == FACE_PLUS1 + 1)
    assert after.players[0].finished[:] == [HIPPO]
    assert after.phase == pb.PHASE_CHOOSE_DISH
