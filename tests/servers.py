"""Real servers for tests: the platform's gRPC server on a free loopback port, run on an asyncio
loop in a background thread so tests can use ordinary blocking clients."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")


class LoopThread:
    """An asyncio loop running in a daemon thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Awaitable[T], timeout: float = 30) -> T:
        future: Future[T] = asyncio.run_coroutine_threadsafe(coro, self.loop)  # type: ignore[arg-type]
        return future.result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


class ServerThread:
    """A running server built by `factory` (an async function returning RunningServer)."""

    def __init__(self, factory: Callable[[], Awaitable[Any]]) -> None:
        self.loop = LoopThread()
        self.running: Any = self.loop.run(factory())

    @property
    def target(self) -> str:
        return self.running.target

    def call(self, coro: Awaitable[Any]) -> Any:
        return self.loop.run(coro)

    def stop(self, grace: float = 0.5) -> None:
        self.loop.run(self.running.stop(grace))
        self.loop.close()
