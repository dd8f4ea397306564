"""One Redis pub/sub connection per store, fanning messages out to the waiters of this process.

Both Redis stores use it: the match store for new versions of a match (the message is the version),
the matchmaking store for changes of a ticket (the message says what changed). For every subscribed
channel the notifier keeps
- `generation(channel)`: how many messages (or local publications) it has seen, so a waiter can ask
  "has anything come since I last looked?";
- `latest(channel)`: the largest integer message seen or noted (a match's newest version), None
  when not known.
A channel is subscribed while anyone holds it (`subscribe`/`unsubscribe` count the holders), and a
message wakes every waiter of its channel at once. The reader reconnects by itself after an error;
waiters also time out and read the store, so a lost message costs a timeout, never a missed change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from services.kit.loops import cancelling

log = logging.getLogger("sizzle.pubsub")

# What a Redis call raises when the server cannot be reached: answered UNAVAILABLE by both stores.
TRANSIENT = (RedisConnectionError, RedisTimeoutError, OSError)


class Notifier:
    def __init__(self, client: Any, start_channel: str) -> None:
        self._client = client
        self._start_channel = start_channel  # subscribed first, so the connection exists before any wait
        self._pubsub: Any = None
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._holders: dict[str, int] = {}
        self._generation: dict[str, int] = {}
        self._latest: dict[str, int] = {}
        self._wake: dict[str, asyncio.Event] = {}

    # ---------------------------------------------------------------- holding a channel
    async def subscribe(self, channel: str) -> None:
        async with self._lock:
            if self._pubsub is None:
                self._pubsub = self._client.pubsub(ignore_subscribe_messages=True)
                await self._pubsub.subscribe(self._start_channel)
                self._task = asyncio.create_task(self._read())
            self._holders[channel] = self._holders.get(channel, 0) + 1
            if self._holders[channel] == 1:
                self._generation[channel] = 0
                self._latest.pop(channel, None)  # unknown until read or published
                self._wake[channel] = asyncio.Event()
                await self._pubsub.subscribe(channel)

    async def unsubscribe(self, channel: str) -> None:
        async with self._lock:
            self._holders[channel] -= 1
            if self._holders[channel] == 0:
                del self._holders[channel], self._generation[channel], self._wake[channel]
                self._latest.pop(channel, None)
                with contextlib.suppress(Exception):
                    await self._pubsub.unsubscribe(channel)

    # ---------------------------------------------------------------- what is known
    def generation(self, channel: str) -> int:
        return self._generation.get(channel, 0)

    def latest(self, channel: str) -> int | None:
        return self._latest.get(channel)

    def note(self, channel: str, value: int) -> None:
        """A value read from the store itself (kept when it is the largest known)."""
        if channel in self._holders and value > self._latest.get(channel, -1):
            self._latest[channel] = value

    def published(self, channel: str, value: int) -> None:
        """A value this process has just published: its waiters wake now, not when the message comes
        back through Redis (which then changes nothing)."""
        self.note(channel, value)
        self._notify(channel)

    async def wait(self, channel: str, done: Callable[[], bool], timeout: float) -> bool:
        """Waits until `done()` (checked now and after every message of the channel); False at the
        timeout. The channel must be held."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not done():
            remaining = deadline - loop.time()
            wake = self._wake.get(channel)
            if remaining <= 0 or wake is None:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), remaining)
        return True

    # ---------------------------------------------------------------- the reader
    def _notify(self, channel: str) -> None:
        if channel not in self._holders:
            return
        self._generation[channel] += 1
        self._wake[channel].set()  # every waiter of the moment wakes; later ones wait on a new event
        self._wake[channel] = asyncio.Event()

    async def _read(self) -> None:
        while not cancelling():  # a cancellation a client library lost on the way still ends the loop
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # reconnects on the next read; waiters also read on a timer
                log.warning("pub/sub read failed: %s", exc)
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            raw = message["channel"]
            channel = raw.decode() if isinstance(raw, bytes) else str(raw)
            with contextlib.suppress(TypeError, ValueError):
                self.note(channel, int(message["data"]))
            self._notify(channel)

    async def close(self) -> None:
        """Stops the reader and closes the pub/sub connection and its client."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._client.aclose()
