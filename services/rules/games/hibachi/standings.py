"""How a seat stands during a game of Hibachi, as the terminal client's players table shows it
(clients/tui/table.py finds this module beside the game's engine): a column label and its value, read
from the seat's entry in the view's players. The final score comes with the outcome."""

from __future__ import annotations

from collections.abc import Callable

from sizzle.games.hibachi.v1 import hibachi_pb2 as pb

STANDING_COLUMNS: list[tuple[str, Callable[[pb.PlayerView], str]]] = [
    ("yen", lambda player: str(player.money)),
    ("cooked", lambda player: str(len(player.cooked))),
    ("cards", lambda player: str(player.hand_size)),
]
