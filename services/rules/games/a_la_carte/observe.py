"""What a seat sees and the observation tensor computed from it.

Everything in A la carte lies open on the table (stoves, pans, dishes, held cups, dispensers through
their clear bottles, sinks); the coffee tray's cups lie face down, but their kinds follow from the
open cups, so the view counts them too. Only the random source stays with the server.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from services.rules.engine import core_view
from services.rules.games.a_la_carte.content import (
    CONTENT,
    DIE,
    DISPENSER_FILLS,
    NUM_COLORS,
    NUM_CONDIMENTS,
    NUM_CUP_KINDS,
    NUM_DISHES,
    RECIPES,
    SKILL_NAMES,
    VICTORY_CUP,
)
from services.rules.games.a_la_carte.kitchen import (
    finished_count,
    is_burnt,
    is_finished,
    is_overseasoned,
    is_perfect,
    points,
)
from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb

D = NUM_CONDIMENTS
K = NUM_CUP_KINDS
MAX_PLAYERS = CONTENT.max_players
NUM_PHASES = len(pb.Phase.values()) - 1
NUM_AFTER = len(pb.AfterDish.values()) - 1
NUM_CREPE = len(pb.CrepeStatus.values()) - 1
NUM_FLIPS = len(pb.FlipResult.values())
POINTS_SCALE = 30.0
ACTIONS_SCALE = float(CONTENT.actions_per_turn + CONTENT.extra_actions)
SALT_TOTAL = float(sum(fill.salt for fill in DISPENSER_FILLS))
CUP_COUNTS = [max(1, supply.count) for supply in CONTENT.cups]

# One player's block: present, to move, skill, heat, pan item (dishes + crepe + empty), recipe
# (heat min/max, burnt at, needs, points), pan contents and salt, dish flags, tray, cups held.
PLAYER_SIZE = (
    2 + len(SKILL_NAMES) + 1 + (NUM_DISHES + 2) + (3 + D + 1) + (D + 1) + 6
    + (1 + NUM_COLORS + 1 + 1 + 1 + NUM_CREPE) + K
)
# The table: dispensers, sinks, coffee tray, supply, trash, stars, phase, after-dish, actions left,
# coffee break taken, flips, last face, last flip, viewer to move.
TABLE_SIZE = (
    2 * D + D + 1 + K + NUM_DISHES + NUM_DISHES + 1 + NUM_PHASES + NUM_AFTER + 1 + 1 + 1
    + (len(DIE) + 1) + NUM_FLIPS + 1
)
OBSERVATION_SIZE = MAX_PLAYERS * PLAYER_SIZE + TABLE_SIZE


def make_view(state: Any, seat: int) -> pb.View:
    view = pb.View(
        core=core_view(state, seat),
        dispensers=state.dispensers,
        sink=state.sink,
        sink_salt=state.sink_salt,
        tray=state.tray,
        supply=state.supply,
        trash=state.trash,
        stars_left=state.stars_left,
        phase=state.phase,
        after_dish=state.after_dish,
        actions_left=state.actions_left,
        coffee_break_taken=state.coffee_break_taken,
        flips_this_turn=state.flips_this_turn,
        last_face=state.last_face,
        last_flip=state.last_flip,
        end=state.end,
        ended_by=state.ended_by,
    )
    for other, player in enumerate(state.players):
        view.players.add(
            seat=other,
            skill=SKILL_NAMES[player.skill],
            stove=player.stove,
            finished=player.finished,
            crepe=player.crepe,
            cups=player.cups,
            victory_cups=player.victory_cups,
            stars=player.stars,
            points=points(player),
        )
    return view


def end_text(end: int, seat: int) -> str:
    if end == pb.GAME_END_THIRD_STAR:
        return f"seat {seat} earned a third star and wins; the others rank by points"
    if end == pb.GAME_END_FIVE_DISHES:
        return f"seat {seat} finished a fifth dish; highest points wins, ties share"
    if end == pb.GAME_END_NO_DISH_TO_PLACE:
        return f"seat {seat} could not place a new dish; highest points wins, ties share"
    return "the game is running"


def _player_block(obs: np.ndarray, i: int, p: Any, to_move: bool) -> None:
    obs[i] = 1.0
    obs[i + 1] = 1.0 if to_move else 0.0
    i += 2
    obs[i + SKILL_NAMES.index(p.skill)] = 1.0
    i += len(SKILL_NAMES)
    stove = p.stove
    max_heat = float(CONTENT.max_heat)
    obs[i] = stove.heat / max_heat
    i += 1
    if stove.dish >= 0:
        obs[i + stove.dish] = 1.0
    elif stove.crepe:
        obs[i + NUM_DISHES] = 1.0
    else:
        obs[i + NUM_DISHES + 1] = 1.0
    i += NUM_DISHES + 2
    if stove.dish >= 0:
        recipe = RECIPES[stove.dish]
        obs[i] = recipe.heat_min / max_heat
        obs[i + 1] = recipe.heat_max / max_heat
        obs[i + 2] = recipe.burnt_at / max_heat
        for d in range(D):
            obs[i + 3 + d] = recipe.needs[d] / 2.0
        obs[i + 3 + D] = recipe.points / 10.0
    elif stove.crepe:
        obs[i + 2] = CONTENT.crepe.burnt_at / max_heat
        obs[i + 3 + D] = CONTENT.crepe.points / 10.0
    i += 3 + D + 1
    for d in range(D):
        obs[i + d] = stove.pan[d] / CONTENT.overseasoned_at
    obs[i + D] = stove.salt / CONTENT.oversalted_at
    i += D + 1
    if stove.dish >= 0:
        recipe = RECIPES[stove.dish]
        obs[i] = 1.0 if recipe.heat_min <= stove.heat <= recipe.heat_max else 0.0
        obs[i + 1] = 1.0 if is_burnt(stove) else 0.0
        obs[i + 2] = 1.0 if is_overseasoned(stove) else 0.0
        obs[i + 3] = 1.0 if all(h >= n for h, n in zip(stove.pan, recipe.needs, strict=True)) else 0.0
        obs[i + 4] = 1.0 if is_finished(stove) else 0.0
        obs[i + 5] = 1.0 if is_perfect(stove) else 0.0
    elif stove.crepe:
        obs[i + 1] = 1.0 if is_burnt(stove) else 0.0
    i += 6
    obs[i] = finished_count(p) / CONTENT.dishes_to_end
    for dish in p.finished:
        obs[i + 1 + RECIPES[dish].color - 1] = 1.0
    i += 1 + NUM_COLORS
    obs[i] = p.points / POINTS_SCALE
    obs[i + 1] = p.stars / CONTENT.stars_to_win
    obs[i + 2] = p.victory_cups / CUP_COUNTS[VICTORY_CUP]
    obs[i + 3 + p.crepe - 1] = 1.0
    i += 3 + NUM_CREPE
    for c in range(K):
        obs[i + c] = p.cups[c] / CUP_COUNTS[c]


def observation(view: Any) -> np.ndarray:
    """Player blocks start with the viewer (seat 0 for the public view) and go round the table."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    n = view.core.num_players
    me = max(view.core.viewer, 0)
    for rel in range(n):
        seat = (me + rel) % n
        _player_block(obs, rel * PLAYER_SIZE, view.players[seat], seat == view.core.seat_to_move)
    i = MAX_PLAYERS * PLAYER_SIZE
    for d, dispenser in enumerate(view.dispensers):
        obs[i + 2 * d] = dispenser.pieces / DISPENSER_FILLS[d].pieces
        obs[i + 2 * d + 1] = dispenser.salt / max(1, DISPENSER_FILLS[d].salt)
    i += 2 * D
    for d in range(D):
        obs[i + d] = view.sink[d] / DISPENSER_FILLS[d].pieces
    obs[i + D] = view.sink_salt / SALT_TOTAL
    i += D + 1
    for c in range(K):
        obs[i + c] = view.tray[c] / CUP_COUNTS[c]
    i += K
    for dish in view.supply:
        obs[i + dish] = 1.0
    i += NUM_DISHES
    for dish in view.trash:
        obs[i + dish] = 1.0
    i += NUM_DISHES
    obs[i] = view.stars_left / CONTENT.stars
    i += 1
    if view.phase:
        obs[i + view.phase - 1] = 1.0
    i += NUM_PHASES
    if view.after_dish:
        obs[i + view.after_dish - 1] = 1.0
    i += NUM_AFTER
    obs[i] = view.actions_left / ACTIONS_SCALE
    obs[i + 1] = 1.0 if view.coffee_break_taken else 0.0
    obs[i + 2] = view.flips_this_turn / CONTENT.crepe.flips_per_turn
    i += 3
    obs[i + view.last_face] = 1.0
    i += len(DIE) + 1
    obs[i + view.last_flip] = 1.0
    i += NUM_FLIPS
    obs[i] = 1.0 if view.core.seat_to_move == view.core.viewer else 0.0
    return obs
