"""Expert bots, the training teachers: one module per game, `workers.training.experts.<game_id>`,
holding one class whose name ends in "Expert" and whose constructor takes the injected
`random.Random` (the same shape as the heuristic bots in `workers/bots/heuristic/`).

An expert sees only what its seat sees (the view and the legal ids), like every bot, so a network
can learn to play like it from the same observation. It plays better than the heuristic (a sensible
beginner): `python -m workers.training.tournament --hero expert --game G` measures by how much. It is
a teacher, not a difficulty: the workers never run it.

`expert_bot(game_id, rng)` finds a game's expert; a game without one gets its heuristic. A module may
also hold TRAINING_DEFAULTS, the settings `make train` needs for that game beyond its common ones
(`training_defaults(game_id)`).
"""

from __future__ import annotations

import importlib
import random
from typing import Any

from workers.bots.heuristic import find_game_class, heuristic_bot
from workers.bots.interface import Bot

_CLASSES: dict[str, Any] = {}


def expert_class(game_id: str) -> Any | None:
    """The expert bot class of a game, or None when the game has none."""
    return find_game_class(__name__, game_id, "Expert", _CLASSES)


def expert_bot(game_id: str, rng: random.Random) -> Bot:
    """The game's expert bot, or its heuristic when the game has no expert."""
    cls = expert_class(game_id)
    if cls is None:
        return heuristic_bot(game_id, rng)
    bot: Bot = cls(rng)
    return bot


def training_defaults(game_id: str) -> dict[str, int]:
    """The training settings the game's expert module asks for (its TRAINING_DEFAULTS), or none."""
    module_name = f"{__name__}.{game_id}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise  # the module exists but one of its own imports is missing: a real bug
        return {}
    return dict(getattr(module, "TRAINING_DEFAULTS", {}))
