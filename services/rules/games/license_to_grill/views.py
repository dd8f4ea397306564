"""What a seat sees (everything but the order of the cooler decks) and the observation tensor built
from that view alone, relative to the viewer: seat offsets count from the viewer (0 = the viewer;
the spectator view counts from seat 0). The layout is listed in docs/rules/license_to_grill.md."""

from __future__ import annotations

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

MAX_PLAYERS = CONTENT.max_players
SETTINGS = len(CONTENT.knobs.settings)
# Scales that keep every feature near [-1, 1]; all derived from content.
POINT_SCALE = float(max(abs(v) for r in RECIPES for v in (*r.prepare, *r.grill, *r.rest)))
BONUS_SCALE = float(max(1, *(r.season for r in RECIPES), *(r.sauce for r in RECIPES)))
SQUARE_SCALE = float(max(r.squares for r in RECIPES))
SCORE_SCALE = float(CONTENT.dishes_to_end * max(r.best_points for r in RECIPES))
COOLER_SIZES = {c: float(sum(1 for r in RECIPES if r.cooler == c)) for c in (pb.COOLER_MEAT, pb.COOLER_VEGGIE)}

# Where a card is, as the first block of its features.
LOC_COOLER, LOC_ON_SHOW, LOC_PREPARE, LOC_MAIN, LOC_RACK, LOC_REST, LOC_SERVED, LOC_RUINED = range(8)
CARD_FEATURES = 8 + MAX_PLAYERS + 8 + 4
GRILL_CELLS = geo.GRILL_AREA.rows * geo.GRILL_AREA.cols
BOARD_CELLS = geo.PREPARE_AREA.rows * geo.PREPARE_AREA.cols + geo.REST_AREA.rows * geo.REST_AREA.cols
TABLE_ROWS = len(CONTENT.tablecloth.rows)
TABLE_MAX_COLS = max(TABLE_COLS.values())
TABLE_FEATURES = 2 + len(ACTION_KINDS)
PLAYER_FEATURES = 6
TURN_FEATURES = len(pb.Phase.values()) + 1 + len(CHOOSE_KINDS) + 1 + len(ACTION_KINDS) + 3 + (MAX_PLAYERS - CONTENT.min_players + 1)

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


def observation(view: Any) -> np.ndarray:
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    n = view.core.num_players
    me = max(view.core.viewer, 0)

    def rel(seat: int) -> int:
        return (seat - me) % n

    # Cards: where each is, whose it is, its cubes.
    where = [LOC_COOLER] * NUM_RECIPES
    owner = [-1] * NUM_RECIPES
    for card in kit.on_show(view):
        where[card] = LOC_ON_SHOW
    for card in view.ruined:
        where[card] = LOC_RUINED
    queue = set(view.advance_queue)
    pending = view.pending_card if view.pending_kind else -1
    for seat, player in enumerate(view.players):
        r_seat = rel(seat)
        for dish in player.served:
            where[dish.card], owner[dish.card] = LOC_SERVED, r_seat
        board = BOARDS_AT + r_seat * BOARD_CELLS
        for rip in player.recipes:
            card = rip.card
            recipe = RECIPES[card]
            owner[card] = r_seat
            off = kit.offset(rip)
            if rip.spot == pb.SPOT_PREPARE:
                where[card] = LOC_PREPARE
                for r, c in geo.PREPARE_BY_OFFSET[card][off].cells:
                    obs[board + r * geo.PREPARE_AREA.cols + c] = 1.0
            elif rip.spot == pb.SPOT_REST:
                where[card] = LOC_REST
                base = board + geo.PREPARE_AREA.rows * geo.PREPARE_AREA.cols
                for r, c in geo.REST_BY_OFFSET[card][off].cells:
                    obs[base + r * geo.REST_AREA.cols + c] = 1.0
            else:
                placement = geo.GRILL_BY_OFFSET[card][off]
                where[card] = LOC_MAIN if placement.section == geo.MAIN_GRILL else LOC_RACK
                for r, c in placement.cells:
                    obs[GRILL_AT + (r * geo.GRILL_AREA.cols + c) * MAX_PLAYERS + r_seat] = 1.0
            i = CARDS_AT + card * CARD_FEATURES + 8 + MAX_PLAYERS
            obs[i] = (rip.prepare_cube + 1) / (len(recipe.prepare) + 1)
            obs[i + 1] = recipe.prepare[rip.prepare_cube] / POINT_SCALE
            if rip.grill_cube >= 0:
                obs[i + 2] = (rip.grill_cube + 1) / (len(recipe.grill) + 1)
                obs[i + 3] = recipe.grill[rip.grill_cube] / POINT_SCALE
            if rip.rest_cube >= 0:
                obs[i + 4] = (rip.rest_cube + 1) / (len(recipe.rest) + 1)
                obs[i + 5] = recipe.rest[rip.rest_cube] / POINT_SCALE
            obs[i + 6] = rip.season_cubes / BONUS_SCALE
            obs[i + 7] = rip.sauce_cubes / BONUS_SCALE
            obs[i + 8] = float(rip.grilled_this_turn)
            obs[i + 9] = float(rip.moved_this_turn)
    for card in range(NUM_RECIPES):
        i = CARDS_AT + card * CARD_FEATURES
        obs[i + where[card]] = 1.0
        if owner[card] >= 0:
            obs[i + 8 + owner[card]] = 1.0
        j = i + 8 + MAX_PLAYERS + 10
        obs[j] = float(card == pending)
        obs[j + 1] = float(card in queue)

    # The tablecloth: in use, taken, icon.
    cols = TABLE_COLS[n]
    taken = view.table_squares
    for r in range(TABLE_ROWS):
        for c in range(TABLE_MAX_COLS):
            i = TABLE_AT + (r * TABLE_MAX_COLS + c) * TABLE_FEATURES
            if c >= cols:
                continue
            obs[i] = 1.0
            obs[i + 1] = float(bool(taken >> (r * cols + c) & 1))
            icon = geo.table_icon(r, c)
            if icon:
                obs[i + 2 + ACTION_KINDS.index(icon)] = 1.0

    # Players.
    for seat, player in enumerate(view.players):
        i = PLAYERS_AT + rel(seat) * PLAYER_FEATURES
        obs[i] = 1.0
        obs[i + 1] = player.score / SCORE_SCALE
        obs[i + 2] = len(player.served) / CONTENT.dishes_to_end
        obs[i + 3] = kit.largest_served(player) / SQUARE_SCALE
        obs[i + 4] = float(seat == view.end_trigger_seat)
        obs[i + 5] = float(seat == view.core.seat_to_move)

    # Knobs and coolers.
    obs[KNOBS_AT + view.meat_knob] = 1.0
    obs[KNOBS_AT + SETTINGS + view.veggie_knob] = 1.0
    obs[KNOBS_AT + 2 * SETTINGS] = view.meat_cooler_size / COOLER_SIZES[pb.COOLER_MEAT]
    obs[KNOBS_AT + 2 * SETTINGS + 1] = view.veggie_cooler_size / COOLER_SIZES[pb.COOLER_VEGGIE]

    # The turn.
    i = TURN_AT
    obs[i + view.phase] = 1.0
    i += len(pb.Phase.values())
    obs[i] = view.actions_left / CONTENT.actions_per_turn
    i += 1
    if view.pending_kind:
        obs[i + CHOOSE_KINDS.index(view.pending_kind)] = 1.0
    i += len(CHOOSE_KINDS)
    obs[i] = float(view.core.seat_to_move == view.core.viewer)
    i += 1
    for icon in view.bonus_icons:
        obs[i + ACTION_KINDS.index(icon)] += 1.0
    i += len(ACTION_KINDS)
    obs[i] = float(view.end_trigger_seat >= 0)
    obs[i + 1] = max(view.final_turns_left, 0) / MAX_PLAYERS
    obs[i + 2] = float(view.core.game_over)
    i += 3
    obs[i + n - CONTENT.min_players] = 1.0
    return obs
