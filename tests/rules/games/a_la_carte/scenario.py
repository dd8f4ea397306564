"""Builds A la carte positions for the scenario tests, and forces physical outcomes by choosing the
random counter (the engine still draws them; the tests only pick the seed that yields the case)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.rules import registry
from services.rules.games.a_la_carte.content import CONDIMENTS, CUP_KINDS, LAYOUT
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb

ENGINE = registry.get_engine("a_la_carte")
L = LAYOUT

# Dish ids in content.txtpb used by the scenarios.
BREAKFAST_FIDEL = 0  # white, unseasoned, heat 2-4, burnt at 5, 3 points
KIPPER = 1  # white, heat 1-3, burnt 4, lemon 1 + herbs 1, 5 points
TONGUE = 2  # white, heat 2-3, burnt 4, paprika 1 + pepper 1
CUCUMBER = 3  # white, cold 0-1, burnt 2, herbs 2
HIPPO = 4  # orange, heat 3-5, burnt 6, pepper 2 + lemon 1, 6 points
WEISSWURST = 5  # orange, heat 2-4, burnt 5, lemon 1 + paprika 1, 4 points
EAU = 8  # blue, unseasoned, heat 5-6, burnt 7
OCTOPUS = 11  # blue, heat 3-5, burnt 6, pepper 2, 4 points
CHAMOIS = 12  # purple, heat 3-4, burnt 5, pepper 1 + herbs 1, 5 points

PAPRIKA, LEMON, PEPPER, HERBS = (CONDIMENTS.index(c) for c in (
    pb.CONDIMENT_PAPRIKA, pb.CONDIMENT_LEMON, pb.CONDIMENT_PEPPER, pb.CONDIMENT_HERBS))
VP, SWAP, SPOONS, RESEASON, LOWER = (CUP_KINDS.index(k) for k in (
    pb.CUP_KIND_VICTORY_POINT, pb.CUP_KIND_SWAP_STOVES, pb.CUP_KIND_THREE_SPOONS,
    pb.CUP_KIND_RESEASON, pb.CUP_KIND_LOWER_HEAT))
FACE_PLUS1, FACE_PLUS2, FACE_PLUS3, FACE_CHOOSE, FACE_ALL, FACE_CUP = range(6)


def new_table(num_players: int = 2, options: dict[str, str] | None = None, seed: int = 7) -> Any:
    """A fresh game still in the setup choice of dishes."""
    return ENGINE.new_game(num_players, options or {}, seed)


def return_all_cups(state: Any) -> None:
    """Every held cup back onto the tray (victory cups stay where they are), for clean scenarios."""
    for player in state.players:
        for c in range(len(player.cups)):
            state.tray[c] += player.cups[c]
            player.cups[c] = 0
        state.tray[VP] += player.victory_cups
        player.victory_cups = 0


def give_cup(state: Any, seat: int, cup: int, count: int = 1) -> None:
    """Moves cups of a kind from the tray to a player."""
    assert state.tray[cup] >= count
    state.tray[cup] -= count
    state.players[seat].cups[cup] += count


def put_dish(state: Any, seat: int, dish: int, heat: int = 0, pan: dict[int, int] | None = None,
             salt: int = 0) -> None:
    """Puts `dish` in seat's pan at `heat` with condiments taken from the dispensers (so every piece
    stays accounted for); the dish it replaces goes back to the supply."""
    stove = state.players[seat].stove
    if stove.dish >= 0:
        state.supply.append(stove.dish)
    for d in range(len(stove.pan)):
        state.dispensers[d].pieces += stove.pan[d]
        stove.pan[d] = 0
    _return_salt(state, stove.salt)
    stove.salt = 0
    state.supply.remove(dish)
    state.supply[:] = sorted(state.supply)
    stove.dish = dish
    stove.crepe = False
    stove.heat = heat
    for d, count in (pan or {}).items():
        state.dispensers[d].pieces -= count
        stove.pan[d] += count
    _take_salt(state, salt)
    stove.salt = salt


def _take_salt(state: Any, salt: int) -> None:
    for dispenser in state.dispensers:
        take = min(salt, dispenser.salt)
        dispenser.salt -= take
        salt -= take
    assert salt == 0


def _return_salt(state: Any, salt: int) -> None:
    for dispenser in state.dispensers:
        give = min(salt, 5 - dispenser.salt)
        dispenser.salt += give
        salt -= give
    assert salt == 0


def trash_dishes(state: Any, seat: int, dishes: list[int]) -> None:
    """Moves dishes from the supply into the trash can, as trashed by `seat`."""
    for dish in dishes:
        state.supply.remove(dish)
        state.trash.append(dish)
        state.players[seat].trashed.append(dish)


def kitchen(num_players: int = 2, dishes: tuple[int, ...] = (HIPPO, OCTOPUS), seat: int = 0,
            options: dict[str, str] | None = None) -> Any:
    """A game past setup: every seat has its dish from `dishes`, no cups held, `seat` to act with
    three actions."""
    state = new_table(num_players, options)
    return_all_cups(state)
    for s in range(num_players):
        put_dish(state, s, dishes[s])
    state.phase = pb.PHASE_ACTIONS
    state.after_dish = pb.AFTER_DISH_UNSPECIFIED
    state.core.seat_to_move = seat
    state.actions_left = 3
    ENGINE.check_invariants(state)
    return state


def copy(state: Any) -> Any:
    clone = pb.State()
    clone.CopyFrom(state)
    return clone


def force(state: Any, action: int | pb.Action, predicate: Callable[[Any], bool],
          tries: int = 20_000) -> tuple[Any, list[Any]]:
    """Applies `action` by the seat to move with the first random counter whose result satisfies
    `predicate`; returns that state and its events."""
    for counter in range(tries):
        trial = copy(state)
        trial.core.random.counter = counter
        events = ENGINE.apply(trial, trial.core.seat_to_move, action)
        if predicate(trial):
            ENGINE.check_invariants(trial)
            return trial, events
    raise AssertionError("no random counter gives that outcome")


def roll(state: Any, face: int) -> tuple[Any, list[Any]]:
    """Rolls the die and forces the face (index into the content's die)."""
    return force(state, L.roll, lambda s: s.last_face == face + 1)


def texts(events: list[Any]) -> str:
    return "\n".join(e.text for e in events)
