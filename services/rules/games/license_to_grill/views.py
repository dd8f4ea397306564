"""What a seat sees (everything but the order of the cooler decks) and the observation tensor built
from that view alone, relative to the viewer: seat offsets count from the viewer (0 = the viewer;
the spectator view counts from seat 0). The layout is listed in docs/rules/license_to_grill.md."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from services.rules.engine import core_view
from services.rules.games.license_to_grill import geometry as geo
from services.rules.games.license_to_grill import kitchen as kit
from services.rules.games.license_to_grill.content import (
    ACTION_KINDS,
    CHOOSE_KINDS,
    CONTENT,
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
    )
    view.players.extend(state.players)  # player boards and cards are all face up
    return view


def _static_features(n: int) -> np.ndarray:
    """The part of the tensor fixed by the player count: the tablecloth in use and its icons."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
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
PREPARE_CELLS = geo.PREPARE_AREA.rows * geo.PREPARE_AREA.cols


def _bit_row(indices: list[int]) -> np.ndarray:
    """Tensor indices of bits 0..63 of a bitboard (unused bits point at 0; they are never set)."""
    row = np.zeros(64, dtype=np.int64)
    row[: len(indices)] = indices
    return row


def _bit_rows(n: int) -> np.ndarray:
    """Rows of tensor indices for the bitboards `observation` unpacks, in its order: per relative
    seat its Prepare area, its Rest area and its tiles on the grill; then the tablecloth."""
    rows = []
    for r in range(n):
        board = BOARDS_AT + r * BOARD_CELLS
        rows.append(_bit_row([board + j for j in range(PREPARE_CELLS)]))
        rows.append(_bit_row([board + PREPARE_CELLS + j for j in range(BOARD_CELLS - PREPARE_CELLS)]))
        rows.append(_bit_row([GRILL_AT + j * MAX_PLAYERS + r for j in range(GRILL_CELLS)]))
    table = [
        TABLE_AT + (r * TABLE_MAX_COLS + c) * TABLE_FEATURES + 1
        for r in range(TABLE_ROWS)
        for c in range(TABLE_COLS[n])
    ]
    rows.append(_bit_row(table))
    return np.stack(rows)


BIT_ROWS = {n: _bit_rows(n).reshape(-1) for n in TABLE_COLS}
BITBOARD_FORMATS = {n: f"<{3 * n + 1}Q" for n in TABLE_COLS}
DISHES_TO_END = float(CONTENT.dishes_to_end)
SQUARES = [r.squares for r in RECIPES]
CARD_AT_LIST = [CARDS_AT + card * CARD_FEATURES for card in range(NUM_RECIPES)]
CUBES_AT = [CARDS_AT + card * CARD_FEATURES + 8 + MAX_PLAYERS for card in range(NUM_RECIPES)]


def _progress(track: tuple[int, ...], first_blank: bool) -> tuple[list[float], list[float]]:
    """Per cube space: how far along the track (0..1) and the space's points, scaled. With
    `first_blank`, entry 0 is "no cube yet" (cube -1) and the spaces follow."""
    progress = [(i + 1) / (len(track) + 1) for i in range(len(track))]
    points = [v / POINT_SCALE for v in track]
    return ([0.0, *progress], [0.0, *points]) if first_blank else (progress, points)


PREPARE_FEATURES = [_progress(r.prepare, False) for r in RECIPES]
GRILL_FEATURES = [_progress(r.grill, True) for r in RECIPES]
REST_FEATURES = [_progress(r.rest, True) for r in RECIPES]


def observation(view: Any) -> np.ndarray:
    n = view.core.num_players
    obs = STATIC[n].copy()
    me = max(view.core.viewer, 0)
    at: list[int] = []  # indices set to the matching entry of `values`
    values: list[float] = []
    boards = [0] * (3 * n + 1)  # bitboards, in the order of BIT_ROWS

    # Cards: where each is, whose it is, its cubes; the tiles' squares by bitboard.
    where = [LOC_COOLER] * NUM_RECIPES
    owner = [-1] * NUM_RECIPES
    for card in view.meat_on_show:
        where[card] = LOC_ON_SHOW
    for card in view.veggie_on_show:
        where[card] = LOC_ON_SHOW
    for card in view.ruined:
        where[card] = LOC_RUINED
    for seat, player in enumerate(view.players):
        r_seat = (seat - me) % n
        for dish in player.served:
            where[dish.card], owner[dish.card] = LOC_SERVED, r_seat
        grill = 0
        for rip in player.recipes:
            card = rip.card
            owner[card] = r_seat
            spot = rip.spot
            if spot == SPOT_GRILL:
                placement = geo.GRILL_BY_OFFSET[card][kit.offset(rip)]
                grill |= placement.mask
                where[card] = LOC_MAIN if placement.section == geo.MAIN_GRILL else LOC_RACK
            else:
                where[card] = LOC_PREPARE if spot == SPOT_PREPARE else LOC_REST
            prepare_progress, prepare_points = PREPARE_FEATURES[card]
            grill_progress, grill_points = GRILL_FEATURES[card]
            rest_progress, rest_points = REST_FEATURES[card]
            prepare_cube, grill_cube, rest_cube = rip.prepare_cube, rip.grill_cube + 1, rip.rest_cube + 1
            i = CUBES_AT[card]
            at.extend(range(i, i + 10))
            values.extend(
                (
                    prepare_progress[prepare_cube],
                    prepare_points[prepare_cube],
                    grill_progress[grill_cube],
                    grill_points[grill_cube],
                    rest_progress[rest_cube],
                    rest_points[rest_cube],
                    rip.season_cubes / BONUS_SCALE,
                    rip.sauce_cubes / BONUS_SCALE,
                    float(rip.grilled_this_turn),
                    float(rip.moved_this_turn),
                )
            )
        boards[3 * r_seat] = player.prepare_squares
        boards[3 * r_seat + 1] = player.rest_squares
        boards[3 * r_seat + 2] = grill
    boards[3 * n] = view.table_squares
    if view.pending_kind:
        at.append(CUBES_AT[view.pending_card] + 10)
        values.append(1.0)
    for card in view.advance_queue:
        at.append(CUBES_AT[card] + 11)
        values.append(1.0)

    # Players.
    trigger = view.end_trigger_seat
    to_move = view.core.seat_to_move
    for seat, player in enumerate(view.players):
        i = PLAYERS_AT + ((seat - me) % n) * PLAYER_FEATURES
        at.extend(range(i, i + PLAYER_FEATURES))
        dishes = [dish.card for dish in player.served]
        values.extend(
            (
                1.0,
                player.score / SCORE_SCALE,
                len(dishes) / DISHES_TO_END,
                max((SQUARES[card] for card in dishes), default=0) / SQUARE_SCALE,
                float(seat == trigger),
                float(seat == to_move),
            )
        )

    # Knobs and coolers.
    at.extend((KNOBS_AT + view.meat_knob, KNOBS_AT + SETTINGS + view.veggie_knob))
    at.extend((KNOBS_AT + 2 * SETTINGS, KNOBS_AT + 2 * SETTINGS + 1))
    values.extend(
        (
            1.0,
            1.0,
            view.meat_cooler_size / COOLER_SIZES[COOLER_MEAT],
            view.veggie_cooler_size / COOLER_SIZES[COOLER_VEGGIE],
        )
    )

    # The turn.
    i = TURN_AT
    at.append(i + view.phase)
    values.append(1.0)
    i += PHASES
    at.append(i)
    values.append(view.actions_left / CONTENT.actions_per_turn)
    i += 1
    if view.pending_kind:
        at.append(i + CHOOSE_KINDS.index(view.pending_kind))
        values.append(1.0)
    i += len(CHOOSE_KINDS)
    at.append(i)
    values.append(float(view.core.seat_to_move == view.core.viewer))
    i += 1
    for icon in view.bonus_icons:
        at.append(i + ACTION_KINDS.index(icon))
        values.append(float(sum(1 for other in view.bonus_icons if other == icon)))
    i += len(ACTION_KINDS)
    at.extend((i, i + 1, i + 2))
    values.extend(
        (float(view.end_trigger_seat >= 0), max(view.final_turns_left, 0) / MAX_PLAYERS, float(view.core.game_over))
    )

    for card, owned_by in enumerate(owner):
        at.append(CARD_AT_LIST[card] + where[card])
        values.append(1.0)
        if owned_by >= 0:
            at.append(CARD_AT_LIST[card] + 8 + owned_by)
            values.append(1.0)
    obs[np.fromiter(at, dtype=np.intp, count=len(at))] = np.fromiter(values, dtype=np.float32, count=len(values))
    # Bit j of bitboard k lands at k * 64 + j.
    bits = np.unpackbits(np.frombuffer(struct.pack(BITBOARD_FORMATS[n], *boards), dtype=np.uint8), bitorder="little")
    obs[BIT_ROWS[n][bits.view(bool)]] = 1.0
    return obs
