"""Bot turns through Celery: the match service enqueues `take_turn(match, seat, version)` on the
bot queue; a worker plays it through MatchService like any client. A lost turn is dispatched again by
the deadline loop, and the turn's request id keeps it from being played twice.

The enqueue runs beside the request that made the turn, not inside it: the commit is the truth and
the caller's answer (a person's SubmitAction, or the worker's own when a bot moves twice in a row)
does not wait for the broker. A worker that has just played is then free by the time its next turn
reaches the queue. An enqueue that fails is logged and counted, and the turn's deadline (scheduled
before the commit) dispatches it again.

On a Redis broker the message goes out from the event loop itself (`LoopPublisher`): Celery builds
it and kombu's Redis transport the commands that deliver it, and an asyncio Redis client sends
them. Celery's own publishing is blocking, and run in a thread it waited for the interpreter behind
the replies and watcher updates of the same moment (2.5 ms for a 0.5 ms send). Any other broker
takes that thread.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import kombu
import kombu.transport.redis
import redis.asyncio as aioredis
from celery import Celery

from services.kit import metrics
from services.kit.config import Config
from services.match.bot_turns import TASK

log = logging.getLogger("sizzle.bots.celery")


class _KeptCommands:
    """A publish batch of kombu's Redis transport (what `Producer.batch()` asks the transport for)
    that keeps the Redis commands of the messages published in it instead of sending them."""

    def __init__(self, channel: Any) -> None:
        self.channel = channel
        self.commands: list[tuple[str, tuple[Any, ...]]] = []

    def publish(self, message: Any, **kwargs: Any) -> Any:
        return self.channel.basic_publish(message, _publish_batch=self, **kwargs)

    def add(self, name: str, *args: Any) -> None:  # called by the transport for each command
        self.commands.append((name, args))

    def flush(self) -> None:
        """Nothing: the caller sends the kept commands."""

    def close(self) -> None:
        """Nothing to release."""

    def discard(self) -> None:
        self.commands.clear()


class _KeepingChannel(kombu.transport.redis.Channel):  # type: ignore[misc]
    kept: _KeptCommands | None = None

    def create_publish_batch(self, max_size: int) -> _KeptCommands:
        self.kept = _KeptCommands(self)
        return self.kept


class _KeepingTransport(kombu.transport.redis.Transport):  # type: ignore[misc]
    Channel = _KeepingChannel


class LoopPublisher:
    """Sends Celery task messages to a Redis broker from the event loop, without blocking it."""

    def __init__(self, app: Celery) -> None:
        self.app = app
        self.client = aioredis.Redis.from_url(app.conf.broker_url)
        self._connection = kombu.Connection(app.conf.broker_url, transport=_KeepingTransport,
                                            transport_options=app.conf.broker_transport_options)
        self._producer: Any = None

    @staticmethod
    def usable(app: Celery) -> bool:
        """A plain Redis broker (no key prefix of kombu's own, which only its client would add)."""
        url = str(app.conf.broker_url or "")
        return url.startswith(("redis://", "rediss://")) and \
            not (app.conf.broker_transport_options or {}).get("global_keyprefix")

    async def send(self, name: str, args: list[Any], queue: str) -> None:
        if self._producer is None:  # the transport's channel pings the broker once, blocking
            channel = await asyncio.to_thread(self._connection.channel)
            self._producer = self.app.amqp.Producer(channel)
        producer = self._producer
        with producer.batch():
            # declare=[]: a Redis queue is a list the LPUSH makes; the workers bind their queues.
            self.app.send_task(name, args=args, queue=queue, argsrepr=repr(args), kwargsrepr="{}",
                               producer=producer, declare=[])
        async with self.client.pipeline(transaction=False) as pipe:  # each batch keeps its own commands
            for command, command_args in producer.channel.kept.commands:
                pipe.execute_command(command.upper(), *command_args)
            await pipe.execute()

    async def close(self) -> None:
        await self.client.aclose()
        if self._producer is not None:
            await asyncio.to_thread(self._producer.channel.close)
        await asyncio.to_thread(self._connection.release)


class CeleryBots:
    """Enqueues bot turns on `app` (the composition root builds it: workers.bots.celery_app)."""

    def __init__(self, config: Config, app: Celery) -> None:
        self.app = app
        self.queue = config.bot_queue
        self.publisher = LoopPublisher(self.app) if LoopPublisher.usable(self.app) else None
        self._sending: set[asyncio.Task[None]] = set()
        self._closed = False

    async def dispatch(self, match_id: str, seat: int, version: int, game_id: str) -> None:
        if self._closed:  # stopping: the turn's deadline enqueues it again after the restart
            return
        task = asyncio.create_task(self._send(match_id, seat, version, game_id))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send(self, match_id: str, seat: int, version: int, game_id: str) -> None:
        args = [match_id, seat, version, int(time.time() * 1000)]
        try:
            if self.publisher is not None:
                await self.publisher.send(TASK, args, self.queue)
            else:
                # argsrepr: the ids as they are (Celery would otherwise build a safe repr of them per call).
                await asyncio.to_thread(self.app.send_task, TASK, args=args, queue=self.queue,
                                        argsrepr=repr(args), kwargsrepr="{}")
        except Exception as exc:  # the broker is down: the turn's deadline dispatches it again
            metrics.BOT_DISPATCH_FAILURES.labels(game_id).inc()
            log.warning("bot turn %s seat %d v%d not enqueued (%s); its deadline retries it",
                        match_id, seat, version, exc)

    async def close(self) -> None:
        """Lets the enqueues under way finish (a stopping replica hands its turns to the queue), then
        closes the broker connections."""
        self._closed = True
        if self._sending:
            await asyncio.wait(list(self._sending), timeout=5)
        if self.publisher is not None:
            await self.publisher.close()
        await asyncio.to_thread(self.app.close)
