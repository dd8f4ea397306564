"""A plain-text rendering of a view: the board drawn as characters with its chips, the chefs, the
recipes, and the final ranking once the game is over."""

from __future__ import annotations

import math
from typing import Any

from services.rules.games.hibachi.content import (
    BOARD,
    CONTENT,
    RECIPES,
    SPACES,
    ingredient_name,
    recipe_name,
    space_name,
)
from services.rules.games.hibachi.geometry import beyond_edge, distance_to_space, spaces_under_hole
from sizzle.games.hibachi.v1 import hibachi_pb2 as pb

COLUMNS = math.ceil(BOARD.width / BOARD.text_mm_per_column)
ROWS = math.ceil(BOARD.height / BOARD.text_mm_per_row)


def _cell_point(col: int, row: int) -> tuple[float, float]:
    return (col + 0.5) * BOARD.text_mm_per_column, (row + 0.5) * BOARD.text_mm_per_row


def _cell_of(x: float, y: float) -> tuple[int, int]:
    col = min(max(int(x // BOARD.text_mm_per_column), 0), COLUMNS - 1)
    row = min(max(int(y // BOARD.text_mm_per_row), 0), ROWS - 1)
    return col, row


def _blank_board() -> list[list[str]]:
    """The board without chips: '#' for the raised edge, each space outlined with its label."""
    grid = [[" "] * COLUMNS for _ in range(ROWS)]
    inside = [[-1] * COLUMNS for _ in range(ROWS)]
    for row in range(ROWS):
        for col in range(COLUMNS):
            x, y = _cell_point(col, row)
            if beyond_edge(x, y):
                grid[row][col] = "#"
                continue
            for space in SPACES:
                if distance_to_space(space.id, x, y) == 0.0:
                    inside[row][col] = space.id
    for row in range(ROWS):
        for col in range(COLUMNS):
            space = inside[row][col]
            if space < 0:
                continue
            up = row > 0 and inside[row - 1][col] == space
            down = row < ROWS - 1 and inside[row + 1][col] == space
            left = col > 0 and inside[row][col - 1] == space
            right = col < COLUMNS - 1 and inside[row][col + 1] == space
            if not (up and down):
                grid[row][col] = "-"
            elif not (left and right):
                grid[row][col] = "|"
    for space in SPACES:
        cells = [(r, c) for r in range(ROWS) for c in range(COLUMNS) if inside[r][c] == space.id]
        if not cells:
            continue
        top = min(r for r, _ in cells) + 1
        cols = sorted(c for r, c in cells if r == top)
        start = (cols[0] + cols[-1] + 1 - len(space.label)) // 2
        for offset, char in enumerate(space.label):
            if 0 <= start + offset < COLUMNS:
                grid[top][start + offset] = char
    return grid


_BLANK = _blank_board()


def chip_mark(chip: Any) -> str:
    """Two characters: the owner's seat and the value in hundreds of yen ('?' while face down)."""
    value = str(chip.value // 100)[-1] if chip.HasField("value") else "?"
    return f"{chip.owner}{value}"


def board_text(view: Any) -> list[str]:
    """The board as characters. Chips on the board are drawn at their centres; chips already
    activated this round are drawn in brackets where they lay, so the final board still shows the
    last round's throws."""
    grid = [list(row) for row in _BLANK]
    removed = [c for c in view.chips if c.status == pb.CHIP_STATUS_USED and c.arrival >= 0]
    lying = [c for c in view.chips if c.status == pb.CHIP_STATUS_ON_BOARD]
    for chip, mark in [*((c, f"({chip_mark(c)})") for c in removed), *((c, chip_mark(c)) for c in lying)]:
        col, row = _cell_of(chip.x, chip.y)
        col = min(max(col - (len(mark) - 1) // 2, 0), COLUMNS - len(mark))
        grid[row][col : col + len(mark)] = list(mark)
    return ["  " + "".join(row) for row in grid]


def _chip_line(view: Any, seat: int) -> str:
    parts = []
    for chip in view.chips:
        if chip.owner != seat:
            continue
        value = str(chip.value) if chip.HasField("value") else "?"
        if chip.status == pb.CHIP_STATUS_ON_BOARD:
            where = "/".join(space_name(s) for s in chip.spaces) or "no space"
            parts.append(f"{value} on {where} ({chip.x:.0f},{chip.y:.0f})")
        elif chip.status == pb.CHIP_STATUS_INVALID:
            parts.append(f"{value} invalid")
        elif chip.status == pb.CHIP_STATUS_USED:
            where = "/".join(space_name(s) for s in spaces_under_hole(chip.x, chip.y)) or "no space"
            parts.append(f"{value} activated ({where})")
        else:
            parts.append(f"{value} in supply")
    return "; ".join(parts)


def ranking(view: Any) -> list[int]:
    """Ranks by the rulebook's end: three recipes first, ties (and everyone else) on money."""
    keys = [(min(len(p.cooked), CONTENT.recipes_to_win), p.money) for p in view.players]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def render(view: Any) -> str:
    core = view.core
    phase = pb.Phase.Name(view.phase).removeprefix("PHASE_").lower()
    status = "GAME OVER" if core.game_over else f"seat {core.seat_to_move} to move ({phase})"
    lines = [f"Hibachi: Fired Up!  round {view.round}  move {core.move_number}  {status}"]
    lines.append(f"  head chef: seat {view.head_chef}" + (
        f" (seat {view.next_head_chef} takes over next round)" if view.next_head_chef >= 0 else ""
    ))
    lines.extend(board_text(view))
    lines.append("  chips: <seat><value in hundreds>, '?' while face down; (..) already activated this round")
    for p in view.players:
        me = " (you)" if p.seat == core.viewer else ""
        chef = " [head chef]" if p.seat == view.head_chef else ""
        cooked = ", ".join(recipe_name(r) for r in p.cooked) or "-"
        lines.append(
            f"  seat {p.seat}{me}{chef}: {p.money} yen | {p.hand_size} cards | reserve {p.reserve_size}"
            f" | {p.skill} thrower | cooked {len(p.cooked)}: {cooked}"
        )
        lines.append(f"      chips: {_chip_line(view, p.seat)}")
        if p.hand:
            hand = ", ".join(f"{ingredient_name(k)} x{c}" for k, c in enumerate(p.hand) if c) or "no cards"
            lines.append(f"      hand: {hand}")
        if p.reserve:
            lines.append("      reserve: " + ", ".join(recipe_name(r) for r in p.reserve))
    shows = "; ".join(
        f"{recipe_name(r)} ({', '.join(ingredient_name(_kind(i)) for i in RECIPES[r].ingredients)})"
        for r in view.recipes_on_show
    )
    lines.append(f"  recipes on show: {shows or '-'} | deck {view.recipe_deck_size}")
    lines.append("  piles: " + ", ".join(f"{ingredient_name(k)} {c}" for k, c in enumerate(view.piles)))
    if core.game_over:
        ranks = ranking(view)
        lines.append("  final table:")
        for p in sorted(view.players, key=lambda p: (ranks[p.seat], p.seat)):
            winner = "  WINNER" if ranks[p.seat] == 1 else ""
            lines.append(f"    rank {ranks[p.seat]}: seat {p.seat}  recipes {len(p.cooked)}  money {p.money}{winner}")
    return "\n".join(lines)


def _kind(ingredient: int) -> int:
    return list(CONTENT.ingredients).index(ingredient)
