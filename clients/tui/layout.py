"""How the screens share the terminal among the board, the players, the log and the actions, from
80x24 (the common default) up. Pure functions of the terminal's size, so the layout is the same
whatever the game shows and can be tested without a terminal:

- narrow (under WIDE columns): the board across the whole width on top, the players and the log side
  by side under it, the actions under those;
- wide: the board on the left at full height, a column on the right with the players, the actions
  and the log;
- short (under TALL lines): panels have a title line instead of a full frame, to leave lines to them.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

WIDE = 120
TALL = 40
SIDE_SHARE = 0.36  # of a wide screen, for the column on the right
SIDE_MIN, SIDE_MAX = 46, 64
MAX_KEYS = 35  # 1-9 and a-z


@dataclass(frozen=True)
class Layout:
    """Where things go on a terminal of one size."""

    wide: bool  # the board on the left, the rest in a column on the right
    tall: bool  # room for full frames around the panels
    side_width: int  # columns of the right-hand column (wide only)
    action_rows: int  # rows of the action list on the seat's turn (also the page size of the menu)

    @property
    def classes(self) -> tuple[str, ...]:
        return ("wide" if self.wide else "narrow", "tall" if self.tall else "short")


def layout_for(width: int, height: int) -> Layout:
    wide = width >= WIDE
    side = max(SIDE_MIN, min(SIDE_MAX, round(width * SIDE_SHARE))) if wide else 0
    rows = max(3, min(20 if wide else 12, height // 3))
    return Layout(wide=wide, tall=height >= TALL, side_width=side, action_rows=min(rows, MAX_KEYS))


def wrap_board(rendering: str, width: int) -> str:
    """The board's text with lines longer than `width` broken at spaces and carried on under their
    own indentation (plus two), so that nothing is cut at the edge of the screen; lines that fit,
    drawings included, are left as they are."""
    if width <= 0:
        return rendering
    lines = []
    for line in rendering.splitlines():
        if len(line) <= width:
            lines.append(line)
            continue
        indent = " " * min(len(line) - len(line.lstrip(" ")) + 2, width // 2)
        lines.extend(textwrap.wrap(line, width, subsequent_indent=indent, replace_whitespace=False,
                                   drop_whitespace=True, break_on_hyphens=False) or [line[:width]])
    return "\n".join(lines)
