"""How a seat stands during a game of License to Grill, as the terminal client's players table shows it
(clients/tui/table.py finds this module beside the game's engine): a column label and its value, read
from the seat's entry in the view's players. The final score comes with the outcome."""

from __future__ import annotations

from collections.abc import Callable

from sizzle.games.license_to_grill.v1 import license_to_grill_pb2 as pb

STANDING_COLUMNS: list[tuple[str, Callable[[pb.Player], str]]] = [
    ("score", lambda player: str(player.score)),
    ("served", lambda player: str(len(player.served))),
]
