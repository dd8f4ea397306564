"""Waiting in tests for something that happens in the background: poll until it holds, with a
deadline, rather than sleep a fixed time and hope (a loaded CI machine is slower than yours)."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def eventually(check: Callable[[], T | None], timeout: float = 10.0, every: float = 0.05) -> T:
    """The first truthy value of check(), polled from a blocking test."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not reached within {timeout}s: {check}")
        time.sleep(every)


async def settles(check: Callable[[], Any], timeout: float = 10.0, every: float = 0.01) -> Any:
    """The first truthy value of check() (a plain or an async function), polled on the running loop,
    which goes on serving the background work meanwhile."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not reached within {timeout}s: {check}")
        await asyncio.sleep(every)

