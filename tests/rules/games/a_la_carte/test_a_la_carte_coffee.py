"""Coffee breaks: any number a turn, one cup each, free of spoons (none after three spoons), and each
cup's effect (a re-season cup tips up to three times onto one dish)."""

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


def test_coffee_breaks_any_number_a_turn_one_cup_each() -> None:
    state = kitchen()
    give_cup(state, 0, LOWER, 2)
    give_cup(state, 0, SWAP)
    state.players[0].stove.heat = 5
    ENGINE.apply(state, 0, pb.Action(lower_heat=pb.LowerHeat(amount=1)))
    assert state.players[0].cups[LOWER] == 1 and state.players[0].stove.heat == 4
    assert L.lower_base in _coffee_ids(state) and L.swap_base in _coffee_ids(state), "more cups, more breaks"
    ENGINE.apply(state, 0, pb.Action(lower_heat=pb.LowerHeat(amount=2)))
    ENGINE.apply(state, 0, pb.Action(swap_stoves=pb.SwapStoves(seat=1)))
    assert state.players[1].stove.heat == 2 and state.players[0].stove.dish == OCTOPUS
    assert state.players[0].cups[LOWER] == state.players[0].cups[SWAP] == 0 and _coffee_ids(state) == []
    assert state.actions_left == 3, "coffee breaks cost no action"


def test_coffee_breaks_before_three_spoons_are_allowed() -> None:
    state = kitchen()
    give_cup(state, 0, LOWER)
    give_cup(state, 0, SPOONS)
    state.players[0].stove.heat = 2
    ENGINE.apply(state, 0, pb.Action(lower_heat=pb.LowerHeat(amount=1)))
    assert L.spoons in _coffee_ids(state)
    ENGINE.apply(state, 0, pb.Action(three_spoons=pb.ThreeSpoons()))
    assert state.actions_left == 6 and state.three_spoons_taken


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
    give_cup(state, 0, SPOONS, 2)
    give_cup(state, 0, LOWER)
    state.players[0].stove.heat = 1
    ENGINE.apply(state, 0, pb.Action(three_spoons=pb.ThreeSpoons()))
    assert state.actions_left == 6
    assert _coffee_ids(state) == [], "no other cup this turn, not even the second three spoons"
    state, _ = roll(state, FACE_PLUS1)
    assert _coffee_ids(state) == [], "for the rest of the turn"


def test_three_spoons_also_closes_the_rescue_of_a_burnt_dish() -> None:
    state = kitchen()
    give_cup(state, 0, SPOONS)
    give_cup(state, 0, LOWER)
    put_dish(state, 0, HIPPO, heat=5, pan={PEPPER: 1, LEMON: 1})  # burns at 6
    ENGINE.apply(state, 0, pb.Action(three_spoons=pb.ThreeSpoons()))
    after, _ = roll(state, FACE_PLUS1)
    assert after.trash[:] == [HIPPO] and after.phase == pb.PHASE_CHOOSE_DISH, "no lower-heat cup after spoons"


def _reseason(seat: int, dispenser: int) -> pb.Action:
    return pb.Action(reseason=pb.Reseason(seat=seat, dispenser=dispenser))


def test_reseason_tips_any_dispenser_over_another_players_dish() -> None:
    state = kitchen()  # seat 1 cooks Octopus (pepper 2); lemon is not on its recipe
    give_cup(state, 0, RESEASON)
    action = _reseason(1, pb.CONDIMENT_LEMON)
    after, _ = force(state, action, lambda s: s.players[1].stove.pan[LEMON] == 1)
    assert after.actions_left == 3 and after.players[0].stove.pan[LEMON] == 0


def test_reseason_one_cup_tips_three_times_any_condiments_onto_one_dish() -> None:
    state = kitchen(num_players=3, dishes=(HIPPO, OCTOPUS, CHAMOIS))
    give_cup(state, 0, RESEASON)
    tray = state.tray[RESEASON]
    ENGINE.apply(state, 0, _reseason(1, pb.CONDIMENT_LEMON))
    assert state.players[0].cups[RESEASON] == 0 and state.tray[RESEASON] == tray + 1, "one cup"
    assert state.reseasoning.seat == 1 and state.reseasoning.tips_left == 2
    seat1 = [L.reseason_base + d for d in range(4)]
    seat2 = [L.reseason_base + 4 + d for d in range(4)]
    assert set(seat1) <= set(_coffee_ids(state)), "the next tip, from any dispenser, costs no cup"
    assert not set(seat2) & set(_coffee_ids(state)), "onto the same dish only"
    ENGINE.apply(state, 0, _reseason(1, pb.CONDIMENT_HERBS))
    assert state.reseasoning.tips_left == 1
    ENGINE.apply(state, 0, _reseason(1, pb.CONDIMENT_PAPRIKA))
    assert not state.HasField("reseasoning") and _coffee_ids(state) == [], "three tips, and the cup is spent"
    assert state.actions_left == 3 and state.tray[RESEASON] == tray + 1


def test_reseason_ends_when_its_owner_does_anything_else() -> None:
    state = kitchen()
    give_cup(state, 0, RESEASON)
    ENGINE.apply(state, 0, _reseason(1, pb.CONDIMENT_LEMON))
    assert state.HasField("reseasoning")
    state, _ = roll(state, FACE_PLUS1)
    assert not state.HasField("reseasoning") and _coffee_ids(state) == []


def test_reseason_a_second_cup_starts_afresh() -> None:
    state = kitchen(num_players=3, dishes=(HIPPO, OCTOPUS, CHAMOIS))
    give_cup(state, 0, RESEASON, 2)
    ENGINE.apply(state, 0, _reseason(1, pb.CONDIMENT_LEMON))
    ENGINE.apply(state, 0, _reseason(1, pb.CONDIMENT_LEMON))
    assert state.players[0].cups[RESEASON] == 1, "the next tip onto the same dish is the cup in use"
    ENGINE.apply(state, 0, _reseason(2, pb.CONDIMENT_LEMON))
    assert state.players[0].cups[RESEASON] == 0, "another dish takes the second cup"
    assert state.reseasoning.seat == 2 and state.reseasoning.tips_left == 2


def test_reseason_the_view_shows_the_cup_in_use() -> None:
    state = kitchen()
    give_cup(state, 0, RESEASON)
    ENGINE.apply(state, 0, _reseason(1, pb.CONDIMENT_LEMON))
    view = ENGINE.view(state, 1)
    assert view.reseasoning.seat == 1 and view.reseasoning.tips_left == 2
    assert "again" in ENGINE.describe_action(state, 0, _reseason(1, pb.CONDIMENT_PEPPER))


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
