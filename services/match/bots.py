"""Bot turns in-process (the embedded default): the same policy code the Celery workers run, called
from the match service's event loop, submitting through the same path as any client."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from typing import Any

from services.kit.errors import GameError
from services.match.core import Matches
from services.match.tokens import Identity
from sizzle.match.v1 import match_service_pb2 as mpb

log = logging.getLogger("sizzle.bots")

BotFactory = Callable[[str, str, random.Random], Any]


def bot_request_id(match_id: str, seat: int, version: int) -> str:
    """The idempotent request id of a bot turn: one turn, one id, whoever plays it and however often."""
    return f"bot:{match_id}:{seat}:{version}"


def default_bot_factory(game_id: str, difficulty: str, rng: random.Random) -> Any:
    from workers.bots.policy import make_bot

    return make_bot(game_id, difficulty, rng)


def difficulty_name(difficulty: int) -> str:
    return mpb.Difficulty.Name(difficulty or mpb.DIFFICULTY_MEDIUM).removeprefix("DIFFICULTY_").lower()


class InProcessBots:
    """Plays bot turns as asyncio tasks of the serving process."""

    def __init__(self, matches: Matches, factory: BotFactory = default_bot_factory, think_seconds: float = 0.0) -> None:
        self.matches = matches
        self.factory = factory
        self.think_seconds = think_seconds
        self._tasks: set[asyncio.Task[None]] = set()
        self._identity = Identity(kind="bot", player_id="bot")
        self._closed = False

    async def dispatch(self, match_id: str, seat: int, version: int, game_id: str) -> None:
        if self._closed:  # stopping: the turn's deadline has it played after the restart
            return
        task = asyncio.create_task(self._play(match_id, seat, version))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _play(self, match_id: str, seat: int, version: int) -> None:
        if self.think_seconds:
            await asyncio.sleep(self.think_seconds)
        try:
            loaded, view, legal = await self.matches.bot_turn(match_id, seat)
            if loaded.match.version != version or loaded.match.seat_to_move != seat or not legal:
                return  # someone already played this turn
            game = loaded.match.game_id
            rng = random.Random(f"{match_id}:{version}")
            bot = self.factory(game, difficulty_name(loaded.match.seats[seat].difficulty), rng)
            action_id = bot.step(view, legal)  # the policy records its own decision time, once
            request = mpb.SubmitActionRequest(match_id=match_id, action_id=action_id, expected_version=version,
                                              request_id=bot_request_id(match_id, seat, version), seat=seat)
            await self.matches.submit(self._identity, request)
        except GameError as error:
            log.info("bot turn %s seat %d v%d not played: %s", match_id, seat, version, error.message)
        except Exception:
            log.exception("bot turn %s seat %d v%d failed", match_id, seat, version)

    async def close(self) -> None:
        """Takes no more turns and cancels those under way (a turn cut short is played again when its
        deadline comes)."""
        self._closed = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks)
