"""A la carte's action codec: dense ids <-> structured actions, legal ids of the pending decision,
and actions in words. Reads only what both the state and a seat's view hold (the players' stoves,
cups and dishes lie open, so the view carries them too)."""

from __future__ import annotations

from typing import Any

from services.rules.games.a_la_carte.content import (
    CONDIMENTS,
    CONTENT,
    CUP_KINDS,
    DIE,
    LAYOUT,
    MAX_OTHERS,
    NUM_CONDIMENTS,
    NUM_CUP_KINDS,
    NUM_DISHES,
    RECIPES,
    condiment_name,
    cup_name,
    dish_name,
)
from services.rules.games.a_la_carte.flow import dish_choices, may_place_crepe
from services.rules.games.a_la_carte.kitchen import can_be_reseasoned, is_burnt
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb

SWAP_CUP = CUP_KINDS.index(pb.CUP_KIND_SWAP_STOVES)
SPOONS_CUP = CUP_KINDS.index(pb.CUP_KIND_THREE_SPOONS)
RESEASON_CUP = CUP_KINDS.index(pb.CUP_KIND_RESEASON)
LOWER_CUP = CUP_KINDS.index(pb.CUP_KIND_LOWER_HEAT)
ROLL = LAYOUT.roll
SEASON_BASE = LAYOUT.season_base
OWN_BELOW = CONTENT.own_seasoning_below


def swappable(stove: pb.Stove) -> bool:
    """A stove may change hands unless its dish is burnt or it holds a crepe (or nothing)."""
    return stove.dish >= 0 and not stove.crepe and not is_burnt(stove)


def _lower_ids(heat: int) -> list[int]:
    return [LAYOUT.lower_base + amount - 1 for amount in range(1, min(CONTENT.lower_heat_max, heat) + 1)]


def legal_ids(state: Any) -> list[int]:
    """Legal ids of the seat to move (state or view), ascending."""
    seat = state.core.seat_to_move
    phase = state.phase
    players = state.players
    me = players[seat]
    stove = me.stove
    if phase == pb.PHASE_ACTIONS:
        ids = [ROLL]
        if stove.dish >= 0:
            # Own seasoning (kitchen.can_season_own, inlined: this is the hottest path).
            needs = RECIPES[stove.dish].needs
            pan = stove.pan
            dispensers = state.dispensers
            for d in range(NUM_CONDIMENTS):
                if needs[d] and pan[d] < OWN_BELOW:
                    held = dispensers[d]
                    if held.pieces or held.salt:
                        ids.append(SEASON_BASE + d)
        ids.extend(_coffee_ids(state, seat, me))
        return sorted(ids)
    if phase == pb.PHASE_CHOOSE_DISH:
        ids = [LAYOUT.dish_base + dish for dish in sorted(dish_choices(state, seat))]
        if may_place_crepe(state, seat):
            ids.append(LAYOUT.crepe)
        return ids
    if phase == pb.PHASE_CHOOSE_HEAT:
        amount = DIE[state.last_face - 1].amount
        return [LAYOUT.choose_heat_base + a - 1 for a in range(1, amount + 1)]
    if phase == pb.PHASE_TAKE_CUP:
        n = state.core.num_players
        ids = []
        for k in range(1, n):
            cups = players[(seat + k) % n].cups
            base = LAYOUT.take_cup_base + (k - 1) * NUM_CUP_KINDS
            ids.extend(base + c for c in range(NUM_CUP_KINDS) if cups[c] > 0)
        return ids
    if phase == pb.PHASE_SPOILED:
        lower = _lower_ids(stove.heat) if me.cups[LOWER_CUP] > 0 and not state.three_spoons_taken else []
        return [*lower, LAYOUT.trash]
    if phase == pb.PHASE_CREPE_ROLL:
        return [LAYOUT.roll]
    if phase == pb.PHASE_CREPE_FLIP:
        return [LAYOUT.flip, LAYOUT.stop_flipping]
    raise ValueError(f"no decision is pending in phase {phase}")


def _reseason_ids(state: Any, seat: int, k: int) -> list[int]:
    """Tips onto the dish of the player k seats left, from every dispenser holding anything."""
    if not can_be_reseasoned(state.players[(seat + k) % state.core.num_players].stove):
        return []
    base = LAYOUT.reseason_base + (k - 1) * NUM_CONDIMENTS
    return [base + d for d, dispenser in enumerate(state.dispensers) if dispenser.pieces + dispenser.salt > 0]


def _coffee_ids(state: Any, seat: int, me: Any) -> list[int]:
    """The coffee breaks open now: the next tip of a re-season cup in use, and each cup held with its
    targets (any number a turn, but no cup at all after three spoons). While a re-season cup is in
    use, the ids naming its dish are its next tips, not a new cup."""
    n = state.core.num_players
    cups = me.cups
    ids: list[int] = []
    reseasoning = -1
    if state.HasField("reseasoning"):
        reseasoning = (state.reseasoning.seat - seat) % n
        ids.extend(_reseason_ids(state, seat, reseasoning))
    if state.three_spoons_taken:
        return ids
    if cups[SWAP_CUP] and swappable(me.stove):
        ids.extend(
            LAYOUT.swap_base + k - 1 for k in range(1, n) if swappable(state.players[(seat + k) % n].stove)
        )
    if cups[SPOONS_CUP]:
        ids.append(LAYOUT.spoons)
    if cups[RESEASON_CUP]:
        for k in range(1, n):
            if k != reseasoning:
                ids.extend(_reseason_ids(state, seat, k))
    if cups[LOWER_CUP]:
        ids.extend(_lower_ids(me.stove.heat))
    return ids


def id_to_action(num_players: int, seat: int, action_id: int) -> pb.Action:
    L = LAYOUT
    if action_id == L.roll:
        return pb.Action(roll_die=pb.RollDie())
    if action_id < L.choose_heat_base:
        return pb.Action(season=pb.Season(dispenser=CONDIMENTS[action_id - L.season_base]))
    if action_id < L.dish_base:
        return pb.Action(choose_heat=pb.ChooseHeat(amount=action_id - L.choose_heat_base + 1))
    if action_id < L.crepe:
        return pb.Action(choose_dish=pb.ChooseDish(dish=action_id - L.dish_base))
    if action_id == L.crepe:
        return pb.Action(place_crepe=pb.PlaceCrepe())
    if action_id < L.spoons:
        k = action_id - L.swap_base + 1
        return pb.Action(swap_stoves=pb.SwapStoves(seat=(seat + k) % num_players))
    if action_id == L.spoons:
        return pb.Action(three_spoons=pb.ThreeSpoons())
    if action_id < L.lower_base:
        k, d = divmod(action_id - L.reseason_base, NUM_CONDIMENTS)
        return pb.Action(reseason=pb.Reseason(seat=(seat + k + 1) % num_players, dispenser=CONDIMENTS[d]))
    if action_id < L.take_cup_base:
        return pb.Action(lower_heat=pb.LowerHeat(amount=action_id - L.lower_base + 1))
    if action_id < L.trash:
        k, c = divmod(action_id - L.take_cup_base, NUM_CUP_KINDS)
        return pb.Action(take_cup=pb.TakeCup(seat=(seat + k + 1) % num_players, cup=CUP_KINDS[c]))
    if action_id == L.trash:
        return pb.Action(trash_dish=pb.TrashDish())
    if action_id == L.flip:
        return pb.Action(flip_crepe=pb.FlipCrepe())
    return pb.Action(stop_flipping=pb.StopFlipping())


def _offset(num_players: int, seat: int, other: int) -> int | None:
    """The relative offset 1..n-1 of another seat, or None for a seat not at the table or oneself."""
    if not 0 <= other < num_players or other == seat:
        return None
    k = (other - seat) % num_players
    return k if k <= MAX_OTHERS else None


def action_to_id(num_players: int, seat: int, action: Any) -> int | None:
    L = LAYOUT
    kind = action.WhichOneof("kind")
    if kind == "roll_die":
        return L.roll
    if kind == "season":
        d = action.season.dispenser
        return L.season_base + CONDIMENTS.index(d) if d in CONDIMENTS else None
    if kind == "choose_heat":
        amount = action.choose_heat.amount
        return L.choose_heat_base + amount - 1 if 1 <= amount <= L.choose_max else None
    if kind == "choose_dish":
        dish = action.choose_dish.dish
        return L.dish_base + dish if 0 <= dish < NUM_DISHES else None
    if kind == "place_crepe":
        return L.crepe
    if kind == "swap_stoves":
        k = _offset(num_players, seat, action.swap_stoves.seat)
        return None if k is None else L.swap_base + k - 1
    if kind == "three_spoons":
        return L.spoons
    if kind == "reseason":
        k = _offset(num_players, seat, action.reseason.seat)
        d = action.reseason.dispenser
        if k is None or d not in CONDIMENTS:
            return None
        return L.reseason_base + (k - 1) * NUM_CONDIMENTS + CONDIMENTS.index(d)
    if kind == "lower_heat":
        amount = action.lower_heat.amount
        return L.lower_base + amount - 1 if 1 <= amount <= L.lower_max else None
    if kind == "take_cup":
        k = _offset(num_players, seat, action.take_cup.seat)
        cup = action.take_cup.cup
        if k is None or cup not in CUP_KINDS:
            return None
        return L.take_cup_base + (k - 1) * NUM_CUP_KINDS + CUP_KINDS.index(cup)
    if kind == "trash_dish":
        return L.trash
    if kind == "flip_crepe":
        return L.flip
    if kind == "stop_flipping":
        return L.stop_flipping
    return None


def describe(state: Any, action: Any) -> str:
    """An action in words, as the seat to move of `state` (or its view) would choose it."""
    phase = state.phase
    kind = action.WhichOneof("kind")
    if kind == "roll_die":
        return "roll the heating die" + (" for the crepe" if phase == pb.PHASE_CREPE_ROLL else "")
    if kind == "season":
        return f"season your dish from the {condiment_name(CONDIMENTS.index(action.season.dispenser))} dispenser"
    if kind == "choose_heat":
        return f"turn the knob up by {action.choose_heat.amount}"
    if kind == "choose_dish":
        return f"put {dish_name(action.choose_dish.dish)} in your pan"
    if kind == "place_crepe":
        return "put your crepe in your pan (ends your turn)"
    if kind == "swap_stoves":
        return f"coffee break ({cup_name(SWAP_CUP)}): swap stoves with seat {action.swap_stoves.seat}"
    if kind == "three_spoons":
        return f"coffee break ({cup_name(SPOONS_CUP)}): {CONTENT.extra_actions} more actions"
    if kind == "reseason":
        r = action.reseason
        tipped = f"tip the {condiment_name(CONDIMENTS.index(r.dispenser))} dispenser over seat {r.seat}'s dish"
        if state.HasField("reseasoning") and state.reseasoning.seat == r.seat:
            return f"{tipped} again ({state.reseasoning.tips_left} tips of your {cup_name(RESEASON_CUP)} cup left)"
        return f"coffee break ({cup_name(RESEASON_CUP)}, up to {CONTENT.reseason_tips} tips): {tipped}"
    if kind == "lower_heat":
        return f"coffee break ({cup_name(LOWER_CUP)}): turn your knob down by {action.lower_heat.amount}"
    if kind == "take_cup":
        t = action.take_cup
        return f"take a {cup_name(CUP_KINDS.index(t.cup))} cup from seat {t.seat}"
    if kind == "trash_dish":
        return "put your spoiled dish into the trash can"
    if kind == "flip_crepe":
        return "flip the crepe"
    return "stop flipping (end your turn)"
