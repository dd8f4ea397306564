"""The panels the table screen and the replay screen share: the board (wrapped to the panel, never
cut), the players (fitted to the panel, each seat in its colour) and the log of what happened (the
last moves highlighted, older ones dimmed)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import ScrollableContainer, VerticalScroll
from textual.widgets import Static

from clients.tui.layout import Layout, wrap_board
from clients.tui.seats import seat_colour
from clients.tui.table import player_rows, players_text
from sizzle.match.v1 import match_service_pb2 as mpb

LOG_SHOWN = 400  # entries of the log kept on screen (the oldest scroll away)
PADDING = 2  # columns of padding of the players panel (one each side, as the CSS says)

# Where the panels go, by the classes `arrange` puts on the app: the screens compose
#   #topbar, #connection, #main(#board-box, #side(#info(#players, #log), ...)), ..., Footer.
PANELS_CSS = """
#topbar { height: 1; background: $panel; padding: 0 1; text-style: bold; }
#main { height: 1fr; }
#board-box { padding: 0 0 0 1; }
#players { padding: 0 1; }
#log { padding: 0 1; height: 1fr; width: 1fr; }

.wide #main { layout: horizontal; }
.wide #board-box { width: 1fr; height: 1fr; }
.wide #side { height: 1fr; }
.wide #info { layout: vertical; height: 1fr; }
.wide #players { height: auto; width: 1fr; }

.narrow #main { layout: vertical; }
.narrow #board-box { width: 1fr; height: 1fr; }
.narrow #side { height: auto; width: 1fr; }
.narrow #info { layout: horizontal; }
.narrow #players { height: 1fr; }

.framed #board-box { border: round $accent; }
.framed #players, .framed #log { border: round $secondary; }
.compact #board-box { border-top: round $accent; }
.compact #players, .compact #log { border-top: round $secondary; }
"""


def arrange(app: App[Any], layout: Layout, seats: int) -> None:
    """Puts the layout's classes on the app and sizes what CSS cannot: the right-hand column of a
    wide screen; on a narrow one, the strip of the players and the log (as tall as the players
    table, the players as wide as their table, at most 55% of the width)."""
    for name in ("wide", "narrow"):
        app.set_class(name in layout.classes, name)
    framed = layout.wide or layout.tall
    app.set_class(framed, "framed")
    app.set_class(not framed, "compact")
    info = app.query_one("#info")
    players = app.query_one("#players", PlayersPanel)
    frame_columns = 2 if framed else 0
    if layout.wide:
        app.query_one("#side").styles.width = layout.side_width
        info.styles.height = "1fr"
        players.styles.width = "1fr"
        players.fit(layout.side_width - frame_columns - PADDING)
        return
    info.styles.height = max(seats + 1, 4) + (2 if framed else 1)
    width = min(players.natural_width() + PADDING + frame_columns, app.size.width * 11 // 20)
    players.styles.width = width
    players.fit(width - PADDING - frame_columns)


class BoardPanel(ScrollableContainer):
    """The game's board as its engine renders the view; lines too long for the panel are wrapped."""

    DEFAULT_CSS = """
    BoardPanel { scrollbar-gutter: stable; scrollbar-size-vertical: 1; }
    BoardPanel > Static { width: auto; }
    """

    def __init__(self, rendering: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rendering = rendering
        self._shown: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="board", markup=False)

    def on_mount(self) -> None:
        self._wrap()

    def show(self, rendering: str) -> None:
        if rendering != self.rendering:
            self.rendering = rendering
            self._wrap()

    def on_resize(self) -> None:
        self._wrap()

    def _wrap(self) -> None:
        text = wrap_board(self.rendering, self.scrollable_content_region.width)
        if text != self._shown:
            self._shown = text
            self.query_one("#board", Static).update(Text(text, no_wrap=True))


class PlayersPanel(Static):
    """The players and how each stands, fitted to the panel's width."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(markup=False, **kwargs)
        self.table: tuple[mpb.Match, int, str, Any] | None = None
        self.fit_width = 0  # the columns it has (set by `arrange`, which sizes it); 0: unshortened
        self._shown: str | None = None

    def show(self, match: mpb.Match, viewer: int, game_id: str, view: Any | None) -> None:
        self.table = (match, viewer, game_id, view)
        self._fit()

    def natural_width(self) -> int:
        """Columns the table takes unshortened (with its colour dots)."""
        if self.table is None:
            return 0
        header, rows = player_rows(*self.table)
        widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=False)]
        return 2 + sum(widths) + 2 * (len(widths) - 1)

    def fit(self, width: int) -> None:
        self.fit_width = width
        self._fit()

    def _fit(self) -> None:
        if self.table is None:
            return
        text = players_text(*self.table, width=self.fit_width or self.natural_width())
        if text.plain != self._shown:
            self._shown = text.plain
            self.update(text)


@dataclass
class LogEntry:
    """A line of the log: an event of a move, or a note of this screen (your choice, your turn)."""

    text: str
    seat: int = -1  # whose colour it takes (-1: none)
    move: int = -1  # the move it belongs to, counted from the start of the log (-1: a note)
    style: str = ""  # a note's own style


class EventLog(VerticalScroll):
    """What happened, newest at the bottom; the moves of the last round stand out in their seat's
    colour (the newest in bold), older ones are dimmed. It follows the newest line unless the person
    scrolled up to read."""

    DEFAULT_CSS = "EventLog { scrollbar-size-vertical: 1; }"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entries: list[LogEntry] = []
        self.moves = 0
        self.highlighted = 4  # moves that stand out: a round at the table

    def compose(self) -> ComposeResult:
        yield Static(id="events", markup=False)

    def on_mount(self) -> None:
        self.anchor()  # stays at the newest line while more come, until the person scrolls up

    def add_move(self, lines: list[tuple[int, str]]) -> None:
        """The lines of one move, each with its seat."""
        self.entries.extend(LogEntry(text, seat, self.moves) for seat, text in lines)
        self.moves += 1
        self._write_lines()

    def replace(self, moves: list[list[tuple[int, str]]]) -> None:
        """The log made of these moves only (the replay shows the steps up to the one it is at)."""
        self.entries, self.moves = [], 0
        for lines in moves:
            self.entries.extend(LogEntry(text, seat, self.moves) for seat, text in lines)
            self.moves += 1
        self._write_lines()

    def add_note(self, text: str, style: str = "italic") -> None:
        self.entries.append(LogEntry(text, style=style))
        self._write_lines()

    def plain(self) -> str:
        return "\n".join(entry.text for entry in self.entries)

    def _style(self, entry: LogEntry) -> Style | str:
        if entry.move < 0:
            return entry.style
        if entry.move < self.moves - self.highlighted:
            return "dim"
        colour = seat_colour(entry.seat) if entry.seat >= 0 else None
        return Style(color=colour, bold=entry.move == self.moves - 1)

    def _write_lines(self) -> None:
        text = Text()
        for index, entry in enumerate(self.entries[-LOG_SHOWN:]):
            if index:
                text.append("\n")
            text.append(entry.text, style=self._style(entry))
        self.query_one("#events", Static).update(text)
