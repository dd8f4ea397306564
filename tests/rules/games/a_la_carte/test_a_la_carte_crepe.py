"""The crepe: placing it ends the turn; next turn roll, then up to two flips with three outcomes;
one crepe per player per game; burnt at 7; no coffee breaks while it cooks."""

from __future__ import annotations

from collections import Counter

from services.rules.games.a_la_carte.content import CONTENT
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb
from tests.rules.games.a_la_carte.scenario import (
    CHAMOIS,
    ENGINE,
    FACE_ALL,
    FACE_CHOOSE,
    FACE_CUP,
    FACE_PLUS1,
    FACE_PLUS2,
    HIPPO,
    LEMON,
    LOWER,
    PEPPER,
    SPOONS,
    L,
    force,
    give_cup,
    kitchen,
    put_dish,
    roll,
    texts,
)


def _crepe_placed() -> pb.State:
    """Seat 0 serves Hippo with its first action and puts its crepe in the pan."""
    state = kitchen()
    put_dish(state, 0, HIPPO, heat=2, pan={PEPPER: 2, LEMON: 1})
    state, _ = roll(state, FACE_PLUS1)
    ENGINE.apply(state, 0, pb.Action(place_crepe=pb.PlaceCrepe()))
    return state


def _crepe_turn() -> pb.State:
    """Seat 0's crepe turn, the roll still to come."""
    state = _crepe_placed()
    for _ in range(3):
        state, _ = roll(state, FACE_CUP)
    assert state.core.seat_to_move == 0
    return state


def _flip(state: pb.State, result: int) -> tuple[pb.State, list]:
    return force(state, L.flip, lambda s: s.last_flip == result)


def test_crepe_placing_it_ends_the_turn() -> None:
    state = _crepe_placed()
    me = state.players[0]
    assert me.stove.crepe and me.crepe == pb.CREPE_STATUS_IN_PAN and me.stove.heat == 0
    assert state.core.seat_to_move == 1, "the two spoons left are lost"


def test_crepe_turn_starts_with_the_roll() -> None:
    state = _crepe_turn()
    assert state.phase == pb.PHASE_CREPE_ROLL and ENGINE.legal_actions(state) == [L.roll]


def test_crepe_roll_heats_then_flipping_follows() -> None:
    state, _ = roll(_crepe_turn(), FACE_PLUS2)
    assert state.players[0].stove.heat == 2 and state.phase == pb.PHASE_CREPE_FLIP
    assert ENGINE.legal_actions(state) == [L.flip, L.stop_flipping]


def test_crepe_roll_choose_face() -> None:
    state, _ = roll(_crepe_turn(), FACE_CHOOSE)
    ENGINE.apply(state, 0, L.choose_heat_base)
    assert state.players[0].stove.heat == 1 and state.phase == pb.PHASE_CREPE_FLIP


def test_crepe_no_coffee_break_while_it_cooks() -> None:
    state = _crepe_turn()
    give_cup(state, 0, SPOONS)
    give_cup(state, 0, LOWER)
    assert ENGINE.legal_actions(state) == [L.roll]
    state, _ = roll(state, FACE_PLUS2)
    assert ENGINE.legal_actions(state) == [L.flip, L.stop_flipping]


def test_crepe_cup_rolled_is_taken_but_cannot_be_used() -> None:
    state, _ = roll(_crepe_turn(), FACE_CUP)
    assert sum(state.players[0].cups) + state.players[0].victory_cups == 1
    assert state.phase == pb.PHASE_CREPE_FLIP and ENGINE.legal_actions(state) == [L.flip, L.stop_flipping]


def test_crepe_picture_up_is_finished_scores_five_and_ends_the_turn() -> None:
    state, _ = roll(_crepe_turn(), FACE_PLUS1)
    state, events = _flip(state, pb.FLIP_RESULT_PICTURE_UP)
    me = state.players[0]
    assert me.crepe == pb.CREPE_STATUS_FINISHED and not me.stove.crepe
    assert ENGINE.view(state, 0).players[0].points == 6 + CONTENT.crepe.points
    assert me.stars == 1, "the crepe earns no star (the one star is Hippo's)"
    assert state.phase == pb.PHASE_CHOOSE_DISH and state.after_dish == pb.AFTER_DISH_END_TURN
    assert L.crepe not in ENGINE.legal_actions(state), "one crepe per player per game"
    ENGINE.apply(state, 0, L.dish_base + CHAMOIS)
    assert state.core.seat_to_move == 1 and "picture side up" in texts(events)


def test_crepe_heat_does_not_matter_below_seven() -> None:
    state = _crepe_turn()
    state.players[0].stove.heat = 5
    state, _ = roll(state, FACE_PLUS1)
    state, _ = _flip(state, pb.FLIP_RESULT_PICTURE_UP)
    assert state.players[0].crepe == pb.CREPE_STATUS_FINISHED


def test_crepe_recipe_side_up_once_allows_a_second_flip() -> None:
    state, _ = roll(_crepe_turn(), FACE_PLUS1)
    state, _ = _flip(state, pb.FLIP_RESULT_RECIPE_UP)
    assert state.core.seat_to_move == 0 and state.phase == pb.PHASE_CREPE_FLIP


def test_crepe_two_failed_flips_end_the_turn() -> None:
    state, _ = roll(_crepe_turn(), FACE_PLUS1)
    state, _ = _flip(state, pb.FLIP_RESULT_RECIPE_UP)
    state, _ = _flip(state, pb.FLIP_RESULT_RECIPE_UP)
    assert state.core.seat_to_move == 1 and state.players[0].stove.crepe


def test_crepe_beside_the_pan_ends_the_turn() -> None:
    state, _ = roll(_crepe_turn(), FACE_PLUS1)
    state, _ = _flip(state, pb.FLIP_RESULT_BESIDE_PAN)
    assert state.core.seat_to_move == 1 and state.players[0].stove.crepe


def test_crepe_next_turn_heats_and_tries_again() -> None:
    state, _ = roll(_crepe_turn(), FACE_PLUS1)
    state, _ = _flip(state, pb.FLIP_RESULT_BESIDE_PAN)
    for _ in range(3):
        state, _ = roll(state, FACE_CUP)
    assert state.core.seat_to_move == 0 and state.phase == pb.PHASE_CREPE_ROLL
    state, _ = roll(state, FACE_PLUS2)
    assert state.players[0].stove.heat == 3, "the knob goes on up from where it was"


def test_crepe_stop_flipping_ends_the_turn() -> None:
    state, _ = roll(_crepe_turn(), FACE_PLUS1)
    ENGINE.apply(state, 0, pb.Action(stop_flipping=pb.StopFlipping()))
    assert state.core.seat_to_move == 1


def test_crepe_burns_at_seven() -> None:
    state = _crepe_turn()
    state.players[0].stove.heat = 5
    state, events = roll(state, FACE_PLUS2)
    me = state.players[0]
    assert me.crepe == pb.CREPE_STATUS_BURNT and not me.stove.crepe
    assert state.phase == pb.PHASE_CHOOSE_DISH and L.crepe not in ENGINE.legal_actions(state)
    ENGINE.apply(state, 0, L.dish_base + CHAMOIS)
    assert state.core.seat_to_move == 1, "the turn is over at once"
    assert "burns" in texts(events)


def test_crepe_burnt_by_every_stove_face_is_trashed_on_its_owners_turn() -> None:
    state = _crepe_placed()
    state.players[0].stove.heat = 6
    state, _ = roll(state, FACE_ALL)
    assert state.players[0].stove.crepe and state.players[0].stove.heat == 7
    for _ in range(2):
        state, _ = roll(state, FACE_CUP)
    assert state.core.seat_to_move == 0 and state.players[0].crepe == pb.CREPE_STATUS_BURNT
    assert state.phase == pb.PHASE_CHOOSE_DISH and state.after_dish == pb.AFTER_DISH_END_TURN


def test_crepe_flip_outcomes_follow_the_skill() -> None:
    shares = {}
    for skill in ("novice", "expert"):
        state = _crepe_turn()
        state.players[0].skill = ["novice", "average", "expert"].index(skill)
        state, _ = roll(state, FACE_PLUS1)
        results: Counter[int] = Counter()
        for counter in range(600):
            trial = pb.State()
            trial.CopyFrom(state)
            trial.core.random.counter = counter
            ENGINE.apply(trial, 0, L.flip)
            results[trial.last_flip] += 1
        shares[skill] = results[pb.FLIP_RESULT_PICTURE_UP] / 600
        assert set(results) == {pb.FLIP_RESULT_PICTURE_UP, pb.FLIP_RESULT_RECIPE_UP, pb.FLIP_RESULT_BESIDE_PAN}
    assert shares["expert"] > shares["novice"] + 0.2
