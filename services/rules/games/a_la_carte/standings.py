"""How a seat stands during a game of A la carte (the kitchen game), as the terminal client's players table shows it
(clients/tui/table.py finds this module beside the game's engine): a column label and its value, read
from the seat's entry in the view's players. The final score comes with the outcome."""

from __future__ import annotations

from collections.abc import Callable

from sizzle.games.a_la_carte.v1 import a_la_carte_pb2 as pb

STANDING_COLUMNS: list[tuple[str, Callable[[pb.PlayerView], str]]] = [
    ("points", lambda player: str(player.points)),
    ("stars", lambda player: str(player.stars)),
]
