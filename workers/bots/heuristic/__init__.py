"""Heuristic bots, one module per game: `workers.bots.heuristic.<game_id>` holds one class whose name
ends in "Heuristic" and whose constructor takes the injected `random.Random`.

`heuristic_bot(game_id, rng)` finds it; a game without one (yet) gets the uniform RandomBot.
"""

from __future__ import annotations

import importlib
import logging
import random
from typing import Any

from workers.bots.interface import Bot, RandomBot

log = logging.getLogger(__name__)

_CLASSES: dict[str, Any] = {}


def find_game_class(package: str, game_id: str, suffix: str, cache: dict[str, Any]) -> Any | None:
    """The class whose name ends in `suffix` defined in module `<package>.<game_id>`, or None when
    the game has no such module (memoised in `cache`). The experts (workers/training/experts) use it too."""
    if game_id in cache:
        return cache[game_id]
    found = None
    try:
        module = importlib.import_module(f"{package}.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.{game_id}":
            raise  # the module exists but one of its own imports is missing: a real bug
        log.info("game %s has no module in %s", game_id, package)
    else:
        for name, value in vars(module).items():
            if name.endswith(suffix) and isinstance(value, type) and value.__module__ == module.__name__:
                found = value
                break
    cache[game_id] = found
    return found


def heuristic_class(game_id: str) -> Any | None:
    """The heuristic bot class of a game, or None when the game has none."""
    return find_game_class(__name__, game_id, "Heuristic", _CLASSES)


def heuristic_bot(game_id: str, rng: random.Random) -> Bot:
    """The game's heuristic bot, or a RandomBot when the game has none."""
    cls = heuristic_class(game_id)
    if cls is None:
        return RandomBot(rng)
    bot: Bot = cls(rng)
    return bot
