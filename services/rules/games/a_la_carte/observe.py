"""What a seat sees and the observation tensor computed from it.

Everything in A la carte lies open on the table (stoves, pans, dishes, held cups, dispensers through
their clear bottles, sinks); the coffee tray's cups lie face down, but their kinds follow from the
open cups, so the view counts them too. Only the random source stays with the server.

The observation is defined by the plain writers _player_block, _supplies_block, _dishes_block and
_turn_block (_reference_observation puts them together). `observation` gives the same floats faster:
reading protobuf fields is what costs, and most of a block repeats from one decision to the next, so
it copies rows those writers produced before for the same inputs (see "Row caches" below).
"""

from __future__ import annotations

import struct
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

NUM_CONDIMENTS = NUM_CONDIMENTS
NUM_CUP_KINDS = NUM_CUP_KINDS
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
    2 + len(SKILL_NAMES) + 1 + (NUM_DISHES + 2) + (3 + NUM_CONDIMENTS + 1) + (NUM_CONDIMENTS + 1) + 6
    + (1 + NUM_COLORS + 1 + 1 + 1 + NUM_CREPE) + NUM_CUP_KINDS
)
# Where the stove part (present .. dish flags) ends and the tray part (finished count .. cups) starts.
STOVE_END = 2 + len(SKILL_NAMES) + 1 + (NUM_DISHES + 2) + (3 + NUM_CONDIMENTS + 1) + (NUM_CONDIMENTS + 1) + 6
# The table: dispensers, sinks, coffee tray, supply, trash, stars, phase, after-dish, actions left,
# coffee break taken, flips, last face, last flip, viewer to move.
TABLE_SIZE = (
    2 * NUM_CONDIMENTS + NUM_CONDIMENTS + 1 + NUM_CUP_KINDS + NUM_DISHES + NUM_DISHES + 1 + NUM_PHASES + NUM_AFTER
    + 1 + 1 + 1
    + (len(DIE) + 1) + NUM_FLIPS + 1
)
OBSERVATION_SIZE = MAX_PLAYERS * PLAYER_SIZE + TABLE_SIZE
# The table's three parts: dispensers, sinks and coffee tray; supply and trash; stars .. viewer to move.
SUPPLIES_OFFSET = MAX_PLAYERS * PLAYER_SIZE
DISHES_OFFSET = SUPPLIES_OFFSET + 2 * NUM_CONDIMENTS + NUM_CONDIMENTS + 1 + NUM_CUP_KINDS
TURN_OFFSET = DISHES_OFFSET + 2 * NUM_DISHES
# Divisors of the table's scaling (ints stay ints, as they always were).
FILL_PIECES = [fill.pieces for fill in DISPENSER_FILLS]
FILL_SALT = [max(1, fill.salt) for fill in DISPENSER_FILLS]


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
        three_spoons_taken=state.three_spoons_taken,
        flips_this_turn=state.flips_this_turn,
        last_face=state.last_face,
        last_flip=state.last_flip,
        end=state.end,
        ended_by=state.ended_by,
        last_round_by=state.last_round_by,
        after_trash=state.after_trash,
    )
    if state.HasField("reseasoning"):
        view.reseasoning.CopyFrom(state.reseasoning)
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
            trashed=player.trashed,
        )
    return view


def end_text(end: int, seat: int) -> str:
    if end == pb.GAME_END_THIRD_STAR:
        return f"seat {seat} earned a third star and wins; the others rank by points"
    if end == pb.GAME_END_FIVE_DISHES:
        return f"seat {seat} finished a fifth dish and the round was played out; highest points wins, ties share"
    if end == pb.GAME_END_NO_DISH_TO_PLACE:
        return f"seat {seat} could not place a new dish; highest points wins, ties share"
    return "the game is running"


def _player_block(obs: np.ndarray, i: int, p: Any, to_move: bool) -> None:
    """One player's block, from i."""
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
        for d in range(NUM_CONDIMENTS):
            obs[i + 3 + d] = recipe.needs[d] / 2.0
        obs[i + 3 + NUM_CONDIMENTS] = recipe.points / 10.0
    elif stove.crepe:
        obs[i + 2] = CONTENT.crepe.burnt_at / max_heat
        obs[i + 3 + NUM_CONDIMENTS] = CONTENT.crepe.points / 10.0
    i += 3 + NUM_CONDIMENTS + 1
    for d in range(NUM_CONDIMENTS):
        obs[i + d] = stove.pan[d] / CONTENT.overseasoned_at
    obs[i + NUM_CONDIMENTS] = stove.salt / CONTENT.oversalted_at
    i += NUM_CONDIMENTS + 1
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
    for c in range(NUM_CUP_KINDS):
        obs[i + c] = p.cups[c] / CUP_COUNTS[c]


def _supplies_block(obs: np.ndarray, i: int, view: Any) -> None:
    """Dispensers (pieces, salt), sinks (pieces by dispenser, salt) and the coffee tray, from i."""
    for d, dispenser in enumerate(view.dispensers[:]):  # [:] reads a repeated field once, as a list
        obs[i + 2 * d] = dispenser.pieces / FILL_PIECES[d]
        obs[i + 2 * d + 1] = dispenser.salt / FILL_SALT[d]
    i += 2 * NUM_CONDIMENTS
    sink = view.sink[:]
    for d in range(NUM_CONDIMENTS):
        obs[i + d] = sink[d] / FILL_PIECES[d]
    obs[i + NUM_CONDIMENTS] = view.sink_salt / SALT_TOTAL
    i += NUM_CONDIMENTS + 1
    tray = view.tray[:]
    for c in range(NUM_CUP_KINDS):
        obs[i + c] = tray[c] / CUP_COUNTS[c]


def _dishes_block(obs: np.ndarray, i: int, supply: Any, trash: Any) -> None:
    """The dishes still in the supply, then those in the trash, one-hot by dish, from i."""
    for dish in supply:
        obs[i + dish] = 1.0
    i += NUM_DISHES
    for dish in trash:
        obs[i + dish] = 1.0


def _turn_block(
    obs: np.ndarray,
    i: int,
    stars_left: int,
    phase: int,
    after_dish: int,
    actions_left: int,
    three_spoons_taken: bool,
    flips_this_turn: int,
    last_face: int,
    last_flip: int,
    viewer_to_move: bool,
) -> None:
    """Stars left, phase, after-dish, actions left, three spoons taken (no other cup this turn),
    flips, last face, last flip and whether the viewer is to move, from i."""
    obs[i] = stars_left / CONTENT.stars
    i += 1
    if phase:
        obs[i + phase - 1] = 1.0
    i += NUM_PHASES
    if after_dish:
        obs[i + after_dish - 1] = 1.0
    i += NUM_AFTER
    obs[i] = actions_left / ACTIONS_SCALE
    obs[i + 1] = 1.0 if three_spoons_taken else 0.0
    obs[i + 2] = flips_this_turn / CONTENT.crepe.flips_per_turn
    i += 3
    obs[i + last_face] = 1.0
    i += len(DIE) + 1
    obs[i + last_flip] = 1.0
    i += NUM_FLIPS
    obs[i] = 1.0 if viewer_to_move else 0.0


def _turn_key(view: Any, core: Any) -> tuple[Any, ...]:
    """The arguments of _turn_block after i."""
    return (
        view.stars_left,
        view.phase,
        view.after_dish,
        view.actions_left,
        view.three_spoons_taken,
        view.flips_this_turn,
        view.last_face,
        view.last_flip,
        core.seat_to_move == core.viewer,
    )


def _reference_observation(view: Any) -> np.ndarray:
    """The observation written field by field: the definition `observation` reproduces."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    core = view.core
    n = core.num_players
    me = max(core.viewer, 0)
    for rel in range(n):
        seat = (me + rel) % n
        _player_block(obs, rel * PLAYER_SIZE, view.players[seat], seat == core.seat_to_move)
    _supplies_block(obs, SUPPLIES_OFFSET, view)
    _dishes_block(obs, DISHES_OFFSET, view.supply, view.trash)
    _turn_block(obs, TURN_OFFSET, *_turn_key(view, core))
    return obs


# Row caches. A row is the float32 bytes a writer above puts into a zeroed stretch for one key, and
# the key holds every input the writer reads (wire bytes parse back to the message), so joining rows
# equals calling the writers:
#   _block_rows   a whole player block, keyed by (to move, the PlayerView's wire bytes);
#   _stove_rows   its [0, STOVE_END): present .. dish flags, keyed by (to move, skill, the stove's
#                 wire bytes);
#   _tray_rows    its [STOVE_END, PLAYER_SIZE): finished count .. cups held, keyed by (finished,
#                 crepe, points, stars, victory cups, cups);
#   _dishes_rows  DISHES_OFFSET .. TURN_OFFSET, keyed by (supply, trash);
#   _turn_rows    TURN_OFFSET .. the end, keyed by _turn_key.
# A player seen before in the same state hits _block_rows; a changed one mostly has a new stove or a
# new tray, not both, and is put together from the segment rows; only a segment never seen runs
# _player_block. Rows are only learnt from values inside their one-hots (crepe status, dishes, phase,
# after-dish, faces, flips), where every write stays inside the row; anything else takes
# _reference_observation. Each cache starts over when it grows past _CACHE_LIMIT rows (under 20 MB in
# all; a few thousand stove, tray and turn rows cover long runs of games). The supplies part changes
# with nearly every action and is packed afresh (struct rounds each float64 to float32 once, as a
# store into a float32 array does).
_CACHE_LIMIT = 1 << 13
_block_rows: dict[tuple[bool, bytes], bytes] = {}
_stove_rows: dict[tuple[Any, ...], bytes] = {}
_tray_rows: dict[tuple[Any, ...], bytes] = {}
_dishes_rows: dict[tuple[Any, ...], bytes] = {}
_turn_rows: dict[tuple[Any, ...], bytes] = {}
# The empty blocks after n players, by n.
_EMPTY_BLOCKS = [bytes(4 * PLAYER_SIZE * (MAX_PLAYERS - n)) for n in range(MAX_PLAYERS + 1)]
_pack_supplies = struct.Struct(f"<{DISHES_OFFSET - SUPPLIES_OFFSET}f").pack


def _remember(cache: dict[Any, bytes], key: Any, row: np.ndarray) -> bytes:
    """Caches a row's bytes and returns them."""
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    data = cache[key] = row.tobytes()
    return data


def _block_bytes(p: Any, to_move: bool) -> bytes | None:
    """One player's block from the segment caches, running _player_block for a segment not seen
    yet; None (nothing cached) for a crepe status outside its one-hot."""
    stove_key = (to_move, p.skill, p.stove.SerializeToString())
    tray_key = (tuple(p.finished[:]), p.crepe, p.points, p.stars, p.victory_cups, tuple(p.cups[:]))
    stove_row = _stove_rows.get(stove_key)
    tray_row = _tray_rows.get(tray_key)
    if stove_row is None or tray_row is None:
        if not 0 < p.crepe <= NUM_CREPE:
            return None
        block = np.zeros(PLAYER_SIZE, dtype=np.float32)
        _player_block(block, 0, p, to_move)
        stove_row = _remember(_stove_rows, stove_key, block[:STOVE_END])
        tray_row = _remember(_tray_rows, tray_key, block[STOVE_END:])
    return stove_row + tray_row


def _supplies_bytes(view: Any) -> bytes | None:
    """_supplies_block's floats; None when a repeated field is not its usual length."""
    dispensers = view.dispensers[:]  # [:] reads a repeated field once, as a list
    sink = view.sink[:]
    tray = view.tray[:]
    if len(dispensers) != NUM_CONDIMENTS or len(sink) != NUM_CONDIMENTS or len(tray) != NUM_CUP_KINDS:
        return None
    values: list[float] = []
    for d, dispenser in enumerate(dispensers):
        values.append(dispenser.pieces / FILL_PIECES[d])
        values.append(dispenser.salt / FILL_SALT[d])
    values.extend([sink[d] / FILL_PIECES[d] for d in range(NUM_CONDIMENTS)])
    values.append(view.sink_salt / SALT_TOTAL)
    values.extend([tray[c] / CUP_COUNTS[c] for c in range(NUM_CUP_KINDS)])
    return _pack_supplies(*values)


def _dishes_row(key: tuple[Any, ...]) -> bytes | None:
    """The supply-and-trash row for key (supply, trash); None (not cached) for a dish outside 0 .. n-1."""
    supply, trash = key
    if not all(0 <= dish < NUM_DISHES for dish in supply + trash):
        return None
    row = np.zeros(TURN_OFFSET - DISHES_OFFSET, dtype=np.float32)
    _dishes_block(row, 0, supply, trash)
    return _remember(_dishes_rows, key, row)


def _turn_row(key: tuple[Any, ...]) -> bytes | None:
    """The turn row for key (_turn_key); None (not cached) for a value outside its one-hot."""
    _, phase, after_dish, _, _, _, last_face, last_flip, _ = key
    if not (
        0 <= phase <= NUM_PHASES
        and 0 <= after_dish <= NUM_AFTER
        and 0 <= last_face <= len(DIE)
        and 0 <= last_flip < NUM_FLIPS
    ):
        return None
    row = np.zeros(OBSERVATION_SIZE - TURN_OFFSET, dtype=np.float32)
    _turn_block(row, 0, *key)
    return _remember(_turn_rows, key, row)


def observation(view: Any) -> np.ndarray:
    """Player blocks start with the viewer (seat 0 for the public view) and go round the table."""
    core = view.core
    n = core.num_players
    if n > MAX_PLAYERS:
        return _reference_observation(view)
    me = max(core.viewer, 0)
    seat_to_move = core.seat_to_move
    players = view.players
    block_rows = _block_rows
    runs: list[bytes] = []
    for rel in range(n):
        seat = (me + rel) % n
        p = players[seat]
        key = (seat == seat_to_move, p.SerializeToString())
        row = block_rows.get(key)
        if row is None:
            row = _block_bytes(p, key[0])
            if row is None:
                return _reference_observation(view)
            if len(block_rows) >= _CACHE_LIMIT:
                block_rows.clear()
            block_rows[key] = row
        runs.append(row)
    runs.append(_EMPTY_BLOCKS[n])
    supplies = _supplies_bytes(view)
    if supplies is None:
        return _reference_observation(view)
    runs.append(supplies)
    dishes_key = (tuple(view.supply[:]), tuple(view.trash[:]))
    row = _dishes_rows.get(dishes_key)
    if row is None:
        row = _dishes_row(dishes_key)
        if row is None:
            return _reference_observation(view)
    runs.append(row)
    turn_key = _turn_key(view, core)
    row = _turn_rows.get(turn_key)
    if row is None:
        row = _turn_row(turn_key)
        if row is None:
            return _reference_observation(view)
    runs.append(row)
    return np.frombuffer(bytearray(b"".join(runs)), np.float32)
