"""How the screens name a seat: by its player and its number, as the boards do ("seat 2"), and in
the seat's own colour, so that three "medium bot" players are never mixed up. One home for the
names and colours every screen uses (table, log, status line, final table, lobby)."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from sizzle.match.v1 import match_service_pb2 as mpb

# One colour per seat number, bright enough on a dark terminal and told apart on a 16-colour one.
SEAT_COLOURS = ("bright_red", "bright_blue", "bright_green", "bright_yellow", "bright_magenta", "bright_cyan",
                "red", "blue", "green", "yellow")
# The colour's name for people (docs/clients.md lists it with the seats).
COLOUR_WORDS = ("red", "blue", "green", "yellow", "magenta", "cyan", "dark red", "dark blue", "dark green",
                "dark yellow")
SWATCH = "●"


def seat_colour(seat: int) -> str:
    """The rich colour of a seat (the game's own lines have none)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)] if seat >= 0 else "default"


def seat_style(seat: int, bold: bool = False) -> Style:
    return Style(color=seat_colour(seat), bold=bold) if seat >= 0 else Style(bold=bold)


def seat_name(match: mpb.Match, seat: int) -> str:
    """The seat's player as the seats list says it ("alice", "medium bot", "seat 2 (open)")."""
    if not 0 <= seat < len(match.seats):
        return "the game"
    entry = match.seats[seat]
    if entry.kind == mpb.SEAT_KIND_HUMAN and not entry.player_id:
        return f"seat {seat} (open)"
    name = entry.display_name or f"seat {seat}"
    if entry.taken_over:
        name += " (bot plays on)"
    return name


def seat_label(match: mpb.Match, seat: int) -> str:
    """The seat for a sentence: its player and number ("medium bot (seat 2)"), distinct at every table."""
    if not 0 <= seat < len(match.seats):
        return "the game"
    entry = match.seats[seat]
    if entry.kind == mpb.SEAT_KIND_HUMAN and not entry.player_id:
        return f"seat {seat} (open)"
    name = entry.display_name or "a player"
    return f"{name} (seat {seat}, bot plays on)" if entry.taken_over else f"{name} (seat {seat})"


def seat_text(match: mpb.Match, seat: int, bold: bool = True) -> Text:
    """seat_label in the seat's colour."""
    return Text(seat_label(match, seat), style=seat_style(seat, bold))


def swatch(seat: int) -> Text:
    """A dot in the seat's colour (a blank for the game itself)."""
    return Text(SWATCH if seat >= 0 else " ", style=seat_style(seat))
