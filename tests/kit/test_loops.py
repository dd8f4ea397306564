"""The Ticker every background loop runs on stops when asked, also when the tick it interrupts loses
the cancellation (as Python 3.11's wait_for does inside redis-py) or turns it into an error."""

from __future__ import annotations

import asyncio
import logging

import pytest

from services.kit.loops import Ticker


class Swallower:
    """A tick that waits, and returns normally when cancelled: a cancellation lost on the way."""

    def __init__(self, on_cancel: type[BaseException] | None = None) -> None:
        self.on_cancel = on_cancel
        self.started = asyncio.Event()
        self.ticks = 0

    async def tick(self) -> None:
        self.ticks += 1
        self.started.set()
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            if self.on_cancel is not None:
                raise self.on_cancel("the connection was dropped") from None


def run_and_stop(tick: Swallower) -> tuple[bool, asyncio.Task[None]]:
    async def main() -> tuple[bool, asyncio.Task[None]]:
        ticker = Ticker("test", tick.tick, interval=30)  # a lost cancel would leave it asleep for 30s
        ticker.start()
        await tick.started.wait()
        stopped = await ticker.stop(timeout=2)
        assert ticker._task is not None
        return stopped, ticker._task

    return asyncio.run(main())


def test_a_lost_cancellation_still_stops_the_loop() -> None:
    tick = Swallower()
    stopped, task = run_and_stop(tick)
    assert stopped and task.cancelled()
    assert tick.ticks == 1


def test_a_cancellation_turned_into_an_error_stops_the_loop() -> None:
    tick = Swallower(on_cancel=ConnectionError)
    stopped, task = run_and_stop(tick)
    assert stopped and task.cancelled()
    assert tick.ticks == 1


def test_a_failing_tick_is_logged_and_the_next_runs(caplog: pytest.LogCaptureFixture) -> None:
    calls: list[int] = []

    async def tick() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("one bad round")

    async def main() -> None:
        ticker = Ticker("test loop", tick, interval=0.01)
        ticker.start()

        async def three_ticks() -> None:
            while len(calls) < 3:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(three_ticks(), timeout=5)  # a loop the failure ended fails here, not hangs
        assert await ticker.stop()

    with caplog.at_level(logging.ERROR, logger="sizzle.loops"):
        asyncio.run(main())
    assert len(calls) >= 3
    failed = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert [r.getMessage() for r in failed] == ["a tick of the test loop failed"]
    assert failed[0].exc_info is not None and "one bad round" in str(failed[0].exc_info[1])
