"""Where the screens put things at the sizes people use, and the board wrapped instead of cut."""

from __future__ import annotations

from clients.tui.layout import layout_for, wrap_board
from clients.tui.menu import KEYS
from clients.tui.table import fit_widths, players_text
from sizzle.match.v1 import match_service_pb2 as mpb


def test_80x24_stacks_the_panels_and_160x50_puts_the_board_beside_them() -> None:
    small = layout_for(80, 24)
    assert not small.wide and not small.tall and small.classes == ("narrow", "short")
    assert 6 <= small.action_rows <= 8  # the actions, the board and the log all keep some lines
    big = layout_for(160, 50)
    assert big.wide and big.tall and 46 <= big.side_width <= 64 and 160 - big.side_width >= 96
    assert big.action_rows > small.action_rows
    assert layout_for(300, 200).action_rows <= len(KEYS)  # never more than there are keys


def test_long_board_lines_wrap_under_their_indentation() -> None:
    board = "Title\n  seat 1: stock Fish x1, Steak x1 | plate - | hand 4 | deck 15 | score pile 1\n  ###   ###"
    wrapped = wrap_board(board, 40).splitlines()
    assert wrapped[0] == "Title" and wrapped[-1] == "  ###   ###"
    assert all(len(line) <= 40 for line in wrapped)
    assert wrapped[2].startswith("    ")  # carried on under the line's indentation, plus two
    assert " ".join(" ".join(wrapped).split()) == " ".join(board.split())  # nothing cut
    assert wrap_board(board, 200) == board


def test_the_players_table_gives_way_by_its_names() -> None:
    match = mpb.Match(status=mpb.MATCH_STATUS_RUNNING, seat_to_move=1)
    match.seats.add(seat=0, kind=mpb.SEAT_KIND_HUMAN, player_id="p", display_name="a very long player name")
    match.seats.add(seat=1, kind=mpb.SEAT_KIND_BOT, display_name="medium bot")
    text = players_text(match, 0, "unknown_game", None, width=24).plain.splitlines()
    assert all(len(line) <= 24 for line in text)
    assert text[1].startswith("●    0  a very") and text[1].endswith("…")
    assert text[2].startswith("● >  1  medium bot")
    assert fit_widths(["", "#", "player"], [[">", "0", "x" * 30]], 100) == [1, 1, 30]
