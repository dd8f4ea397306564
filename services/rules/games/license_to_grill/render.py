"""A plain-text table of a License to Grill view for logs and terminals; once the game is over it
ends with the final standings (score, dishes, largest dish, rank)."""

from __future__ import annotations

import string
from typing import Any

from services.rules.games.license_to_grill import geometry as geo
from services.rules.games.license_to_grill import kitchen as kit
from services.rules.games.license_to_grill.content import (
    CONTENT,
    KNOB_NAMES,
    MAIN_ADVANCE,
    RACK_ADVANCE,
    RECIPES,
    SYMBOL_OF_ICON,
    TABLE_COLS,
    kind_name,
    recipe_name,
)
from sizzle.games.license_to_grill.v1 import license_to_grill_pb2 as pb
from sizzle.games.license_to_grill.v1.license_to_grill_pb2 import (  # enum values: module globals are fast
    END_REASON_DISHES_SERVED,
    END_REASON_STALEMATE,
    SPOT_GRILL,
    SPOT_PREPARE,
    SPOT_REST,
)

LABELS = string.ascii_uppercase + string.ascii_lowercase


def _track(values: tuple[int, ...], cube: int) -> str:
    spaces = [f"[{v}]" if i == cube else str(v) for i, v in enumerate(values)]
    return " ".join([*spaces, "X"])


def _knob(setting: int) -> str:
    return f"{KNOB_NAMES[setting]} (main +{MAIN_ADVANCE[setting]}, rack +{RACK_ADVANCE[setting]})"


def _grid(rows: int, cols: int, pieces: list[tuple[str, geo.Placement]], blank: Any) -> list[list[str]]:
    cells = [[blank(r, c) for c in range(cols)] for r in range(rows)]
    for label, placement in pieces:
        for r, c in placement.cells:
            cells[r][c] = label
    return cells


def _recipe_lines(rip: Any) -> list[str]:
    recipe = RECIPES[rip.card]
    if rip.spot == SPOT_PREPARE:
        where = "prepare area"
    elif rip.spot == SPOT_REST:
        where = "rest area"
    else:
        section = kit.grill_placement(rip).section
        where = "warming rack" if section == geo.WARMING_RACK else "main grill"
    flags = " (grilled this turn)" if rip.grilled_this_turn else ""
    lines = [f"    {recipe.name} [{where}]{flags}  now worth {kit.dish_points(rip)}"]
    lines.append(
        f"      prepare {_track(recipe.prepare, rip.prepare_cube)}"
        f" | season {rip.season_cubes}/{recipe.season} | sauce {rip.sauce_cubes}/{recipe.sauce}"
    )
    lines.append(f"      grill {_track(recipe.grill, rip.grill_cube)} | rest {_track(recipe.rest, rip.rest_cube)}")
    return lines


def standings(view: Any) -> list[tuple[int, int, int, int, int]]:
    """(rank, seat, score, dishes, largest) per seat, best first; equal keys share a rank."""
    keys = [(p.score, len(p.served), kit.largest_served(p)) for p in view.players]
    rows = []
    for seat, key in enumerate(keys):
        rank = 1 + sum(1 for other in keys if other > key)
        rows.append((rank, seat, *key))
    return sorted(rows)


def render_view(view: Any) -> str:
    n = view.core.num_players
    phase = pb.Phase.Name(view.phase).removeprefix("PHASE_").lower().replace("_", " ")
    if view.core.game_over:
        status = "GAME OVER"
    else:
        status = f"seat {view.core.seat_to_move} to move: {phase}, {view.actions_left} action(s) left"
        if view.pending_kind:
            status += f", pending {kind_name(view.pending_kind)} {recipe_name(view.pending_card)}"
        if view.bonus_icons:
            status += ", covered icons: " + ", ".join(kind_name(k) for k in view.bonus_icons)
    lines = [f"License to Grill  {n} players  turn {view.turn_number}  move {view.core.move_number}  {status}"]
    if view.end_trigger_seat >= 0 and not view.core.game_over:
        lines.append(f"  last round: seat {view.end_trigger_seat} served dish {CONTENT.dishes_to_end}")
    if view.quiet_turns and not view.core.game_over:
        limit = CONTENT.stalemate_rounds * n
        lines.append(f"  no action spent for {view.quiet_turns} turns (stalemate at {limit})")
    lines.append(f"  knobs: meat {_knob(view.meat_knob)} | veggie {_knob(view.veggie_knob)}")
    for name, size, shown in (
        ("meat", view.meat_cooler_size, view.meat_on_show),
        ("veggie", view.veggie_cooler_size, view.veggie_on_show),
    ):
        cards = ", ".join(f"{recipe_name(c)} ({RECIPES[c].squares} sq)" for c in shown) or "-"
        lines.append(f"  {name} cooler: {size} in the deck; on show: {cards}")

    # The grill, with a letter per tile.
    pieces: list[tuple[str, geo.Placement]] = []
    legend: list[str] = []
    for seat, player in enumerate(view.players):
        for rip in player.recipes:
            if rip.spot == SPOT_GRILL:
                label = LABELS[len(pieces) % len(LABELS)]
                pieces.append((label, kit.grill_placement(rip)))
                legend.append(f"{label} = {recipe_name(rip.card)} (seat {seat})")
    grid = _grid(geo.GRILL_AREA.rows, geo.GRILL_AREA.cols, pieces, lambda r, c: ".")
    meat = CONTENT.grill.meat_cols
    lines.append("  grill (meat | veggie):")
    for r, row in enumerate(grid):
        if r == CONTENT.grill.warming_rack_rows:
            lines.append("           " + "-" * (2 * geo.GRILL_AREA.cols + 2))
        section = "rack" if r < CONTENT.grill.warming_rack_rows else "main"
        lines.append(f"    {section} {r}  " + " ".join(row[:meat]) + " | " + " ".join(row[meat:]))
    if legend:
        lines.append("    " + "; ".join(legend))

    # The tablecloth: icons on free squares in lower case, served tiles by letter.
    cols = TABLE_COLS[n]
    table_pieces, table_legend = [], []
    for index, piece in enumerate(view.table):
        label = LABELS[index % len(LABELS)]
        placement = geo.TABLE_BY_OFFSET[n][piece.card][kit.offset(piece)]
        table_pieces.append((label, placement))
        table_legend.append(f"{label} = {recipe_name(piece.card)} (seat {piece.seat})")

    def icon(r: int, c: int) -> str:
        kind = geo.table_icon(r, c)
        return SYMBOL_OF_ICON[kind].lower() if kind else "."

    lines.append(f"  tablecloth ({len(CONTENT.tablecloth.rows)} x {cols}; icons in lower case):")
    for row in _grid(len(CONTENT.tablecloth.rows), cols, table_pieces, icon):
        lines.append("    " + " ".join(row))
    if table_legend:
        lines.append("    " + "; ".join(table_legend))

    # The players.
    for seat, player in enumerate(view.players):
        me = " (you)" if seat == view.core.viewer else ""
        dishes = ", ".join(f"{recipe_name(d.card)} {d.points}" for d in player.served) or "-"
        lines.append(f"  seat {seat}{me}: score {player.score}, served {len(player.served)}: {dishes}")
        for rip in player.recipes:
            lines.extend(_recipe_lines(rip))
    if view.ruined:
        lines.append("  ruined: " + ", ".join(recipe_name(c) for c in view.ruined))

    if view.core.game_over:
        reason = {END_REASON_DISHES_SERVED: "dishes served", END_REASON_STALEMATE: "stalemate"}.get(
            view.end_reason, "coolers empty"
        )
        lines.append(f"  final table ({reason}):")
        lines.append(f"    {'rank':<5} {'seat':<5} {'score':>6} {'dishes':>7} {'largest':>8}")
        for rank, seat_no, score, dish_count, largest in standings(view):
            crown = "  winner" if rank == 1 else ""
            lines.append(f"    {rank:<5} {seat_no:<5} {score:>6} {dish_count:>7} {largest:>8}{crown}")
    return "\n".join(lines)
