"""The flow of turns: what happens after each action of the seat to move, when dishes leave the pan
(finished to the tray, spoiled to the trash, only on their owner's turn), when a new dish is chosen,
when a crepe turn runs, and when the game ends. Every function mutates the state and appends events."""

from __future__ import annotations

from typing import Any

from services.rules.games.a_la_carte.content import (
    CONTENT,
    CUP_KINDS,
    DISHES,
    RECIPES,
    color_name,
    dish_name,
)
from services.rules.games.a_la_carte.kitchen import (
    clear_stove,
    finished_count,
    is_burnt,
    is_finished,
    is_overseasoned,
    is_perfect,
    is_spoiled,
    recipe_of,
    refill_dispensers,
)
from sizzle.common.v1 import common_pb2
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb

LOWER_CUP = CUP_KINDS.index(pb.CUP_KIND_LOWER_HEAT)

Events = list[common_pb2.Event]


def say(events: Events, seat: int, text: str) -> None:
    events.append(common_pb2.Event(seat=seat, text=text))


def used_colors(state: Any, seat: int) -> set[int]:
    """The colours the seat may not choose now: those it has finished, and after a trashed dish (or
    a burnt crepe) also those it has trashed ("a color I haven't used before")."""
    player = state.players[seat]
    used = {DISHES[dish].color for dish in player.finished}
    if state.after_trash:
        used.update(DISHES[dish].color for dish in player.trashed)
    return used


def dish_choices(state: Any, seat: int) -> list[int]:
    """Dishes the seat may put in its pan: of a colour it has not used yet when the supply has one,
    else any dish left. At setup nothing is used yet."""
    used = used_colors(state, seat)
    fresh = [dish for dish in state.supply if DISHES[dish].color not in used]
    return fresh if fresh else list(state.supply)


def setup_choosers(num_players: int) -> list[int]:
    """The seats in the order they choose their starting dishes (content `setup_order`); seat 0, the
    first player, starts the first turn once all have chosen."""
    seats = list(range(num_players))
    if CONTENT.setup_order == pb.SETUP_ORDER_LAST_PLAYER_FIRST:
        return seats[::-1]
    assert CONTENT.setup_order == pb.SETUP_ORDER_FIRST_PLAYER_FIRST, "content names no setup order"
    return seats


def may_place_crepe(state: Any, seat: int) -> bool:
    """Once a game, whenever a new dish is chosen during play (not at setup: placing it ends a turn)."""
    return (
        state.players[seat].crepe == pb.CREPE_STATUS_UNUSED
        and state.after_dish != pb.AFTER_DISH_NEXT_SETUP_CHOICE
    )


def end_game(state: Any, reason: int, seat: int, events: Events, text: str) -> None:
    state.core.game_over = True
    state.end = reason
    state.ended_by = seat
    state.actions_left = 0
    say(events, -1, text)


def start_turn(state: Any, seat: int, events: Events) -> None:
    """A new turn: three spoons, every cup usable; then the own dish is looked at (a dish that
    finished or spoiled since, a crepe waiting to be cooked)."""
    state.core.seat_to_move = seat
    state.actions_left = CONTENT.actions_per_turn
    state.three_spoons_taken = False
    state.ClearField("reseasoning")
    state.flips_this_turn = 0
    stove = state.players[seat].stove
    if stove.crepe:
        if is_burnt(stove):
            burn_crepe(state, seat, events)
            return
        state.phase = pb.PHASE_CREPE_ROLL
        return
    settle_own_dish(state, seat, events)


def end_turn(state: Any, seat: int, events: Events) -> None:
    """The next seat's turn; after the last seat of the round (seat 0 starts every round) the game
    ends when a fifth finished dish has signalled the last round."""
    following = (seat + 1) % state.core.num_players
    if following == 0 and state.last_round_by >= 0:
        signaller = state.last_round_by
        end_game(
            state, pb.GAME_END_FIVE_DISHES, signaller, events,
            f"the round is played out after seat {signaller}'s fifth dish: the game ends",
        )
        return
    start_turn(state, following, events)


def can_rescue(state: Any, seat: int) -> bool:
    """A burnt (not over-seasoned) dish may still be saved by a lower-heat coffee break first."""
    stove = state.players[seat].stove
    recipe = recipe_of(stove)
    return (
        recipe is not None
        and not state.three_spoons_taken
        and state.players[seat].cups[LOWER_CUP] > 0
        and not is_overseasoned(stove)
        and stove.heat - CONTENT.lower_heat_max < recipe.burnt_at
    )


def settle_own_dish(state: Any, seat: int, events: Events) -> None:
    """After each action of the seat (and when its turn starts): a spoiled dish goes to the trash, a
    finished one to the tray; then the turn goes on, or ends when no action is left."""
    stove = state.players[seat].stove
    if stove.dish >= 0:
        if is_spoiled(stove):
            if can_rescue(state, seat):
                state.phase = pb.PHASE_SPOILED
                return
            trash_dish(state, seat, events)
            return
        if is_finished(stove):
            serve_dish(state, seat, events)
            return
    if state.actions_left <= 0:
        end_turn(state, seat, events)
        return
    state.phase = pb.PHASE_ACTIONS


def trash_dish(state: Any, seat: int, events: Events) -> None:
    stove = state.players[seat].stove
    dish = stove.dish
    why = "burnt" if is_burnt(stove) else "over-seasoned"
    state.trash.append(dish)
    state.players[seat].trashed.append(dish)
    clear_stove(state, stove)
    say(events, seat, f"seat {seat}'s {dish_name(dish)} is {why} and goes into the trash can")
    for note in refill_dispensers(state):
        say(events, -1, note)
    need_new_dish(state, seat, pb.AFTER_DISH_CONTINUE_TURN, events, after_trash=True)


def serve_dish(state: Any, seat: int, events: Events) -> None:
    """A finished dish goes onto the tray; a perfect one also earns a star while stars are left."""
    player = state.players[seat]
    stove = player.stove
    dish = stove.dish
    perfect = is_perfect(stove)
    player.finished.append(dish)
    text = f"seat {seat} serves {dish_name(dish)} ({RECIPES[dish].points} points)"
    if perfect and state.stars_left > 0:
        state.stars_left -= 1
        player.stars += 1
        text += f", perfectly seasoned: a star (now {player.stars})"
    clear_stove(state, stove)
    say(events, seat, text)
    for note in refill_dispensers(state):
        say(events, -1, note)
    if check_served_end(state, seat, events):
        return
    need_new_dish(state, seat, pb.AFTER_DISH_CONTINUE_TURN, events)


def check_served_end(state: Any, seat: int, events: Events) -> bool:
    """The third star ends the game at once (and wins it). The first fifth finished dish signals
    the end: the round is played out (see end_turn), so every seat has had as many turns."""
    player = state.players[seat]
    if player.stars >= CONTENT.stars_to_win:
        end_game(state, pb.GAME_END_THIRD_STAR, seat, events, f"seat {seat} has {player.stars} stars: the game ends")
        return True
    if state.last_round_by < 0 and finished_count(player) >= CONTENT.dishes_to_end:
        state.last_round_by = seat
        say(
            events, -1,
            f"seat {seat} has finished {finished_count(player)} dishes: the round is played out, then the game ends",
        )
    return False


def need_new_dish(state: Any, seat: int, after: int, events: Events, after_trash: bool = False) -> None:
    """The seat chooses its next dish (no action spent), or the game ends when it cannot place one."""
    state.after_dish = after
    state.after_trash = after_trash
    if not state.supply and not may_place_crepe(state, seat):
        end_game(
            state, pb.GAME_END_NO_DISH_TO_PLACE, seat, events,
            f"seat {seat} cannot place a new dish in its pan: the game ends",
        )
        return
    state.phase = pb.PHASE_CHOOSE_DISH


def place_dish(state: Any, seat: int, dish: int, events: Events) -> None:
    stove = state.players[seat].stove
    state.supply.remove(dish)
    state.after_trash = False
    stove.dish = dish
    stove.crepe = False
    stove.heat = 0
    recipe = RECIPES[dish]
    say(
        events, seat,
        f"seat {seat} puts {dish_name(dish)} ({color_name(recipe.color)}) in the pan; the knob goes back to 0",
    )
    after = state.after_dish
    if after == pb.AFTER_DISH_NEXT_SETUP_CHOICE:
        choosers = setup_choosers(state.core.num_players)
        following = choosers.index(seat) + 1
        if following < len(choosers):
            state.core.seat_to_move = choosers[following]
            state.phase = pb.PHASE_CHOOSE_DISH
        else:
            start_turn(state, 0, events)
    elif after == pb.AFTER_DISH_CONTINUE_TURN:
        settle_own_dish(state, seat, events)
    else:
        end_turn(state, seat, events)


def place_crepe(state: Any, seat: int, events: Events) -> None:
    """The crepe goes into the pan instead of a dish; the turn ends at once."""
    player = state.players[seat]
    player.crepe = pb.CREPE_STATUS_IN_PAN
    state.after_trash = False
    player.stove.crepe = True
    player.stove.dish = -1
    player.stove.heat = 0
    say(events, seat, f"seat {seat} puts its crepe in the pan; its turn ends")
    end_turn(state, seat, events)


def burn_crepe(state: Any, seat: int, events: Events) -> None:
    """A crepe at heat 7 is ruined: into the trash, a new dish, and the turn is over."""
    player = state.players[seat]
    player.crepe = pb.CREPE_STATUS_BURNT
    clear_stove(state, player.stove)
    say(events, seat, f"seat {seat}'s crepe burns and goes into the trash can")
    need_new_dish(state, seat, pb.AFTER_DISH_END_TURN, events, after_trash=True)


def crepe_after_roll(state: Any, seat: int, events: Events) -> None:
    if is_burnt(state.players[seat].stove):
        burn_crepe(state, seat, events)
        return
    state.phase = pb.PHASE_CREPE_FLIP


def after_heating(state: Any, seat: int, events: Events) -> None:
    """What follows a roll (and its choice of heat or cup) in a crepe turn or an ordinary one."""
    if state.players[seat].stove.crepe:
        crepe_after_roll(state, seat, events)
    else:
        settle_own_dish(state, seat, events)


def land_crepe(state: Any, seat: int, result: int, events: Events) -> None:
    """The three outcomes of a flip: done; recipe side up (flip again if it was the first); beside
    the pan (the turn ends)."""
    player = state.players[seat]
    state.last_flip = result
    if result == pb.FLIP_RESULT_PICTURE_UP:
        player.crepe = pb.CREPE_STATUS_FINISHED
        clear_stove(state, player.stove)
        say(events, seat, f"seat {seat}'s crepe lands picture side up: served ({CONTENT.crepe.points} points)")
        if check_served_end(state, seat, events):
            return
        need_new_dish(state, seat, pb.AFTER_DISH_END_TURN, events)
        return
    if result == pb.FLIP_RESULT_RECIPE_UP and state.flips_this_turn < CONTENT.crepe.flips_per_turn:
        say(events, seat, f"seat {seat}'s crepe lands recipe side up; one more try")
        state.phase = pb.PHASE_CREPE_FLIP
        return
    where = "beside the pan" if result == pb.FLIP_RESULT_BESIDE_PAN else "recipe side up again"
    say(events, seat, f"seat {seat}'s crepe lands {where}; the turn ends")
    end_turn(state, seat, events)
