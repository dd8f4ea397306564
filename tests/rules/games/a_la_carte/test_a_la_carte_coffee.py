"""The coffee break: one a turn, free of spoons, and each cup's effect."""

from __future__ import annotations

from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb
from tests.rules.games.a_la_carte.scenario import (
    BREAKFAST_FIDEL,
    CHAMOIS,
    ENGINE,
    FACE_PLUS1,
    HIPPO,
    LEMON,
    LOWER,
    OCTOPUS,
    PEPPER,
    RESEASON,
    SPOONS,
    SWAP,
    VP,
    L,
    force,
    give_cup,
    kitchen,
    put_dish,
    roll,
)


def _coffee_ids(state: pb.State) -> list[int]:
    return [a for a in ENGINE.legal_actions(state) if L.swap_base <= a < L.take_cup_base]


def test_coffee_break_costs_no_action_and_the_cup_goes_back_to_the_tray() -> None:
    state = kitchen()
    give_cup(state, 0, LOWER)
    state.players[0].stove.heat = 2
    tray = state.tray[LOWER]
    ENGINE.apply(state, 0, pb.Action(lower_heat=pb.LowerHeat(amount=1)))
    assert state.actions_left == 3 and state.tray[LOWER] == tray + 1 and state.players[0].cups[LOWER] == 0


def test_coffee_break_only_one_a_turn() -> None:
    state = kitchen()
    give_cup(state, 0, LOWER, 2)
    state.players[0].stove.heat = 3
    ENGINE.apply(state, 0, pb.Action(lower_heat=pb.LowerHeat(amount=1)))
    assert state.coffee_break_taken and _coffee_ids(state) == []
    assert state.players[0].cups[LOWER] == 1


def test_coffee_break_open_again_next_turn() -> None:
    state = kitchen()
    give_cup(state, 0, SPOONS, 2)
    ENGINE.apply(state, 0, L.spoons)
    for _ in range(6):
        state, _ = roll(state, 5)  # cup faces: no heat, the turn runs its six actions
    assert state.core.seat_to_move == 1
    for _ in range(3):
        state, _ = roll(state, 5)
    assert state.core.seat_to_move == 0 and L.spoons in ENGINE.legal_actions(state)


def test_victory_point_cup_counts_one_point_and_cannot_be_stolen() -> None:
    state = kitchen()
    state.tray[VP] -= 1
    state.players[0].victory_cups = 1
    assert ENGINE.view(state, 1).players[0].points == 1
    assert state.players[0].cups[VP] == 0, "it is never held as a cup, so never offered to a thief"


def test_swap_stoves_exchanges_stove_pan_dish_and_heat() -> None:
    state = kitchen()
    put_dish(state, 0, HIPPO, heat=1, pan={LEMON: 1})
    put_dish(state, 1, OCTOPUS, heat=2, pan={PEPPER: 1}, salt=1)
    give_cup(state, 0, SWAP)
    ENGINE.apply(state, 0, pb.Action(swap_stoves=pb.SwapStoves(seat=1)))
    mine, theirs = state.players[0].stove, state.players[1].stove
    assert (mine.dish, mine.heat, mine.pan[PEPPER], mine.salt) == (OCTOPUS, 2, 1, 1)
    assert (theirs.dish, theirs.heat, theirs.pan[LEMON]) == (HIPPO, 1, 1)
    assert state.actions_left == 3


def test_swap_stoves_may_serve_the_taken_dish_at_once() -> None:
    state = kitchen()
    put_dish(state, 1, OCTOPUS, heat=4, pan={PEPPER: 2})  # ready, waiting for its owner's turn
    give_cup(state, 0, SWAP)
    ENGINE.apply(state, 0, pb.Action(swap_stoves=pb.SwapStoves(seat=1)))
    assert state.players[0].finished[:] == [OCTOPUS] and state.phase == pb.PHASE_CHOOSE_DISH


def test_swap_stoves_refused_when_a_dish_is_burnt() -> None:
    state = kitchen(num_players=3, dishes=(HIPPO, OCTOPUS, CHAMOIS))
    give_cup(state, 0, SWAP)
    state.players[1].stove.heat = 6  # Octopus burns at 6
    assert _coffee_ids(state) == [L.swap_base + 1], "only seat 2's stove may be taken"
    state.players[0].stove.heat = 6  # my own Hippo is burnt too
    assert _coffee_ids(state) == []


def test_swap_stoves_refused_when_a_stove_holds_a_crepe() -> None:
    state = kitchen()
    give_cup(state, 0, SWAP)
    other = state.players[1]
    state.supply.append(other.stove.dish)
    state.supply[:] = sorted(state.supply)
    other.stove.dish, other.stove.crepe, other.crepe = -1, True, pb.CREPE_STATUS_IN_PAN
    ENGINE.check_invariants(state)
    assert _coffee_ids(state) == []


def test_three_spoons_adds_three_actions_and_no_further_cup_that_turn() -> None:
    state = kitchen()
    give_cup(state, 0, SPOONS)
    give_cup(state, 0, LOWER)
    state.players[0].stove.heat = 1
    ENGINE.apply(state, 0, pb.Action(three_spoons=pb.ThreeSpoons()))
    assert state.actions_left == 6
    assert _coffee_ids(state) == [], "no other cup this turn"


def test_reseason_tips_any_dispenser_over_another_players_dish() -> None:
    state = kitchen()  # seat 1 cooks Octopus (pepper 2); lemon is not on its recipe
    give_cup(state, 0, RESEASON)
    action = pb.Action(reseason=pb.Reseason(seat=1, dispenser=pb.CONDIMENT_LEMON))
    after, _ = force(state, action, lambda s: s.players[1].stove.pan[LEMON] == 1)
    assert after.actions_left == 3 and after.players[0].stove.pan[LEMON] == 0


def test_reseason_even_when_two_pieces_of_that_condiment_are_in_the_pan() -> None:
    state = kitchen()
    put_dish(state, 1, OCTOPUS, pan={PEPPER: 2})
    give_cup(state, 0, RESEASON)
    per_seat = len(state.dispensers)
    assert L.reseason_base + PEPPER in _coffee_ids(state)
    assert len([a for a in _coffee_ids(state) if L.reseason_base <= a < L.reseason_base + per_seat]) == 4


def _mean_reseason_pour(skills: str) -> float:
    state = kitchen(options={"seat_skills": skills})
    give_cup(state, 0, RESEASON)
    action = pb.Action(reseason=pb.Reseason(seat=1, dispenser=pb.CONDIMENT_PEPPER))
    total = 0
    for counter in range(600):
        trial = pb.State()
        trial.CopyFrom(state)
        trial.core.random.counter = counter
        ENGINE.apply(trial, 0, action)
        total += trial.players[1].stove.pan[PEPPER] + trial.players[1].stove.salt
    return total / 600


def test_reseason_uses_the_acting_seats_skill() -> None:
    # Seat 0 tips; seat 1's skill must not matter.
    assert _mean_reseason_pour("expert,novice") < _mean_reseason_pour("novice,expert")


def test_reseason_not_on_unseasoned_dishes_or_crepes() -> None:
    state = kitchen(dishes=(HIPPO, BREAKFAST_FIDEL))
    give_cup(state, 0, RESEASON)
    assert _coffee_ids(state) == []


def test_lower_heat_by_one_to_three() -> None:
    state = kitchen()
    give_cup(state, 0, LOWER)
    state.players[0].stove.heat = 2
    assert _coffee_ids(state) == [L.lower_base, L.lower_base + 1], "never below zero"
    state.players[0].stove.heat = 5
    assert _coffee_ids(state) == [L.lower_base, L.lower_base + 1, L.lower_base + 2]
    ENGINE.apply(state, 0, pb.Action(lower_heat=pb.LowerHeat(amount=3)))
    assert state.players[0].stove.heat == 2


def test_lower_heat_not_at_zero() -> None:
    state = kitchen()
    give_cup(state, 0, LOWER)
    assert _coffee_ids(state) == []


def test_coffee_break_not_while_choosing_a_dish() -> None:
    state = kitchen()
    put_dish(state, 0, HIPPO, heat=2, pan={PEPPER: 2, LEMON: 1})
    give_cup(state, 0, SPOONS)
    after, _ = roll(state, FACE_PLUS1)
    assert after.phase == pb.PHASE_CHOOSE_DISH and L.spoons not in ENGINE.legal_actions(after)
