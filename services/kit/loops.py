"""Background loops that stop when asked, even when a client library loses the cancellation.

Python 3.11's `asyncio.wait_for` returns the inner call's result and drops a cancel that arrives in
the moment the inner call finishes (fixed in 3.12). redis-py wraps its socket writes in it, so a task
cancelled in the middle of a Redis call can carry on as if nothing happened; a loop that only stops
by being cancelled then never stops, and neither does the process waiting for it. A `Ticker` also
checks a stop flag every round, and treats an error raised while its task is being cancelled as the
cancellation it stands for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator

log = logging.getLogger("sizzle.loops")


def cancelling() -> bool:
    """True when the current task has been asked to stop (a client library may have turned the
    cancellation into its own error, or dropped it)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


@contextlib.contextmanager
def carry_on(logger: logging.Logger, what: str, *args: object) -> Iterator[None]:
    """Logs an error of the block as `what failed` (`what % args`) and goes on; while the task is being cancelled
    the error is the cancellation (a client library turned it into its own error) and ends the task."""
    try:
        yield
    except Exception:
        if cancelling():
            raise asyncio.CancelledError() from None
        logger.exception(what + " failed", *args)


class Ticker:
    """Calls `tick` every `interval` seconds in a task of its own until `stop`. A tick that fails is
    logged and the next one runs on time."""

    def __init__(self, name: str, tick: Callable[[], Awaitable[object]], interval: float) -> None:
        self.name = name
        self.tick = tick
        self.interval = interval
        self.stopping = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=self.name)

    async def _run(self) -> None:
        while not self.stopping:
            with carry_on(log, "a tick of the %s", self.name):
                await self.tick()
            if cancelling():  # cancelled during the tick, and the cancellation was lost on the way
                raise asyncio.CancelledError()
            await asyncio.sleep(self.interval)

    async def stop(self, timeout: float = 10.0) -> bool:
        """Stops the loop (the tick running now is cancelled); False if it was still running after
        `timeout` seconds."""
        self.stopping = True
        if self._task is None:
            return True
        self._task.cancel()
        done, _ = await asyncio.wait({self._task}, timeout=timeout)
        return bool(done)
