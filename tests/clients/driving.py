"""Helpers that drive the terminal client headlessly with Textual's pilot, and a TCP proxy whose
connections a test can cut to see the client reconnect."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from clients.tui.match_app import MatchApp
from clients.tui.panels import BoardPanel, EventLog
from tests.servers import LoopThread

SIZE = (80, 24)  # the common default terminal (and small screens render faster)


def text_of(app: Any, selector: str) -> str:
    """What a Static shows, as plain text."""
    return str(app.query_one(selector, Static).content)


def log_text(app: Any) -> str:
    """Every line of the screen's log, joined (whitespace collapsed)."""
    return " ".join(app.query_one(EventLog).plain().split())


def board_of(app: Any) -> str:
    """The board as the engine rendered it (the screen may wrap its long lines)."""
    return str(app.query_one(BoardPanel).rendering)


async def wait_for(pilot: Pilot[Any], condition: Any, timeout: float = 30.0, what: str = "a condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.01)


async def play_through(app: MatchApp, pilot: Pilot[Any], rng: random.Random, timeout: float = 240.0,
                       max_moves: int | None = None) -> int:
    """Presses the key of a random legal action whenever it is the seat's turn, until the game
    ends (or `max_moves` were played). Returns the number of moves played."""
    deadline = time.monotonic() + timeout
    moves = 0
    while not app.finished and (max_moves is None or moves < max_moves):
        if time.monotonic() > deadline:
            raise AssertionError(f"the game did not end in {timeout}s ({moves} moves played)")
        if app.can_act:
            keys = [key for key, _ in app.menu.shown()]
            await pilot.press(rng.choice(keys))
            moves += 1
        else:
            await pilot.pause(0.01)
    return moves


class Proxy:
    """A TCP proxy to `target` on a loopback port; `cut()` drops every open connection and
    `refuse(seconds)` turns new ones away for a while (a network outage)."""

    def __init__(self, target: str) -> None:
        self.host, port = target.rsplit(":", 1)
        self.upstream_port = int(port)
        self.loop = LoopThread()
        self.transports: set[asyncio.Transport] = set()
        self.refusing_until = 0.0
        self.cuts = 0
        self._lock = threading.Lock()
        self.server = self.loop.run(asyncio.start_server(self._handle, "127.0.0.1", 0))
        self.port = self.server.sockets[0].getsockname()[1]

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if time.monotonic() < self.refusing_until:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.upstream_port)
        except OSError:
            writer.transport.abort()
            return
        with self._lock:
            self.transports |= {writer.transport, up_writer.transport}  # type: ignore[arg-type]

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                sink.transport.abort()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    async def _cut(self) -> None:
        with self._lock:
            transports, self.transports = self.transports, set()
        for transport in transports:
            transport.abort()

    def cut(self, refuse_seconds: float = 0.0) -> None:
        self.refusing_until = time.monotonic() + refuse_seconds
        self.cuts += 1
        self.loop.run(self._cut())

    async def _close(self) -> None:
        self.server.close()  # on the proxy's own loop: asyncio's Server is not thread-safe (closed from
        await self._cut()    # the test's thread it raced the loop, and its wakeup failed now and then)

    def close(self) -> None:
        self.loop.run(self._close())
        self.loop.close()
