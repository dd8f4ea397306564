"""Bot turns in-process (the embedded default): the same policy code the Celery workers run, called
from the match service's event loop, submitting through the same path as any client."""

from __future__ import annotations

import asyncio
import logging

from services.auth.tokens import Identity
from services.kit.errors import GameError
from services.match.bot_turns import BotFactory, decide
from services.match.core import Matches

log = logging.getLogger("sizzle.bots")


class InProcessBots:
    """Plays bot turns as asyncio tasks of the serving process, with the bots `factory` makes (the
    composition root gives the policy)."""

    def __init__(self, matches: Matches, factory: BotFactory, think_seconds: float = 0.0) -> None:
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
            await self.matches.submit(self._identity, decide(self.factory, loaded.match, seat, view, legal))
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
