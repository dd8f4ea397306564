"""The three ends of the game (a fifth finished dish, a third star, no dish to place) and the ranking
(highest points, ties shared; a third star wins outright)."""

from __future__ import annotations

from services.rules.games.a_la_carte.content import CONTENT
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb
from tests.rules.games.a_la_carte.scenario import (
    ENGINE,
    FACE_PLUS1,
    HIPPO,
    LEMON,
    OCTOPUS,
    PEPPER,
    L,
    kitchen,
    put_dish,
    roll,
)

BLUE_AND_MORE = [9, 10, 16, 17]  # four dishes for a tray: 7 + 6 + 3 + 4 points


def _tray(state: pb.State, seat: int, dishes: list[int]) -> None:
    for dish in dishes:
        state.supply.remove(dish)
        state.players[seat].finished.append(dish)


def test_end_fifth_finished_dish_ends_the_game() -> None:
    state = kitchen()
    _tray(state, 0, BLUE_AND_MORE)
    put_dish(state, 0, HIPPO, heat=2, pan={PEPPER: 2, LEMON: 1}, salt=1)
    state, events = roll(state, FACE_PLUS1)
    assert state.core.game_over and state.end == pb.GAME_END_FIVE_DISHES and state.ended_by == 0
    assert ENGINE.legal_actions(state) == []
    outcome = ENGINE.outcome(state)
    assert outcome.results[0].winner and outcome.results[0].rank == 1
    assert outcome.results[0].score == 7 + 6 + 3 + 4 + 6


def test_end_crepes_count_towards_five_dishes() -> None:
    state = kitchen()
    _tray(state, 0, BLUE_AND_MORE[:3])
    state.players[0].crepe = pb.CREPE_STATUS_FINISHED
    put_dish(state, 0, HIPPO, heat=2, pan={PEPPER: 2, LEMON: 1}, salt=1)
    state, _ = roll(state, FACE_PLUS1)
    assert state.core.game_over and state.end == pb.GAME_END_FIVE_DISHES


def test_end_third_star_ends_the_game_and_wins_it() -> None:
    state = kitchen()
    _tray(state, 1, BLUE_AND_MORE)  # seat 1 has far more points
    state.players[0].stars, state.stars_left = 2, 7
    put_dish(state, 0, HIPPO, heat=2, pan={PEPPER: 2, LEMON: 1})
    state, _ = roll(state, FACE_PLUS1)
    assert state.core.game_over and state.end == pb.GAME_END_THIRD_STAR
    outcome = ENGINE.outcome(state)
    assert [r.rank for r in outcome.results] == [1, 2] and outcome.results[0].winner
    assert outcome.results[0].score < outcome.results[1].score


def test_end_player_who_cannot_place_a_new_dish_ends_the_game() -> None:
    state = kitchen()
    state.players[0].crepe = pb.CREPE_STATUS_BURNT
    state.trash.extend(state.supply)  # every dish left is in the trash
    state.supply[:] = []
    state.players[0].stove.heat = 2
    state.players[0].stove.pan[PEPPER], state.dispensers[PEPPER].pieces = 2, 13
    state.players[0].stove.pan[LEMON], state.dispensers[LEMON].pieces = 1, 14
    assert not state.supply
    state, _ = roll(state, FACE_PLUS1)
    assert state.core.game_over and state.end == pb.GAME_END_NO_DISH_TO_PLACE and state.ended_by == 0


def test_end_unused_crepe_can_still_be_placed_when_no_dish_is_left() -> None:
    state = kitchen()
    state.trash.extend(state.supply)
    state.supply[:] = []
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
