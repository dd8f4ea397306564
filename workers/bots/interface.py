"""The one bot interface every player that is not a person implements.

A bot sees exactly what its seat may see: the seat's view (the game's View message) and the legal
action ids the match service lists with it. It answers with one of those ids. Randomness comes from
an injected generator, so a bot's play is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol


class Bot(Protocol):
    """A player: picks a legal action id for its seat's view."""

    def step(self, view: Any, legal_actions: Sequence[int]) -> int: ...


class RandomBot:
    """Uniformly random among the legal actions."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def step(self, view: Any, legal_actions: Sequence[int]) -> int:
        return self.rng.choice(list(legal_actions))
