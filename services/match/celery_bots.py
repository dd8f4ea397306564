"""Bot turns through Celery: the match service enqueues `take_turn(match, seat, version)` on the
bot queue; a worker plays it through MatchService like any client. A lost turn is dispatched again by
the deadline loop, and the turn's request id keeps it from being played twice."""

from __future__ import annotations

import asyncio
import time

from celery import Celery

from services.kit.config import Config


class CeleryBots:
    def __init__(self, config: Config) -> None:
        from workers.bots.celery_app import make_celery

        self.app: Celery = make_celery(config)
        self.queue = config.bot_queue

    async def dispatch(self, match_id: str, seat: int, version: int, game_id: str) -> None:
        args = [match_id, seat, version, int(time.time() * 1000)]
        await asyncio.to_thread(self.app.send_task, "workers.bots.tasks.take_turn", args=args, queue=self.queue)

    async def close(self) -> None:
        await asyncio.to_thread(self.app.close)
