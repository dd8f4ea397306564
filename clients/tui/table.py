"""What the screens say about a match, in words: who sits where, how each seat stands in its game,
what happened, how long a turn has left and the final table. Plain functions of the protos, so the
screens stay thin and these are testable without a terminal."""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable
from functools import cache
from typing import Any

from google.protobuf import any_pb2
from rich.text import Text

from clients.tui.seats import seat_label, seat_name, seat_style, swatch
from sizzle.common.v1 import common_pb2
from sizzle.match.v1 import match_service_pb2 as mpb

# How a seat stands during the game: (label, value of the seat's entry in view.players). Each game
# gives its own columns in its folder (services/rules/games/<game>/standings.py, STANDING_COLUMNS);
# a game without them gets those of these fields its players have. The final score comes with the
# outcome; these are what the view shows on the way there.
Standing = Callable[[Any], str]
GENERIC_FIELDS = ("score", "points", "money", "stars")


@cache
def game_standing_columns(game_id: str) -> list[tuple[str, Standing]] | None:
    """The columns the game gives in the `standings` module beside its engine, or None when this
    client does not know the game or the game gives none."""
    try:
        from services.rules import registry

        engine = registry.get_engine(game_id)
    except Exception:
        return None
    module_name = f"{sys.modules[type(engine).__module__].__package__}.standings"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise  # the module exists but one of its own imports is missing: a real bug
        return None
    return list(module.STANDING_COLUMNS)


def unpack_view(game_id: str, view: any_pb2.Any) -> Any | None:
    """The game's View message, when this client knows the game (else None)."""
    try:
        from services.rules import registry

        engine = registry.get_engine(game_id)
    except Exception:
        return None
    message = engine.View()
    return message if view.Unpack(message) else None


def local_rendering(game_id: str, view: Any) -> str:
    from services.rules import registry

    return registry.get_engine(game_id).render(view)


def _field_reader(name: str) -> Standing:
    return lambda player: str(getattr(player, name))


def standings(game_id: str, view: Any | None) -> tuple[list[str], dict[int, list[str]]]:
    """Column names and, per seat, how it stands in its game (empty when the view is unknown)."""
    players = list(getattr(view, "players", []) or []) if view is not None else []
    if not players:
        return [], {}
    columns = game_standing_columns(game_id)
    if columns is None:
        fields = [name for name in GENERIC_FIELDS if name in players[0].DESCRIPTOR.fields_by_name]
        columns = [(name, _field_reader(name)) for name in fields]
    values: dict[int, list[str]] = {}
    for seat, player in enumerate(players):
        row = []
        for _, value in columns:
            try:
                row.append(value(player))
            except (AttributeError, TypeError):
                row.append("?")
        values[seat] = row
    return [label for label, _ in columns], values


def move_number(view: Any | None) -> int | None:
    """The moves played so far, as the board's header counts them (None when the view is unknown)."""
    core = getattr(view, "core", None) if view is not None else None
    return int(core.move_number) if core is not None else None


def player_rows(match: mpb.Match, viewer: int, game_id: str, view: Any | None) -> tuple[list[str], list[list[str]]]:
    """The players table: a marker for the seat to move, the seat's number, player, then the game's columns."""
    labels, values = standings(game_id, view)
    rows = []
    for entry in match.seats:
        marker = ">" if entry.seat == match.seat_to_move and match.status == mpb.MATCH_STATUS_RUNNING else " "
        name = seat_name(match, entry.seat) + (" (you)" if entry.seat == viewer else "")
        rows.append([marker, str(entry.seat), name, *values.get(entry.seat, [""] * len(labels))])
    return ["", "#", "player", *labels], rows


NAME_COLUMN = 2  # the column that gives way when the table is wider than its panel
SHORTEST_NAME = 6


def fit_widths(header: list[str], rows: list[list[str]], width: int) -> list[int]:
    """Column widths that fit `width` (columns two spaces apart): the player column shrinks first."""
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=False)]
    over = sum(widths) + 2 * (len(widths) - 1) - width
    if over > 0 and len(widths) > NAME_COLUMN:
        widths[NAME_COLUMN] = max(SHORTEST_NAME, widths[NAME_COLUMN] - over)
    return widths


def _cell(text: str, width: int) -> str:
    return text.ljust(width) if len(text) <= width else text[:max(width - 1, 0)] + "…"


def players_text(match: mpb.Match, viewer: int, game_id: str, view: Any | None, width: int = 1000) -> Text:
    """The players table in colour: each seat's row in the seat's colour, the seat to move in bold;
    the player column shortened to fit `width`."""
    header, rows = player_rows(match, viewer, game_id, view)
    widths = fit_widths(header, rows, width - 2)
    text = Text("  " + "  ".join(_cell(c, w) for c, w in zip(header, widths, strict=False)).rstrip(), style="dim")
    for entry, row in zip(match.seats, rows, strict=False):
        text.append("\n")
        text.append_text(swatch(entry.seat))
        line = " " + "  ".join(_cell(c, w) for c, w in zip(row, widths, strict=False)).rstrip()
        text.append(line, style=seat_style(entry.seat, bold=row[0] == ">"))
    return text


def event_line(match: mpb.Match, event: common_pb2.Event) -> str:
    """One event as a line: who (player and seat), then what (a secret only this seat may read in
    brackets). The games' sentences start with "seat N" already: then the player's name is enough."""
    text = event.text + (f" [{event.secret_text}]" if event.secret_text else "")
    if event.seat < 0 or text.startswith(" "):  # the game's own, or a line that carries on the one before
        return text
    if re.match(rf"seat {event.seat}\b", text):
        return f"{seat_name(match, event.seat)}: {text}"
    return f"{seat_label(match, event.seat)}: {text}"


def seconds_left(deadline_unix_ms: int, now_ms: int) -> float:
    return max(0.0, (deadline_unix_ms - now_ms) / 1000)


def clock_text(seconds: float) -> str:
    whole = int(seconds + 0.999)
    return f"{whole // 60}:{whole % 60:02d}"


def timer_text(match: mpb.Match, viewer: int, now_ms: int) -> str:
    """The turn timer (when the match has one and a person is to move) and the game clock."""
    parts = []
    seat = match.seat_to_move
    running = match.status == mpb.MATCH_STATUS_RUNNING
    if running and match.turn_seconds > 0 and 0 <= seat < len(match.seats) and match.turn_deadline_unix_ms \
            and match.seats[seat].kind == mpb.SEAT_KIND_HUMAN:
        whose = "your turn" if seat == viewer else f"{seat_label(match, seat)}'s turn"
        parts.append(f"{whose}: {clock_text(seconds_left(match.turn_deadline_unix_ms, now_ms))} left")
    if running and match.clock_deadline_unix_ms:
        parts.append(f"game clock: {clock_text(seconds_left(match.clock_deadline_unix_ms, now_ms))} left")
    return "  |  ".join(parts)


def final_rows(match: mpb.Match) -> list[list[str]]:
    """The final table, best first: rank, seat, player, score, winner."""
    rows = []
    for result in sorted(match.outcome.results, key=lambda r: (r.rank, r.seat)):
        rows.append([str(result.rank), str(result.seat), seat_name(match, result.seat), f"{result.score:g}",
                     "winner" if result.winner else ""])
    return rows


def final_lines(match: mpb.Match, viewer: int = -1) -> list[tuple[int, str]]:
    """The final table's lines, each with its seat (-1 for the heading and the reason)."""
    rows = final_rows(match)
    names = [name + (" (you)" if seat == str(viewer) else "") for _, seat, name, _, _ in rows]
    width = min(28, max([len("player"), *map(len, names)]))
    lines = [(-1, f"{'rank':<5} {'seat':<5} {'player':<{width}} {'score':>8}")]
    for (rank, seat, _, score, winner), name in zip(rows, names, strict=True):
        lines.append((int(seat), f"{rank:<5} {seat:<5} {name[:width]:<{width}} {score:>8}  {winner}".rstrip()))
    if match.outcome.reason:
        lines.append((-1, f"({match.outcome.reason})"))
    return lines


def final_table(match: mpb.Match, viewer: int = -1) -> str:
    return "\n".join(line for _, line in final_lines(match, viewer))


def final_text(match: mpb.Match, viewer: int = -1) -> Text:
    """The final table in the seats' colours, the winners in bold."""
    text = Text()
    for index, (seat, line) in enumerate(final_lines(match, viewer)):
        if index:
            text.append("\n")
        text.append(line, style=seat_style(seat, bold=line.endswith("winner")) if seat >= 0 else "dim")
    return text


def status_line(match: mpb.Match, viewer: int) -> str:
    """Where the match is, in one sentence for the seat (or spectator) looking at it."""
    if match.status == mpb.MATCH_STATUS_WAITING:
        open_seats = sum(1 for s in match.seats if s.kind == mpb.SEAT_KIND_HUMAN and not s.player_id)
        return f"waiting for {open_seats} more player{'s' if open_seats != 1 else ''} to join"
    if match.status == mpb.MATCH_STATUS_FINISHED:
        winners = [seat_label(match, r.seat) for r in match.outcome.results if r.winner]
        return "game over: " + (" and ".join(winners) + (" wins" if len(winners) == 1 else " win") if winners
                                else "no winner")
    seat = match.seat_to_move
    if seat == viewer and 0 <= seat < len(match.seats) and match.seats[seat].kind == mpb.SEAT_KIND_HUMAN:
        return "your turn: choose an action"
    if match.seat_to_move >= 0:
        return f"{seat_label(match, match.seat_to_move)} is playing"
    return "running"


def format_table(header: list[str], rows: list[list[str]]) -> str:
    """Columns padded to their widest cell (plain text, for a Static)."""
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=False)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)).rstrip()
             for row in [header, *rows]]
    return "\n".join(lines)
