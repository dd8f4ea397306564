"""`sizzle serve` as a real process: it serves, and SIGTERM drains it and exits cleanly."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import subprocess
import sys
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from apps.platform import Deps, create_server
from services.kit.config import Config
from services.match.store import MemoryStore


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_sigterm_drains_and_exits() -> None:
    port = free_port()
    env = {**os.environ, "SIZZLE_ADDR": f"127.0.0.1:{port}", "SIZZLE_GRACE_SECONDS": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "apps.cli", "serve"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=30)
            health = health_pb2_grpc.HealthStub(channel)
            assert health.Check(health_pb2.HealthCheckRequest(), timeout=5).status == \
                health_pb2.HealthCheckResponse.SERVING
        proc.send_signal(signal.SIGTERM)
        start = time.monotonic()
        assert proc.wait(timeout=15) == 0
        assert time.monotonic() - start < 10
    finally:
        if proc.poll() is None:
            proc.kill()
    output = proc.stdout.read() if proc.stdout else ""
    assert "Sizzle is serving" in output


class _StuckBots:
    """A bot dispatcher whose close never returns (and ignores its turns)."""

    async def dispatch(self, match_id: str, seat: int, version: int, game_id: str) -> None:
        return None

    async def close(self) -> None:
        await asyncio.Event().wait()


class _CountingStore(MemoryStore):
    closed = 0

    async def close(self) -> None:
        self.closed += 1
        await super().close()


def test_a_stuck_shutdown_step_is_named_and_given_up_on(caplog: pytest.LogCaptureFixture) -> None:
    store = _CountingStore()

    async def run() -> float:
        platform = await create_server(Config(addr="127.0.0.1:0"), Deps(store=store, bots=_StuckBots(),
                                                                        services=("match",)))
        started = time.monotonic()
        await platform.stop(0, step_seconds=1.5)
        return time.monotonic() - started

    with caplog.at_level(logging.INFO, logger="sizzle.app"):
        took = asyncio.run(run())
    assert took < 1.5 + 3  # the stuck step gave up after 1.5s
    assert store.closed == 1  # the steps after the stuck one still ran
    stuck = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(stuck) == 1 and stuck[0].startswith("stopping the bot dispatcher took over 1.5s")
    assert "_StuckBots.close" in stuck[0]  # the stuck task and its stack are in the log
