"""The kitchen's physics and bookkeeping: what a pan's contents mean for its dish (finished, perfect,
burnt, over-seasoned), tipping a dispenser, emptying pans into the sinks, refilling dispensers, and
counting a chef's points. Pure functions over the state's messages; chance comes from the caller's
RandomSource."""

from __future__ import annotations

from typing import Any

from services.rules.games.a_la_carte.content import (
    CONTENT,
    DISPENSER_FILLS,
    NUM_CONDIMENTS,
    RECIPES,
    SKILLS,
    VICTORY_CUP,
    Recipe,
    condiment_name,
)
from services.rules.random_source import RandomSource
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb

MAX_HEAT = CONTENT.max_heat
OVERSEASONED_AT = CONTENT.overseasoned_at
OVERSALTED_AT = CONTENT.oversalted_at


def recipe_of(stove: pb.Stove) -> Recipe | None:
    """The recipe of the dish in the pan (None for the crepe or an empty pan)."""
    return RECIPES[stove.dish] if stove.dish >= 0 else None


def is_burnt(stove: pb.Stove) -> bool:
    if stove.crepe:
        return stove.heat >= CONTENT.crepe.burnt_at
    return stove.dish >= 0 and stove.heat >= RECIPES[stove.dish].burnt_at


def is_overseasoned(stove: pb.Stove) -> bool:
    """Three or more pieces of one colour, or three salt crystals."""
    return stove.salt >= OVERSALTED_AT or max(stove.pan, default=0) >= OVERSEASONED_AT


def is_spoiled(stove: pb.Stove) -> bool:
    return is_burnt(stove) or (stove.dish >= 0 and is_overseasoned(stove))


def is_finished(stove: pb.Stove) -> bool:
    """Heat within the green range, every needed condiment present, and not spoiled."""
    recipe = recipe_of(stove)
    if recipe is None or is_spoiled(stove):
        return False
    if not recipe.heat_min <= stove.heat <= recipe.heat_max:
        return False
    return all(have >= need for have, need in zip(stove.pan, recipe.needs, strict=True))


def is_perfect(stove: pb.Stove) -> bool:
    """Finished with exactly the needed condiments and no salt; unseasoned dishes never are."""
    recipe = recipe_of(stove)
    return (
        recipe is not None
        and recipe.seasoned
        and stove.salt == 0
        and tuple(stove.pan) == recipe.needs
        and is_finished(stove)
    )


def can_season_own(stove: pb.Stove, dispenser: int, dispensers: Any) -> bool:
    """Own seasoning: a condiment of the recipe, while the pan holds fewer than two of it, from a
    dispenser that holds anything."""
    recipe = recipe_of(stove)
    if recipe is None or not recipe.needs[dispenser]:
        return False
    held = dispensers[dispenser]
    return stove.pan[dispenser] < CONTENT.own_seasoning_below and held.pieces + held.salt > 0


def can_be_reseasoned(stove: pb.Stove) -> bool:
    """Another chef may season any dish with condiments on its recipe (not the crepe, not the
    unseasoned dishes)."""
    recipe = recipe_of(stove)
    return recipe is not None and recipe.seasoned


def heat_up(stove: pb.Stove, amount: int) -> int:
    """Turns the knob up, capped at the top setting; returns the new heat."""
    stove.heat = min(MAX_HEAT, stove.heat + amount)
    return stove.heat


def tip(rng: RandomSource, skill: int, dispenser: pb.Dispenser) -> tuple[int, int]:
    """Tips a dispenser once: how many pieces fall follows the skill and how full it is, and which
    ones fall is drawn from what it holds (salt included). Removes them; returns (pieces, salt)."""
    held = dispenser.pieces + dispenser.salt
    if held == 0:
        return 0, 0
    bands = SKILLS[skill].tip_bands
    band = bands[0]
    for candidate in bands:
        if candidate.min_held <= held:
            band = candidate
    count = min(rng.weighted_index(band.weights), held)
    pieces = salt = 0
    for _ in range(count):
        if rng.below(dispenser.pieces + dispenser.salt) < dispenser.pieces:
            dispenser.pieces -= 1
            pieces += 1
        else:
            dispenser.salt -= 1
            salt += 1
    return pieces, salt


def pour_into_pan(stove: pb.Stove, dispenser: int, pieces: int, salt: int) -> None:
    stove.pan[dispenser] += pieces
    stove.salt += salt


def tip_text(dispenser: int, pieces: int, salt: int) -> str:
    parts = []
    if pieces:
        parts.append(f"{pieces} {condiment_name(dispenser)}")
    if salt:
        parts.append(f"{salt} salt")
    return " and ".join(parts) if parts else "nothing"


def clear_stove(state: Any, stove: pb.Stove) -> None:
    """Takes the dish off: its condiments go into the sinks, the pan is empty, the knob back to 0."""
    for index in range(NUM_CONDIMENTS):
        state.sink[index] += stove.pan[index]
        stove.pan[index] = 0
    state.sink_salt += stove.salt
    stove.salt = 0
    stove.dish = -1
    stove.crepe = False
    stove.heat = 0


def refill_dispensers(state: Any) -> list[str]:
    """A dispenser holding no pieces of its colour (empty or only salt) takes back every piece of
    its colour from the sinks and tops its salt up to the setup count from the sinks' salt. Nothing
    happens while the sinks hold none of its colour (its salt then stays for the others)."""
    notes = []
    for index, dispenser in enumerate(state.dispensers):
        if dispenser.pieces or not state.sink[index]:
            continue
        dispenser.pieces = state.sink[index]
        state.sink[index] = 0
        salt = min(max(0, DISPENSER_FILLS[index].salt - dispenser.salt), state.sink_salt)
        dispenser.salt += salt
        state.sink_salt -= salt
        notes.append(
            f"the {condiment_name(index)} dispenser is refilled from the sink"
            f" ({dispenser.pieces} {condiment_name(index)}, {dispenser.salt} salt)"
        )
    return notes


def finished_count(player: pb.PlayerState) -> int:
    """Finished dishes on the tray, the crepe included."""
    return len(player.finished) + (1 if player.crepe == pb.CREPE_STATUS_FINISHED else 0)


def points(player: Any) -> int:
    """Victory points: finished dishes, a finished crepe, and victory-point cups."""
    total = sum(RECIPES[dish].points for dish in player.finished)
    if player.crepe == pb.CREPE_STATUS_FINISHED:
        total += CONTENT.crepe.points
    return total + player.victory_cups * CONTENT.victory_cup_points


def receive_cup(player: pb.PlayerState, kind: int) -> None:
    """A victory-point cup goes straight onto the tray, safe from theft; any other is held face up."""
    if kind == VICTORY_CUP:
        player.victory_cups += 1
    else:
        player.cups[kind] += 1
