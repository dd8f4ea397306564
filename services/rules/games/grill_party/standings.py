"""How a seat stands during a game of Grill Party, as the terminal client's players table shows it
(clients/tui/table.py finds this module beside the game's engine): a column label and its value, read
from the seat's entry in the view's players. The final score comes with the outcome."""

from __future__ import annotations

from collections.abc import Callable

from sizzle.games.grill_party.v1 import grill_party_pb2 as pb

STANDING_COLUMNS: list[tuple[str, Callable[[pb.PlayerView], str]]] = [
    ("cards", lambda player: str(player.hand_size + player.deck_size)),
    ("score pile", lambda player: str(player.score_pile_size)),
]
