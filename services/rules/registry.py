"""The one registry of games. Every package under services/rules/games/ registers its engine when
imported; everything else looks games up here by id."""

from __future__ import annotations

import importlib
import pkgutil

from services.kit.errors import GameError
from services.rules.engine import Engine
from sizzle.common.v1 import common_pb2

_ENGINES: dict[str, Engine] = {}
_discovered = False


def register(engine: Engine) -> Engine:
    game_id = engine.spec.game_id
    if game_id in _ENGINES and type(_ENGINES[game_id]) is not type(engine):
        raise ValueError(f"game {game_id!r} registered twice")
    _ENGINES[game_id] = engine
    return engine


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    from services.rules import games

    for module in pkgutil.iter_modules(games.__path__):
        if module.ispkg:
            importlib.import_module(f"{games.__name__}.{module.name}")
    _discovered = True


def game_ids() -> list[str]:
    _discover()
    return sorted(_ENGINES)


def engines() -> list[Engine]:
    return [_ENGINES[g] for g in game_ids()]


def get_engine(game_id: str) -> Engine:
    _discover()
    engine = _ENGINES.get(game_id)
    if engine is None:
        raise GameError(
            common_pb2.ERROR_REASON_UNKNOWN_GAME,
            f"unknown game {game_id!r} (games: {', '.join(sorted(_ENGINES))})",
            {"game_id": game_id},
        )
    return engine
