"""Bot turns through Celery: the match service enqueues `take_turn(match, seat, version)` on the
bot queue; a worker plays it through MatchService like any client. A lost turn is dispatched again by
the deadline loop, and the turn's request id keeps it from being played twice.

The enqueue runs beside the request that made the turn, not inside it: the commit is the truth and
the caller's answer (a person's SubmitAction, or the worker's own when a bot moves twice in a row)
does not wait for the broker. A worker that has just played is then free by the time its next turn
reaches the queue. An enqueue that fails is logged and counted, and the turn's deadline (scheduled
before the commit) dispatches it again.
"""

from __future__ import annotations

import asyncio
import logging
import time

from celery import Celery

from services.kit import metrics
from services.kit.config import Config

log = logging.getLogger("sizzle.bots.celery")


class CeleryBots:
    def __init__(self, config: Config) -> None:
        from workers.bots.celery_app import make_celery

        self.app: Celery = make_celery(config)
        self.queue = config.bot_queue
        self._sending: set[asyncio.Task[None]] = set()

    async def dispatch(self, match_id: str, seat: int, version: int, game_id: str) -> None:
        task = asyncio.create_task(self._send(match_id, seat, version, game_id))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send(self, match_id: str, seat: int, version: int, game_id: str) -> None:
        args = [match_id, seat, version, int(time.time() * 1000)]
        try:
            # argsrepr: the ids as they are (Celery would otherwise build a safe repr of them per call).
            await asyncio.to_thread(self.app.send_task, "workers.bots.tasks.take_turn", args=args,
                                    queue=self.queue, argsrepr=repr(args), kwargsrepr="{}")
        except Exception as exc:  # the broker is down: the turn's deadline dispatches it again
            metrics.BOT_DISPATCH_FAILURES.labels(game_id).inc()
            log.warning("bot turn %s seat %d v%d not enqueued (%s); its deadline retries it",
                        match_id, seat, version, exc)

    async def close(self) -> None:
        """Lets the enqueues under way finish (a stopping replica hands its turns to the queue), then
        closes the broker connections."""
        if self._sending:
            await asyncio.wait(list(self._sending), timeout=5)
        await asyncio.to_thread(self.app.close)
