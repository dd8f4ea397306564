"""Reads that every watcher of a match in this process shares.

A match at a given version never changes: its record, its log entries and a seat's view of it are
immutable. So when ten spectators watch one match, the new version is read from the store once and
rendered once per seat, not ten times. Reads are single-flight: watchers woken together by the same
commit await one fetch. The process that commits a version puts what it already holds (the new
record, the version's events) in first, so its own watchers read nothing at all. Failures are not
kept (the next caller fetches again), and the cache is a bounded LRU, so memory stays flat however
many matches are watched.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any


class SharedReads:
    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, asyncio.Future[Any]] = OrderedDict()

    async def get(self, key: Hashable, fetch: Callable[[], Awaitable[Any]]) -> Any:
        future = self._items.get(key)
        if future is None:
            future = asyncio.ensure_future(fetch())
            self._items[key] = future
            future.add_done_callback(lambda done: self._forget_failure(key, done))
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        else:
            self._items.move_to_end(key)
        # Shielded: a watcher that goes away does not cancel the read the others wait for.
        return await asyncio.shield(future)

    def put(self, key: Hashable, value: Any) -> None:
        """Offers a value known without a read (a version this process has just committed)."""
        if key in self._items:
            return  # a read of it is under way or done: the same immutable value
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        future.set_result(value)
        self._items[key] = future
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def peek(self, key: Hashable) -> Any:
        """The value under `key` when it is already there (no read started), else None."""
        future = self._items.get(key)
        if future is None or not future.done() or future.cancelled() or future.exception() is not None:
            return None
        return future.result()

    def _forget_failure(self, key: Hashable, done: asyncio.Future[Any]) -> None:
        if (done.cancelled() or done.exception() is not None) and self._items.get(key) is done:
            del self._items[key]
