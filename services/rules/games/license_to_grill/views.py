"""What a seat sees (everything but the order of the cooler decks) and the observation tensor built
from that view alone, relative to the viewer: seat offsets count from the viewer (0 = the viewer;
the spectator view counts from seat 0). The layout is listed in docs/rules/license_to_grill.md."""

from __future__ import annotations

from typing import Any

import numpy as np

from services.rules.engine import core_view
from services.rules.games.license_to_grill import geometry as geo
from services.rules.games.license_to_grill.content import (
    ACTION_KINDS,
    CHOOSE_KINDS,
    CONTENT,
    LAYOUT,
    NUM_RECIPES,
    RECIPES,
    TABLE_COLS,
)
from sizzle.games.license_to_grill.v1 import license_to_grill_pb2 as pb
from sizzle.games.license_to_grill.v1.license_to_grill_pb2 import (  # enum values: module globals are fast
    COOLER_MEAT,
    COOLER_VEGGIE,
    SPOT_GRILL,
    SPOT_PREPARE,
)

MAX_PLAYERS = CONTENT.max_players
SETTINGS = len(CONTENT.knobs.settings)
# Scales that keep every feature near [-1, 1]; all derived from content.
POINT_SCALE = float(max(abs(v) for r in RECIPES for v in (*r.prepare, *r.grill, *r.rest)))
BONUS_SCALE = float(max(1, *(r.season for r in RECIPES), *(r.sauce for r in RECIPES)))
SQUARE_SCALE = float(max(r.squares for r in RECIPES))
SCORE_SCALE = float(CONTENT.dishes_to_end * max(r.best_points for r in RECIPES))
COOLER_SIZES = {c: float(sum(1 for r in RECIPES if r.cooler == c)) for c in (COOLER_MEAT, COOLER_VEGGIE)}

# Where a card is, as the first block of its features.
LOC_COOLER, LOC_ON_SHOW, LOC_PREPARE, LOC_MAIN, LOC_RACK, LOC_REST, LOC_SERVED, LOC_RUINED = range(8)
CARD_FEATURES = 8 + MAX_PLAYERS + 8 + 4
GRILL_CELLS = geo.GRILL_AREA.rows * geo.GRILL_AREA.cols
BOARD_CELLS = geo.PREPARE_AREA.rows * geo.PREPARE_AREA.cols + geo.REST_AREA.rows * geo.REST_AREA.cols
TABLE_ROWS = len(CONTENT.tablecloth.rows)
TABLE_MAX_COLS = max(TABLE_COLS.values())
TABLE_FEATURES = 2 + len(ACTION_KINDS)
PLAYER_FEATURES = 6
PHASES = len(pb.Phase.values())
TURN_FEATURES = PHASES + 1 + len(CHOOSE_KINDS) + 1 + len(ACTION_KINDS) + 3 + (MAX_PLAYERS - CONTENT.min_players + 1)

CARDS_AT = 0
GRILL_AT = CARDS_AT + NUM_RECIPES * CARD_FEATURES
BOARDS_AT = GRILL_AT + GRILL_CELLS * MAX_PLAYERS
TABLE_AT = BOARDS_AT + BOARD_CELLS * MAX_PLAYERS
PLAYERS_AT = TABLE_AT + TABLE_ROWS * TABLE_MAX_COLS * TABLE_FEATURES
KNOBS_AT = PLAYERS_AT + PLAYER_FEATURES * MAX_PLAYERS
TURN_AT = KNOBS_AT + 2 * SETTINGS + 2
OBSERVATION_SIZE = TURN_AT + TURN_FEATURES


def make_view(state: Any, seat: int) -> pb.View:
    view = pb.View(
        core=core_view(state, seat),
        phase=state.phase,
        actions_left=state.actions_left,
        pending_kind=state.pending_kind,
        pending_card=state.pending_card,
        bonus_icons=state.bonus_icons,
        advance_queue=state.advance_queue,
        meat_knob=state.meat_knob,
        veggie_knob=state.veggie_knob,
        meat_cooler_size=len(state.meat_cooler),
        veggie_cooler_size=len(state.veggie_cooler),
        meat_on_show=state.meat_on_show,
        veggie_on_show=state.veggie_on_show,
        table=state.table,
        ruined=state.ruined,
        end_trigger_seat=state.end_trigger_seat,
        final_turns_left=state.final_turns_left,
        turn_number=state.turn_number,
        end_reason=state.end_reason,
        grill_squares=state.grill_squares,
        table_squares=state.table_squares,
        quiet_turns=state.quiet_turns,
    )
    view.players.extend(state.players)  # player boards and cards are all face up
    return view


def _static_features(n: int) -> np.ndarray:
    """The part of the tensor fixed by the player count, the tablecloth in use and its icons, and where
    every card starts: in a cooler deck, no owner."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    for card in range(NUM_RECIPES):
        obs[CARDS_AT + card * CARD_FEATURES + LOC_COOLER] = 1.0
    for r in range(TABLE_ROWS):
        for c in range(TABLE_COLS[n]):
            i = TABLE_AT + (r * TABLE_MAX_COLS + c) * TABLE_FEATURES
            obs[i] = 1.0
            icon = geo.table_icon(r, c)
            if icon:
                obs[i + 2 + ACTION_KINDS.index(icon)] = 1.0
    obs[TURN_AT + TURN_FEATURES - (MAX_PLAYERS - CONTENT.min_players + 1) + n - CONTENT.min_players] = 1.0
    return obs


STATIC = {n: _static_features(n) for n in TABLE_COLS}

# The rest of `observation` writes precomputed float32 rows and scalars through a memoryview of the
# tensor; the tables below are built from the same float64 values the features were always computed
# from, so every float32 is rounded the same way.
CARD_AT = [CARDS_AT + card * CARD_FEATURES for card in range(NUM_RECIPES)]
CUBES_AT = [at + 8 + MAX_PLAYERS for at in CARD_AT]  # a card's cube block, after where (8) and owner

# A card's first features, where it is (8) and its owner's relative seat (MAX_PLAYERS), as one row per
# (owner + 1, where), owner -1 meaning none: every assignment writes the whole row, so the last one wins
# (STATIC has every card in a cooler deck).
WHERE_FEATURES = 8 + MAX_PLAYERS


def _where_row(owner: int, where: int) -> memoryview:
    row = np.zeros(WHERE_FEATURES, dtype=np.float32)
    row[where] = 1.0
    if owner >= 0:
        row[8 + owner] = 1.0
    return row.data


WHERE_ROWS = [[_where_row(owner, where) for where in range(8)] for owner in range(-1, MAX_PLAYERS)]
UNOWNED = WHERE_ROWS[0]
WHERE_AT = [slice(at, at + WHERE_FEATURES) for at in CARD_AT]


def _progress(track: tuple[int, ...], first_blank: bool) -> tuple[list[float], list[float]]:
    """Per cube space: how far along the track (0..1) and the space's points, scaled. With
    `first_blank`, entry 0 is "no cube yet" (cube -1) and the spaces follow."""
    progress = [(i + 1) / (len(track) + 1) for i in range(len(track))]
    points = [v / POINT_SCALE for v in track]
    return ([0.0, *progress], [0.0, *points]) if first_blank else (progress, points)


def _track_rows(recipe: Any) -> list[list[list[memoryview]]]:
    """A recipe's first six cube features (Prepare, Grill and Rest progress and points) as float32 rows
    indexed [prepare_cube][grill_cube + 1][rest_cube + 1], slices of one array."""
    prepare = list(zip(*_progress(recipe.prepare, False), strict=True))  # (progress, points) per cube space
    grill = list(zip(*_progress(recipe.grill, True), strict=True))
    rest = list(zip(*_progress(recipe.rest, True), strict=True))
    table = np.array([(*p, *g, *r) for p in prepare for g in grill for r in rest], dtype=np.float32)
    values = table.reshape(-1).data

    def row(p: int, g: int, r: int) -> memoryview:
        k = 6 * ((p * len(grill) + g) * len(rest) + r)
        return values[k : k + 6]

    return [[[row(p, g, r) for r in range(len(rest))] for g in range(len(grill))] for p in range(len(prepare))]


TRACK_ROWS = [_track_rows(r) for r in RECIPES]
TRACK_AT = [slice(at, at + 6) for at in CUBES_AT]
# Per recipe, its grill placements by offset (LAYOUT.offset of rotation, row and col): where the card is
# (LOC_MAIN or LOC_RACK) and, per relative seat, the grill-square features its tile covers.
GRILL_SPOTS = [
    {
        offset: (
            LOC_MAIN if p.section == geo.MAIN_GRILL else LOC_RACK,
            tuple(
                tuple(GRILL_AT + j * MAX_PLAYERS + r for j in range(GRILL_CELLS) if p.mask >> j & 1)
                for r in range(MAX_PLAYERS)
            ),
        )
        for offset, p in by_offset.items()
    }
    for by_offset in geo.GRILL_BY_OFFSET
]
PLACE_ROWS = LAYOUT.place_rows
PLACE_COLS = LAYOUT.place_cols
SQUARES = [r.squares for r in RECIPES]
DISHES_TO_END = float(CONTENT.dishes_to_end)

# Taken squares, read from the bitboards in chunks of up to 16 squares (a Prepare area, a Rest area, a
# tablecloth row): bit j of a 16-bit value v as a float32 (1.0 or 0.0) is BIT_VALUES[CHUNK * v + j], so
# a chunk's features are one slice of it.
PREPARE_CELLS = geo.PREPARE_AREA.rows * geo.PREPARE_AREA.cols
REST_CELLS = BOARD_CELLS - PREPARE_CELLS
CHUNK = 16
assert max(PREPARE_CELLS, REST_CELLS, TABLE_MAX_COLS) <= CHUNK, "bitboard chunks are at most 16 squares"
_BITS = np.unpackbits(np.arange(1 << CHUNK, dtype="<u2").view(np.uint8), bitorder="little")
BIT_VALUES = _BITS.astype(np.float32).data
# Per relative seat, the slices of its Prepare and Rest areas' squares.
PREPARE_AT = [slice(at, at + PREPARE_CELLS) for at in range(BOARDS_AT, TABLE_AT, BOARD_CELLS)]
REST_AT = [slice(at + PREPARE_CELLS, at + BOARD_CELLS) for at in range(BOARDS_AT, TABLE_AT, BOARD_CELLS)]


def _table_rows(n: int) -> tuple[tuple[int, slice], ...]:
    """Per tablecloth row in use: the shift of its bits in table_squares and the slice of its squares'
    "taken" features (one every TABLE_FEATURES)."""
    cols = TABLE_COLS[n]
    rows = []
    for r in range(TABLE_ROWS):
        taken = TABLE_AT + r * TABLE_MAX_COLS * TABLE_FEATURES + 1  # square (r, 0)
        rows.append((r * cols, slice(taken, taken + cols * TABLE_FEATURES, TABLE_FEATURES)))
    return tuple(rows)


TABLE_ROWS_AT = {n: _table_rows(n) for n in TABLE_COLS}
ACTIONS_PER_TURN = float(CONTENT.actions_per_turn)
COOLER_MEAT_SIZE = COOLER_SIZES[COOLER_MEAT]
COOLER_VEGGIE_SIZE = COOLER_SIZES[COOLER_VEGGIE]
# Offsets of the turn block's features (TURN_AT is the phase), in the order of the layout.
TURN_ACTIONS_LEFT = TURN_AT + PHASES
TURN_PENDING_KIND = TURN_ACTIONS_LEFT + 1
TURN_VIEWER_TO_MOVE = TURN_PENDING_KIND + len(CHOOSE_KINDS)
TURN_ICONS = TURN_VIEWER_TO_MOVE + 1
TURN_END_TRIGGERED = TURN_ICONS + len(ACTION_KINDS)
TURN_FINAL_TURNS = TURN_END_TRIGGERED + 1
TURN_GAME_OVER = TURN_END_TRIGGERED + 2


def observation(view: Any) -> np.ndarray:
    core = view.core
    n = core.num_players
    viewer = core.viewer
    to_move = core.seat_to_move
    obs = STATIC[n].copy()
    out: Any = obs.data  # float32 memoryview: its writes cost a fraction of numpy item assignment
    me = max(viewer, 0)

    # Cards: where each is and whose it is, their cubes; the squares their tiles take. Repeated fields
    # are read as lists ([:]): iterating them directly ends on an IndexError, which costs more.
    where_at = WHERE_AT
    for card in view.meat_on_show[:]:
        out[where_at[card]] = UNOWNED[LOC_ON_SHOW]
    for card in view.veggie_on_show[:]:
        out[where_at[card]] = UNOWNED[LOC_ON_SHOW]
    for card in view.ruined[:]:
        out[where_at[card]] = UNOWNED[LOC_RUINED]
    trigger = view.end_trigger_seat
    track_rows = TRACK_ROWS
    grill_spots = GRILL_SPOTS
    for seat, player in enumerate(view.players[:]):
        r_seat = (seat - me) % n
        owned = WHERE_ROWS[r_seat + 1]

        # The player: present, score, dishes served, largest dish, triggered the end, to move.
        i = PLAYERS_AT + r_seat * PLAYER_FEATURES
        out[i] = 1.0
        score = player.score
        if score:
            out[i + 1] = score / SCORE_SCALE
        served = player.served[:]
        if served:
            largest = 0
            for dish in served:
                card = dish.card
                out[where_at[card]] = owned[LOC_SERVED]
                if SQUARES[card] > largest:
                    largest = SQUARES[card]
            out[i + 2] = len(served) / DISHES_TO_END
            out[i + 3] = largest / SQUARE_SCALE
        if seat == trigger:
            out[i + 4] = 1.0
        if seat == to_move:
            out[i + 5] = 1.0

        # Its recipes in play: where, the cubes on their tracks, bonus cubes, this turn's moves; the grill
        # squares their tiles cover.
        for rip in player.recipes[:]:
            card = rip.card
            spot = rip.spot
            if spot == SPOT_GRILL:
                where, cells = grill_spots[card][(rip.rotation * PLACE_ROWS + rip.row) * PLACE_COLS + rip.col]
                for cell in cells[r_seat]:
                    out[cell] = 1.0
            else:
                where = LOC_PREPARE if spot == SPOT_PREPARE else LOC_REST
            out[where_at[card]] = owned[where]
            out[TRACK_AT[card]] = track_rows[card][rip.prepare_cube][rip.grill_cube + 1][rip.rest_cube + 1]
            i = CUBES_AT[card]  # bonus cubes at +6 and +7, this turn's moves at +8 and +9
            season = rip.season_cubes
            if season:
                out[i + 6] = season / BONUS_SCALE
            sauce = rip.sauce_cubes
            if sauce:
                out[i + 7] = sauce / BONUS_SCALE
            if rip.grilled_this_turn:
                out[i + 8] = 1.0
            if rip.moved_this_turn:
                out[i + 9] = 1.0

        # Its Prepare and Rest areas' taken squares.
        squares = player.prepare_squares
        if squares:
            j = CHUNK * squares
            out[PREPARE_AT[r_seat]] = BIT_VALUES[j : j + PREPARE_CELLS]
        squares = player.rest_squares
        if squares:
            j = CHUNK * squares
            out[REST_AT[r_seat]] = BIT_VALUES[j : j + REST_CELLS]

    # The tablecloth's taken squares, row by row.
    squares = view.table_squares
    if squares:
        cols = TABLE_COLS[n]
        row_mask = (1 << cols) - 1
        for shift, taken in TABLE_ROWS_AT[n]:
            row = squares >> shift & row_mask
            if row:
                j = CHUNK * row
                out[taken] = BIT_VALUES[j : j + cols]

    # The pending recipe, and those waiting for a knob choice (their last two cube features).
    pending = view.pending_kind
    if pending:
        out[CUBES_AT[view.pending_card] + 10] = 1.0
    for card in view.advance_queue[:]:
        out[CUBES_AT[card] + 11] = 1.0

    # Knobs and coolers.
    out[KNOBS_AT + view.meat_knob] = 1.0
    out[KNOBS_AT + SETTINGS + view.veggie_knob] = 1.0
    out[KNOBS_AT + 2 * SETTINGS] = view.meat_cooler_size / COOLER_MEAT_SIZE
    out[KNOBS_AT + 2 * SETTINGS + 1] = view.veggie_cooler_size / COOLER_VEGGIE_SIZE

    # The turn.
    out[TURN_AT + view.phase] = 1.0
    out[TURN_ACTIONS_LEFT] = view.actions_left / ACTIONS_PER_TURN
    if pending:
        out[TURN_PENDING_KIND + CHOOSE_KINDS.index(pending)] = 1.0
    if to_move == viewer:
        out[TURN_VIEWER_TO_MOVE] = 1.0
    for icon in view.bonus_icons[:]:  # how many of each kind are covered
        out[TURN_ICONS + ACTION_KINDS.index(icon)] += 1.0
    if trigger >= 0:
        out[TURN_END_TRIGGERED] = 1.0
    final_turns = view.final_turns_left
    if final_turns > 0:
        out[TURN_FINAL_TURNS] = final_turns / MAX_PLAYERS
    if core.game_over:
        out[TURN_GAME_OVER] = 1.0
    return obs
