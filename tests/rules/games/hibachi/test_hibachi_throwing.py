"""Step 1, throwing chips: turn order, how many chips, the aim, pushes, the raised edge, face-up
landings, hidden values, and which spaces a chip is on."""

from __future__ import annotations

import math

import pytest

from services.rules.games.hibachi.content import BOARD, CONTENT, LAYOUT
from services.rules.games.hibachi.geometry import CHIP_DIAMETER, HOLE_RADIUS, spaces_of, spaces_under_hole
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb
from tests.rules.games.hibachi.hibachi_builders import (
    ENGINE,
    action_space,
    centre,
    chip,
    exact_thrower,
    ingredient_space,
    legal,
    new_table,
    plain_grill,
    put_chip,
    throw_at,
    v,
)

EGG_SPACE = ingredient_space(pb.INGREDIENT_EGG)
RICE_SPACE = ingredient_space(pb.INGREDIENT_RICE)
NOODLES_SPACE = ingredient_space(pb.INGREDIENT_NOODLES)
BEEF_SPACE = ingredient_space(pb.INGREDIENT_BEEF)
BONUS_SPACE = action_space(pb.SPACE_KIND_BONUS_INGREDIENT)


def test_throwing_goes_round_the_table_from_the_head_chef() -> None:
    state = new_table(players=3, head_chef=2)
    order = []
    for _ in range(6):
        seat = state.core.seat_to_move
        order.append(seat)
        ENGINE.apply(state, seat, legal(state)[0])
    assert order == [2, 0, 1, 2, 0, 1]


@pytest.mark.parametrize(("players", "chips_each"), [(2, 4), (3, 4), (4, 3)])
def test_chips_thrown_per_round_depend_on_player_count(players: int, chips_each: int) -> None:
    state = new_table(players=players, head_chef=0)
    throws = 0
    while state.phase == pb.PHASE_THROWING:
        ENGINE.apply(state, state.core.seat_to_move, legal(state)[0])
        throws += 1
    assert throws == players * chips_each
    for seat in range(players):
        thrown = [c for c in state.chips if c.owner == seat and c.status != pb.CHIP_STATUS_IN_SUPPLY]
        assert len(thrown) == chips_each


def test_four_player_chefs_keep_one_chip_in_the_supply() -> None:
    state = new_table(players=4, head_chef=0)
    while state.phase == pb.PHASE_THROWING:
        ENGINE.apply(state, state.core.seat_to_move, legal(state)[-1])
    for seat in range(4):
        kept = [c for c in state.chips if c.owner == seat and c.status == pb.CHIP_STATUS_IN_SUPPLY]
        assert len(kept) == 1


def test_thrower_chooses_which_chip_to_throw() -> None:
    state = new_table(players=2, head_chef=0)
    assert {(a - LAYOUT.throw_base) // LAYOUT.spaces for a in legal(state)} == {0, 1, 2, 3}
    throw_at(state, 0, 400, *centre(EGG_SPACE))
    throw_at(state, 1, 100, *centre(EGG_SPACE))
    assert {(a - LAYOUT.throw_base) // LAYOUT.spaces for a in legal(state)} == {v(100), v(200), v(600)}
    assert chip(state, 0, 400).status in (pb.CHIP_STATUS_ON_BOARD, pb.CHIP_STATUS_INVALID)


def test_action_id_aims_at_the_centre_of_a_space() -> None:
    state = new_table(players=2)
    action = ENGINE.id_to_action(state, 0, LAYOUT.throw(v(200), EGG_SPACE))
    assert (action.throw.chip_value, action.throw.aim_x, action.throw.aim_y) == (200, *centre(EGG_SPACE))
    assert ENGINE.action_to_id(state, 0, action) == LAYOUT.throw(v(200), EGG_SPACE)


def test_a_person_may_aim_at_any_point_of_the_board() -> None:
    state = new_table(players=2)
    aim = pb.Action(throw=pb.Throw(chip_value=200, aim_x=261.5, aim_y=170.25))
    assert ENGINE.action_to_id(state, 0, aim) is None
    exact_thrower(state, 0)
    ENGINE.apply(state, 0, aim)
    thrown = chip(state, 0, 200)
    assert (thrown.x, thrown.y) == (261.5, 170.25)
    # Even onto the raised edge itself (it will be invalid), but not off the board.
    ENGINE.apply(state, 1, pb.Action(throw=pb.Throw(chip_value=100, aim_x=3.0, aim_y=3.0)))
    for bad in ((-1.0, 50.0), (50.0, BOARD.height + 1), (math.nan, 10.0), (math.inf, 10.0)):
        before = state.SerializeToString()
        with pytest.raises(Exception) as error:
            ENGINE.apply(state, 0, pb.Action(throw=pb.Throw(chip_value=400, aim_x=bad[0], aim_y=bad[1])))
        assert getattr(error.value, "reason_name", "") == "ILLEGAL_ACTION"
        assert state.SerializeToString() == before


def test_a_chip_already_thrown_cannot_be_thrown_again() -> None:
    state = new_table(players=2)
    throw_at(state, 0, 400, *centre(EGG_SPACE))
    throw_at(state, 1, 400, *centre(RICE_SPACE))
    with pytest.raises(Exception) as error:
        throw_at(state, 0, 400, *centre(EGG_SPACE))
    assert error.value.reason_name == "ILLEGAL_ACTION"


def test_throw_lands_around_the_aim_with_the_seats_spread() -> None:
    state = new_table(players=2, seat_skills="expert,novice")
    throw_at(state, 0, 100, *centre(EGG_SPACE))
    thrown = chip(state, 0, 100)
    # Ten standard deviations would be absurd: the landing is drawn around the aim.
    assert math.dist((thrown.x, thrown.y), centre(EGG_SPACE)) < 10 * state.players[0].throw_spread
    assert state.players[1].throw_spread > state.players[0].throw_spread


def test_chip_is_on_every_space_that_reaches_into_its_hole() -> None:
    state = new_table(players=2)
    rice_x, rice_y = centre(RICE_SPACE)
    noodles_x, _ = centre(NOODLES_SPACE)
    gap_x = (rice_x + noodles_x) / 2  # the hole straddles the gap between two spaces
    on_both = put_chip(state, 0, 100, gap_x, rice_y)
    assert spaces_of(on_both.space_bits) == tuple(sorted([RICE_SPACE, NOODLES_SPACE]))
    # Between two rows, over the 16 mm gap: the borders of both show through an 18 mm hole.
    beef_y = centre(BEEF_SPACE)[1]
    assert sorted(spaces_under_hole(rice_x, (rice_y + beef_y) / 2)) == sorted([RICE_SPACE, BEEF_SPACE])
    # The plain grill between the corners is no space at all.
    assert spaces_under_hole(*plain_grill()) == []


def test_chip_is_not_on_a_space_its_hole_does_not_reach() -> None:
    rice = CONTENT.board.spaces[RICE_SPACE]
    top_edge = rice.centre_y - rice.half_height
    assert spaces_under_hole(rice.centre_x, top_edge - HOLE_RADIUS + 0.01) == [RICE_SPACE]
    assert spaces_under_hole(rice.centre_x, top_edge - HOLE_RADIUS - 0.01) == []
    # Near a rounded corner the reach is measured to the curve, not to the box around it.
    r = rice.corner_radius
    corner_x, corner_y = rice.centre_x + rice.half_width - r, rice.centre_y + rice.half_height - r
    diagonal = (r + HOLE_RADIUS + 0.5) / math.sqrt(2)
    assert RICE_SPACE not in spaces_under_hole(corner_x + diagonal, corner_y + diagonal)


def test_chip_whose_centre_lands_beyond_the_raised_edge_is_invalid() -> None:
    state = new_table(players=2)
    exact_thrower(state, 0)
    events = ENGINE.apply(state, 0, pb.Action(throw=pb.Throw(chip_value=600, aim_x=10.0, aim_y=200.0)))
    thrown = chip(state, 0, 600)
    assert thrown.status == pb.CHIP_STATUS_INVALID and thrown.space_bits == 0
    assert "invalid" in events[0].text


def test_chip_whose_centre_is_on_top_of_the_raised_edge_is_invalid() -> None:
    state = new_table(players=2)
    exact_thrower(state, 0)
    ENGINE.apply(state, 0, pb.Action(throw=pb.Throw(chip_value=600, aim_x=BOARD.edge_width, aim_y=200.0)))
    assert chip(state, 0, 600).status == pb.CHIP_STATUS_INVALID
    exact_thrower(state, 1)
    ENGINE.apply(state, 1, pb.Action(throw=pb.Throw(chip_value=600, aim_x=BOARD.edge_width + 0.5, aim_y=200.0)))
    assert chip(state, 1, 600).status == pb.CHIP_STATUS_ON_BOARD


def test_landing_chip_pushes_a_chip_it_overlaps() -> None:
    state = new_table(players=2)
    x, y = centre(EGG_SPACE)
    put_chip(state, 1, 400, x, y)
    exact_thrower(state, 0)
    events = throw_at(state, 0, 200, x - 10.0, y)
    pushed = chip(state, 1, 400)
    assert pushed.status == pb.CHIP_STATUS_ON_BOARD
    assert pushed.x > x and pushed.y == pytest.approx(y)  # knocked straight away from the landing chip
    assert math.dist((pushed.x, pushed.y), (x - 10.0, y)) >= CHIP_DIAMETER
    assert any("knocks seat 1's chip" in e.text for e in events)


def test_landing_on_top_of_another_chip_still_counts() -> None:
    state = new_table(players=2)
    x, y = centre(EGG_SPACE)
    put_chip(state, 1, 400, x, y)
    exact_thrower(state, 0)
    throw_at(state, 0, 200, x, y)
    assert chip(state, 0, 200).status == pb.CHIP_STATUS_ON_BOARD
    assert EGG_SPACE in spaces_under_hole(chip(state, 0, 200).x, chip(state, 0, 200).y)
    moved = chip(state, 1, 400)
    assert math.dist((moved.x, moved.y), (x, y)) >= CHIP_DIAMETER


def test_a_pushed_chip_can_be_knocked_onto_the_edge_and_become_invalid() -> None:
    state = new_table(players=2)
    y = 240.0
    put_chip(state, 1, 400, BOARD.edge_width + 20.0, y)
    exact_thrower(state, 0)
    throw_at(state, 0, 200, BOARD.edge_width + 40.0, y)
    assert chip(state, 1, 400).status == pb.CHIP_STATUS_INVALID
    assert chip(state, 0, 200).status == pb.CHIP_STATUS_ON_BOARD


def test_pushes_chain_and_leave_no_chips_overlapping() -> None:
    state = new_table(players=3)
    x, y = 320.0, 240.0
    put_chip(state, 1, 100, x + 40.0, y)
    put_chip(state, 1, 200, x + 85.0, y)
    put_chip(state, 2, 100, x + 40.0, y + 45.0)
    exact_thrower(state, 0)
    throw_at(state, 0, 600, x, y)
    on_board = [c for c in state.chips if c.status == pb.CHIP_STATUS_ON_BOARD]
    assert len(on_board) == 4
    for i, a in enumerate(on_board):
        for b in on_board[i + 1 :]:
            assert math.dist((a.x, a.y), (b.x, b.y)) >= CHIP_DIAMETER
    assert chip(state, 1, 200).x > x + 85.0  # the first chip pushed the next one along
    ENGINE.check_invariants(state)


def _first_face_up_seed() -> int:
    for seed in range(500):
        state = new_table(players=2, seed=seed)
        throw_at(state, 0, 400, *centre(EGG_SPACE))
        if chip(state, 0, 400).face_up:
            return seed
    raise AssertionError("no face-up landing in 500 seeds")


def test_face_down_chip_value_is_hidden_from_others_but_not_its_owner() -> None:
    for seed in range(50):
        state = new_table(players=2, seed=seed)
        throw_at(state, 0, 400, *centre(EGG_SPACE))
        if not chip(state, 0, 400).face_up:
            break
    thrown = [c for c in ENGINE.view(state, 1).chips if c.owner == 0 and c.arrival == 0][0]
    assert not thrown.HasField("value") and not thrown.face_up
    assert [c for c in ENGINE.view(state, -1).chips if c.arrival == 0][0].HasField("value") is False
    own = [c for c in ENGINE.view(state, 0).chips if c.owner == 0 and c.arrival == 0][0]
    assert own.value == 400
    # Nor does the view's order give it away: chips in the supply are listed after, all alike.
    supply = [c for c in ENGINE.view(state, 1).chips if c.owner == 0 and c.status == pb.CHIP_STATUS_IN_SUPPLY]
    assert len(supply) == 3 and all(c == supply[0] for c in supply)


def test_chip_landing_face_up_shows_its_value_to_everyone() -> None:
    state = new_table(players=2, seed=_first_face_up_seed())
    throw_at(state, 0, 400, *centre(EGG_SPACE))
    for seat in (-1, 1):
        thrown = [c for c in ENGINE.view(state, seat).chips if c.arrival == 0][0]
        assert thrown.face_up and thrown.value == 400


def test_throw_events_keep_the_value_secret_unless_face_up() -> None:
    for seed in range(50):
        state = new_table(players=2, seed=seed)
        events = throw_at(state, 0, 600, *centre(EGG_SPACE))
        if not chip(state, 0, 600).face_up:
            assert "600" not in events[0].text
            assert "600" in events[0].secret_text and events[0].secret_seat == 0
            return
    raise AssertionError("every throw landed face up")
