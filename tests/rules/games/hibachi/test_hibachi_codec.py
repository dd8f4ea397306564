"""The action codec: every choice has an id, ids and structured actions convert exactly, and the
one-id legality check agrees with the listed legal ids."""

from __future__ import annotations

import random

from services.rules.games.hibachi.content import LAYOUT, SPACES
from services.rules.games.hibachi.legal import is_legal
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb
from tests.rules.games.hibachi.hibachi_builders import ENGINE, new_table

L = LAYOUT


def test_every_id_round_trips_through_its_structured_action() -> None:
    state = new_table(players=4)
    kinds = set()
    for action_id in range(L.size):
        action = ENGINE.id_to_action(state, 0, action_id)
        kinds.add(action.WhichOneof("kind"))
        assert ENGINE.action_to_id(state, 0, action) == action_id
        assert ENGINE.describe_action(state, 0, action)
    assert kinds == {f.name for f in pb.Action.DESCRIPTOR.oneofs_by_name["kind"].fields}


def test_layout_has_one_id_per_choice() -> None:
    # throw (chip x space), buy/sell/bonus (chip x kind), place (chip x chip x space), reserve, head chef,
    # cook (chip x recipe x no chili or chili for one of three), do nothing.
    assert L.size == 4 * 14 + 3 * 4 * 10 + 4 * 4 * 14 + 4 + 4 + 4 * 18 * 4 + 4 == ENGINE.spec.num_distinct_actions


def test_ids_aim_at_space_centres_and_other_points_have_no_id() -> None:
    state = new_table(players=2)
    for space in SPACES:
        throw = pb.Action(throw=pb.Throw(chip_value=100, aim_x=space.centre_x, aim_y=space.centre_y))
        assert ENGINE.action_to_id(state, 0, throw) == L.throw(0, space.id)
        throw.throw.aim_x += 1e-9
        assert ENGINE.action_to_id(state, 0, throw) is None


def test_actions_no_id_expresses_map_to_none() -> None:
    state = new_table(players=2)
    assert ENGINE.action_to_id(state, 0, pb.Action()) is None
    assert ENGINE.action_to_id(state, 0, pb.Action(do_nothing=pb.DoNothing(chip_value=300))) is None
    assert ENGINE.action_to_id(state, 0, pb.Action(buy=pb.Buy(chip_value=100))) is None
    cook = pb.Cook(chip_value=100, recipe=0, chili_for=pb.INGREDIENT_SHRIMP)  # fried rice has no shrimp
    assert ENGINE.action_to_id(state, 0, pb.Action(cook=cook)) is None
    assert ENGINE.action_to_id(state, 0, pb.Action(cook=pb.Cook(chip_value=100, recipe=18))) is None


def test_checking_one_id_agrees_with_the_legal_list() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        state = ENGINE.new_game(2 + seed % 3, {}, seed)
        while not state.core.game_over:
            ids = set(ENGINE.legal_actions(state))
            if rng.random() < 0.2:
                assert {a for a in range(L.size) if is_legal(state, a)} == ids
                checked += 1
            ENGINE.apply(state, state.core.seat_to_move, rng.choice(sorted(ids)))
    assert checked > 100
