"""Finished dishes (tray, points, stars for perfect ones), spoiled dishes (burnt, over-seasoned,
over-salted; trashed only on the owner's turn), and choosing the next dish."""

from __future__ import annotations

from services.rules.games.a_la_carte.content import DISHES
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb
from tests.rules.games.a_la_carte.scenario import (
    BREAKFAST_FIDEL,
    CHAMOIS,
    CUCUMBER,
    ENGINE,
    FACE_ALL,
    FACE_CUP,
    FACE_PLUS1,
    FACE_PLUS2,
    FACE_PLUS3,
    HERBS,
    HIPPO,
    KIPPER,
    LEMON,
    LOWER,
    OCTOPUS,
    PAPRIKA,
    PEPPER,
    RESEASON,
    TONGUE,
    WEISSWURST,
    L,
    force,
    give_cup,
    kitchen,
    put_dish,
    roll,
    texts,
    trash_dishes,
)


def _serve_hippo(pan: dict[int, int], salt: int = 0) -> tuple[pb.State, list]:
    state = kitchen()
    put_dish(state, 0, HIPPO, heat=2, pan=pan, salt=salt)
    return roll(state, FACE_PLUS1)


def test_finished_dish_goes_to_the_tray_and_scores() -> None:
    state, events = _serve_hippo({PEPPER: 2, LEMON: 1, HERBS: 1})
    me = state.players[0]
    assert list(me.finished) == [HIPPO] and ENGINE.view(state, 0).players[0].points == 6
    assert me.stove.dish == -1 and state.phase == pb.PHASE_CHOOSE_DISH
    assert "serves Hippo in Burgundy" in texts(events)


def test_finished_needs_heat_in_the_green_range() -> None:
    state = kitchen()
    put_dish(state, 0, HIPPO, heat=1, pan={PEPPER: 2, LEMON: 1})
    after, _ = roll(state, FACE_PLUS1)
    assert after.players[0].stove.dish == HIPPO and not after.players[0].finished


def test_finished_needs_every_condiment_of_the_recipe() -> None:
    state = kitchen()
    put_dish(state, 0, HIPPO, heat=2, pan={PEPPER: 1, LEMON: 1})
    after, _ = roll(state, FACE_PLUS1)
    assert after.players[0].stove.dish == HIPPO and not after.players[0].finished


def test_finished_cold_dish_needs_no_heat() -> None:
    state = kitchen(dishes=(CUCUMBER, OCTOPUS))
    put_dish(state, 0, CUCUMBER, pan={HERBS: 1})
    after, _ = force(state, L.season_base + HERBS, lambda s: s.players[0].stars == 1)
    assert after.players[0].finished[:] == [CUCUMBER], "two herbs, no salt, heat 0 in range: perfect"


def test_finished_dish_condiments_go_to_the_sink() -> None:
    state, _ = _serve_hippo({PEPPER: 2, LEMON: 1}, salt=1)
    assert state.sink[PEPPER] == 2 and state.sink[LEMON] == 1 and state.sink_salt == 1


def test_perfect_dish_earns_a_star() -> None:
    state, events = _serve_hippo({PEPPER: 2, LEMON: 1})
    assert state.players[0].stars == 1 and state.stars_left == 8
    assert "a star" in texts(events)


def test_perfect_needs_no_salt() -> None:
    state, _ = _serve_hippo({PEPPER: 2, LEMON: 1}, salt=1)
    assert state.players[0].finished[:] == [HIPPO] and state.players[0].stars == 0


def test_perfect_needs_the_exact_condiments() -> None:
    state, _ = _serve_hippo({PEPPER: 2, LEMON: 2})
    assert state.players[0].finished[:] == [HIPPO] and state.players[0].stars == 0


def test_unseasoned_dish_never_earns_a_star() -> None:
    state = kitchen(dishes=(BREAKFAST_FIDEL, OCTOPUS))
    put_dish(state, 0, BREAKFAST_FIDEL, heat=1)
    after, _ = roll(state, FACE_PLUS1)
    assert after.players[0].finished[:] == [BREAKFAST_FIDEL] and after.players[0].stars == 0


def test_spoiled_burnt_dish_goes_to_the_trash() -> None:
    state = kitchen()
    put_dish(state, 0, HIPPO, heat=4, pan={PEPPER: 1})
    after, events = roll(state, FACE_PLUS2)
    assert list(after.trash) == [HIPPO] and not after.players[0].finished
    assert after.sink[PEPPER] == 1, "its condiments go into the sink"
    assert after.phase == pb.PHASE_CHOOSE_DISH and "burnt" in texts(events)


def test_spoiled_three_of_a_colour_is_over_seasoned() -> None:
    state = kitchen()
    put_dish(state, 0, HIPPO, heat=0, pan={LEMON: 1})
    after, events = force(state, L.season_base + LEMON, lambda s: list(s.trash) == [HIPPO])
    assert "over-seasoned" in texts(events)


def test_spoiled_three_salt_is_over_seasoned() -> None:
    state = kitchen()
    put_dish(state, 0, HIPPO, heat=0, salt=2)
    after, _ = force(state, L.season_base + PEPPER, lambda s: list(s.trash) == [HIPPO])
    assert after.sink_salt >= 3


def test_spoiled_dish_stays_in_the_pan_until_its_owners_turn() -> None:
    state = kitchen()
    put_dish(state, 1, OCTOPUS, heat=1, pan={PEPPER: 2})
    give_cup(state, 0, RESEASON)
    reseason = pb.Action(reseason=pb.Reseason(seat=1, dispenser=pb.CONDIMENT_PEPPER))
    after, _ = force(state, reseason, lambda s: s.players[1].stove.pan[PEPPER] >= 3)
    assert after.players[1].stove.dish == OCTOPUS and not after.trash, "not on another player's turn"
    for _ in range(3):
        after, _ = roll(after, FACE_CUP)
    assert after.core.seat_to_move == 1
    assert list(after.trash) == [OCTOPUS], "trashed when its owner's turn begins"
    assert after.phase == pb.PHASE_CHOOSE_DISH


def test_spoiled_by_every_stove_face_waits_for_the_owner() -> None:
    state = kitchen()
    put_dish(state, 1, OCTOPUS, heat=5)  # burns at 6
    after, _ = roll(state, FACE_ALL)
    assert after.players[1].stove.heat == 6 and after.players[1].stove.dish == OCTOPUS


def test_spoiled_burnt_dish_can_first_be_cooled_with_a_lower_heat_cup() -> None:
    state = kitchen()
    put_dish(state, 0, HIPPO, heat=4, pan={PEPPER: 2, LEMON: 1})
    give_cup(state, 0, LOWER)
    after, _ = roll(state, FACE_PLUS2)
    assert after.phase == pb.PHASE_SPOILED and after.players[0].stove.heat == 6
    assert ENGINE.legal_actions(after) == [L.lower_base, L.lower_base + 1, L.lower_base + 2, L.trash]
    ENGINE.apply(after, 0, pb.Action(lower_heat=pb.LowerHeat(amount=2)))
    # Back in the green range with every condiment: served, and perfect.
    assert after.players[0].finished[:] == [HIPPO] and after.players[0].stars == 1


def test_spoiled_dish_cooled_too_little_still_goes_to_the_trash() -> None:
    state = kitchen()
    put_dish(state, 0, TONGUE, heat=3)  # heat 2-3, burnt at 4
    give_cup(state, 0, LOWER)
    after, _ = roll(state, FACE_PLUS3)
    assert after.phase == pb.PHASE_SPOILED
    ENGINE.apply(after, 0, pb.Action(lower_heat=pb.LowerHeat(amount=1)))
    assert list(after.trash) == [TONGUE]


def test_spoiled_over_seasoned_dish_cannot_be_rescued() -> None:
    state = kitchen()
    put_dish(state, 0, HIPPO, heat=6, pan={PEPPER: 1, LEMON: 1}, salt=2)  # burnt, and salty
    give_cup(state, 0, LOWER)
    after, _ = force(state, L.season_base + PEPPER, lambda s: s.trash[:] == [HIPPO] and s.sink_salt == 3)
    assert after.phase == pb.PHASE_CHOOSE_DISH


def test_next_dish_is_of_a_colour_not_finished_yet() -> None:
    state, _ = _serve_hippo({PEPPER: 2, LEMON: 1})  # orange finished
    offered = [a - L.dish_base for a in ENGINE.legal_actions(state) if L.dish_base <= a < L.crepe]
    assert offered and all(DISHES[d].color != pb.DISH_COLOR_ORANGE for d in offered)
    assert WEISSWURST in state.supply and WEISSWURST not in offered
    assert L.crepe in ENGINE.legal_actions(state), "the crepe may be chosen instead"


def test_next_dish_of_any_colour_when_no_unfinished_colour_is_left() -> None:
    state = kitchen()
    put_dish(state, 0, HIPPO, heat=2, pan={PEPPER: 2, LEMON: 1})
    # Only orange dishes are left in the supply: everything else is in the trash.
    keep = [d for d in state.supply if DISHES[d].color == pb.DISH_COLOR_ORANGE]
    trash_dishes(state, 1, [d for d in state.supply if d not in keep])
    after, _ = roll(state, FACE_PLUS1)
    offered = [a - L.dish_base for a in ENGINE.legal_actions(after) if L.dish_base <= a < L.crepe]
    assert offered == keep


def test_next_dish_knob_resets_and_costs_no_action() -> None:
    state, _ = _serve_hippo({PEPPER: 2, LEMON: 1})
    assert state.actions_left == 2
    ENGINE.apply(state, 0, pb.Action(choose_dish=pb.ChooseDish(dish=CHAMOIS)))
    me = state.players[0].stove
    assert me.dish == CHAMOIS and me.heat == 0 and not any(me.pan) and me.salt == 0
    assert state.phase == pb.PHASE_ACTIONS and state.actions_left == 2 and state.core.seat_to_move == 0


def test_next_dish_after_the_last_action_then_the_turn_passes() -> None:
    state = kitchen()
    put_dish(state, 0, KIPPER, heat=0, pan={LEMON: 1, HERBS: 1})
    state.actions_left = 1
    after, _ = roll(state, FACE_PLUS1)
    assert after.phase == pb.PHASE_CHOOSE_DISH and after.core.seat_to_move == 0
    ENGINE.apply(after, 0, L.dish_base + CHAMOIS)
    assert after.core.seat_to_move == 1 and after.phase == pb.PHASE_ACTIONS


def test_finished_by_another_players_roll_is_served_on_the_owners_turn() -> None:
    state = kitchen()
    put_dish(state, 1, OCTOPUS, heat=2, pan={PEPPER: 2})
    after, _ = roll(state, FACE_ALL)
    assert after.players[1].stove.dish == OCTOPUS, "not served on another player's turn"
    for _ in range(2):
        after, _ = roll(after, FACE_CUP)
    assert after.core.seat_to_move == 1 and after.players[1].finished[:] == [OCTOPUS]
    assert after.phase == pb.PHASE_CHOOSE_DISH


def test_paprika_index_is_the_first_dispenser() -> None:
    assert PAPRIKA == 0


def _offered(state: pb.State) -> list[int]:
    return [a - L.dish_base for a in ENGINE.legal_actions(state) if L.dish_base <= a < L.crepe]


def _colors(dishes: list[int]) -> set[int]:
    return {DISHES[d].color for d in dishes}


def test_trashed_dish_is_recorded_for_its_chef() -> None:
    state = kitchen()
    put_dish(state, 0, HIPPO, heat=4, pan={PEPPER: 1})
    after, _ = roll(state, FACE_PLUS2)
    assert after.players[0].trashed[:] == [HIPPO] and not after.players[1].trashed
    assert ENGINE.view(after, 1).players[0].trashed[:] == [HIPPO]


def test_next_dish_after_a_trashed_dish_is_of_a_colour_neither_finished_nor_trashed() -> None:
    state = kitchen()
    state.supply.remove(KIPPER)
    state.players[0].finished.append(KIPPER)  # white finished before
    put_dish(state, 0, HIPPO, heat=4, pan={PEPPER: 1})  # orange, about to burn
    after, _ = roll(state, FACE_PLUS2)
    assert after.trash[:] == [HIPPO] and after.after_trash
    offered = _offered(after)
    assert offered and not _colors(offered) & {pb.DISH_COLOR_WHITE, pb.DISH_COLOR_ORANGE}
    assert WEISSWURST in after.supply and TONGUE in after.supply
    assert L.crepe in ENGINE.legal_actions(after), "the crepe has no colour and may replace the dish"
    ENGINE.apply(after, 0, L.dish_base + CHAMOIS)
    assert not after.after_trash


def test_next_dish_after_a_trashed_dish_counts_every_colour_trashed_before() -> None:
    state = kitchen()
    trash_dishes(state, 0, [KIPPER])  # a white dish trashed earlier in the game
    put_dish(state, 0, HIPPO, heat=0, pan={LEMON: 1})
    after, _ = force(state, L.season_base + LEMON, lambda s: s.trash[-1:] == [HIPPO])
    assert not _colors(_offered(after)) & {pb.DISH_COLOR_WHITE, pb.DISH_COLOR_ORANGE}


def test_next_dish_after_a_finished_dish_may_be_of_a_trashed_colour() -> None:
    state = kitchen()
    trash_dishes(state, 0, [KIPPER])  # white trashed, never finished
    put_dish(state, 0, HIPPO, heat=2, pan={PEPPER: 2, LEMON: 1})
    after, _ = roll(state, FACE_PLUS1)
    assert after.players[0].finished[:] == [HIPPO] and not after.after_trash
    colors = _colors(_offered(after))
    assert pb.DISH_COLOR_WHITE in colors and pb.DISH_COLOR_ORANGE not in colors


def test_next_dish_after_a_trashed_dish_of_any_colour_when_no_unused_colour_is_left() -> None:
    state = kitchen()
    put_dish(state, 0, HIPPO, heat=4, pan={PEPPER: 1})
    keep = [d for d in state.supply if DISHES[d].color == pb.DISH_COLOR_ORANGE]
    trash_dishes(state, 1, [d for d in state.supply if d not in keep])
    after, _ = roll(state, FACE_PLUS2)
    assert _offered(after) == keep


def test_next_dish_after_a_burnt_crepe_is_of_a_colour_neither_finished_nor_trashed() -> None:
    state = kitchen()
    trash_dishes(state, 0, [KIPPER])
    put_dish(state, 0, HIPPO, heat=2, pan={PEPPER: 2, LEMON: 1})
    state, _ = roll(state, FACE_PLUS1)  # orange finished
    ENGINE.apply(state, 0, pb.Action(place_crepe=pb.PlaceCrepe()))
    while state.core.seat_to_move != 0:
        state, _ = roll(state, FACE_CUP)
    state.players[0].stove.heat = 6
    state, _ = roll(state, FACE_PLUS1)
    assert state.players[0].crepe == pb.CREPE_STATUS_BURNT and state.after_trash
    assert not _colors(_offered(state)) & {pb.DISH_COLOR_WHITE, pb.DISH_COLOR_ORANGE}
