"""The three ends of the game (a fifth finished dish signals it and the round is played out, a third
star ends it at once, so does a player who cannot place a dish) and the ranking (highest points, ties
shared; a third star wins outright)."""

from __future__ import annotations

from services.rules.games.a_la_carte.content import CONTENT
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb
from tests.rules.games.a_la_carte.scenario import (
    CHAMOIS,
    ENGINE,
    FACE_CUP,
    FACE_PLUS1,
    HIPPO,
    LEMON,
    OCTOPUS,
    PEPPER,
    L,
    kitchen,
    put_dish,
    roll,
    texts,
    trash_dishes,
)

BLUE_AND_MORE = [9, 10, 16, 17]  # four dishes for a tray: 7 + 6 + 3 + 4 points
SNAIL = 15  # purple: a colour the fifth-dish chef has not finished


def _tray(state: pb.State, seat: int, dishes: list[int]) -> None:
    for dish in dishes:
        state.supply.remove(dish)
        state.players[seat].finished.append(dish)


def _idle_turn(state: pb.State) -> pb.State:
    """The seat to move spends its actions on rolls that show the cup face (no heat), so its turn
    passes with its dish as it was."""
    seat = state.core.seat_to_move
    while not state.core.game_over and state.core.seat_to_move == seat:
        state, _ = roll(state, FACE_CUP)
    return state


def _fifth_dish_by(num_players: int, seat: int) -> pb.State:
    """`seat` (to move) holds four finished dishes and serves Hippo, its fifth, with its first action."""
    dishes = (OCTOPUS, CHAMOIS, 13, 14)[:num_players]
    state = kitchen(num_players, dishes=tuple(HIPPO if s == seat else d for s, d in enumerate(dishes)), seat=seat)
    _tray(state, seat, BLUE_AND_MORE)
    put_dish(state, seat, HIPPO, heat=2, pan={PEPPER: 2, LEMON: 1}, salt=1)
    state, events = roll(state, FACE_PLUS1)
    assert "the round is played out" in texts(events)
    return state


def test_end_fifth_finished_dish_signals_the_end_and_the_round_is_played_out() -> None:
    state = _fifth_dish_by(3, 0)
    assert not state.core.game_over and state.last_round_by == 0
    assert state.phase == pb.PHASE_CHOOSE_DISH and state.core.seat_to_move == 0, "its own turn goes on"
    ENGINE.apply(state, 0, L.dish_base + SNAIL)
    assert state.actions_left == 2
    state = _idle_turn(state)
    assert state.core.seat_to_move == 1 and not state.core.game_over
    state = _idle_turn(state)
    assert state.core.seat_to_move == 2 and not state.core.game_over, "every seat has as many turns"
    state = _idle_turn(state)
    assert state.core.game_over and state.end == pb.GAME_END_FIVE_DISHES and state.ended_by == 0
    assert ENGINE.legal_actions(state) == []
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.results[0].winner and outcome.results[0].rank == 1
    assert outcome.results[0].score == 7 + 6 + 3 + 4 + 6 + state.players[0].victory_cups


def test_end_fifth_dish_of_the_last_seat_ends_the_game_when_its_turn_ends() -> None:
    state = _fifth_dish_by(3, 2)
    assert not state.core.game_over and state.core.seat_to_move == 2
    ENGINE.apply(state, 2, L.dish_base + SNAIL)
    state, _ = roll(state, FACE_CUP)
    assert not state.core.game_over and state.actions_left == 1
    state, _ = roll(state, FACE_CUP)
    assert state.core.game_over and state.ended_by == 2, "the round ends with the last seat"


def test_end_other_players_may_overtake_in_the_last_round() -> None:
    state = _fifth_dish_by(2, 0)
    _tray(state, 1, [0, 1, 2, 3])  # seat 1: 17 points, and Octopus would be its fifth dish too
    put_dish(state, 1, OCTOPUS, heat=2, pan={PEPPER: 2})
    ENGINE.apply(state, 0, L.dish_base + SNAIL)
    state = _idle_turn(state)
    state, _ = roll(state, FACE_PLUS1)  # seat 1 serves Octopus: 17 + 4 = 21 points, against 26
    assert not state.core.game_over and state.last_round_by == 0, "the first fifth dish started the round"
    ENGINE.apply(state, 1, L.dish_base + 19)
    state = _idle_turn(state)
    assert state.core.game_over and state.ended_by == 0
    assert ENGINE.view(state, -1).players[1].points == 17 + 4 + state.players[1].victory_cups


def test_end_third_star_in_the_last_round_ends_the_game_at_once() -> None:
    state = _fifth_dish_by(3, 0)
    ENGINE.apply(state, 0, L.dish_base + SNAIL)
    state = _idle_turn(state)
    state.players[1].stars, state.stars_left = 2, state.stars_left - 2
    put_dish(state, 1, OCTOPUS, heat=2, pan={PEPPER: 2})
    state, _ = roll(state, FACE_PLUS1)
    assert state.core.game_over and state.end == pb.GAME_END_THIRD_STAR and state.ended_by == 1
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.results[1].rank == 1


def test_end_crepes_count_towards_five_dishes() -> None:
    state = kitchen()
    _tray(state, 0, BLUE_AND_MORE[:3])
    state.players[0].crepe = pb.CREPE_STATUS_FINISHED
    put_dish(state, 0, HIPPO, heat=2, pan={PEPPER: 2, LEMON: 1}, salt=1)
    state, _ = roll(state, FACE_PLUS1)
    assert state.last_round_by == 0 and not state.core.game_over


def test_end_third_star_ends_the_game_and_wins_it() -> None:
    state = kitchen()
    _tray(state, 1, BLUE_AND_MORE)  # seat 1 has far more points
    state.players[0].stars, state.stars_left = 2, 7
    put_dish(state, 0, HIPPO, heat=2, pan={PEPPER: 2, LEMON: 1})
    state, _ = roll(state, FACE_PLUS1)
    assert state.core.game_over and state.end == pb.GAME_END_THIRD_STAR
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert [r.rank for r in outcome.results] == [1, 2] and outcome.results[0].winner
    assert outcome.results[0].score < outcome.results[1].score


def test_end_player_who_cannot_place_a_new_dish_ends_the_game() -> None:
    state = kitchen()
    state.players[0].crepe = pb.CREPE_STATUS_BURNT
    trash_dishes(state, 1, list(state.supply))  # every dish left is in the trash
    state.players[0].stove.heat = 2
    state.players[0].stove.pan[PEPPER], state.dispensers[PEPPER].pieces = 2, 13
    state.players[0].stove.pan[LEMON], state.dispensers[LEMON].pieces = 1, 14
    assert not state.supply
    state, _ = roll(state, FACE_PLUS1)
    assert state.core.game_over and state.end == pb.GAME_END_NO_DISH_TO_PLACE and state.ended_by == 0


def test_end_unused_crepe_can_still_be_placed_when_no_dish_is_left() -> None:
    state = kitchen()
    trash_dishes(state, 1, list(state.supply))
    state.players[0].stove.heat = 2
    state.players[0].stove.pan[PEPPER], state.dispensers[PEPPER].pieces = 2, 13
    state.players[0].stove.pan[LEMON], state.dispensers[LEMON].pieces = 1, 14
    state, _ = roll(state, FACE_PLUS1)
    assert not state.core.game_over and ENGINE.legal_actions(state) == [L.crepe]


def test_end_highest_points_wins_and_ties_share() -> None:
    state = kitchen(num_players=3, dishes=(HIPPO, OCTOPUS, 12))
    _tray(state, 1, [9])  # 7 points
    _tray(state, 2, [19])  # 8 points
    _tray(state, 0, [16, 7])  # 3 + 4 points
    state.players[0].victory_cups = 1  # and 1: 8, tied with seat 2
    state.tray[0] -= 1
    state.core.game_over, state.core.seat_to_move = True, -1
    state.end, state.ended_by = pb.GAME_END_FIVE_DISHES, 0
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert [r.score for r in outcome.results] == [8, 7, 8]
    assert [r.rank for r in outcome.results] == [1, 3, 1]
    assert [r.winner for r in outcome.results] == [True, False, True]


def test_end_points_count_dishes_crepe_and_victory_cups() -> None:
    state = kitchen()
    _tray(state, 1, [9])
    state.players[1].crepe = pb.CREPE_STATUS_FINISHED
    state.players[1].victory_cups = 2
    state.tray[0] -= 2
    assert ENGINE.view(state, -1).players[1].points == 7 + CONTENT.crepe.points + 2
