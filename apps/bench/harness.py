"""What every benchmark shares: a server process on loopback, closed-loop load from an asyncio
client, percentiles and a printed table.

With SIZZLE_TLS_CERT/KEY (and SIZZLE_TLS_CA) in the environment, the servers started here serve TLS
and every client channel of the benchmarks and the load test calls over TLS (`calls_tls`)."""

from __future__ import annotations

import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.kit.config import Config
from services.kit.tls import ClientTLS, client_tls, open_aio_channel, open_channel


@cache
def calls_tls() -> ClientTLS | None:
    """The TLS of the benchmarks' own calls, from the environment's SIZZLE_TLS_* (read once)."""
    return client_tls(Config.from_env())


def bench_channel(target: str, options: Sequence[tuple[str, object]] = ()) -> grpc.aio.Channel:
    """An asyncio channel to a server under test: TLS when the environment says so, plaintext otherwise."""
    return open_aio_channel(target, calls_tls(), options)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# A benchmark is a few clients on one address doing the work of thousands: the per-player quotas
# (services/kit/quotas.py) would measure themselves, not the server.
BENCH_WITHOUT_QUOTAS = {f"SIZZLE_QUOTA_{name}": "0" for name in
                        ("MATCHES_PER_HOUR", "MATCHES_PER_HOUR_PER_ADDRESS", "LIVE_MATCHES", "TICKETS_PER_HOUR",
                         "WATCH_STREAMS", "GUESTS_PER_HOUR")}


@contextmanager
def server_process(services: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """`sizzle serve --services ...` in its own process (its own core), on a free loopback port."""
    port = free_port()
    full_env = {**os.environ, "SIZZLE_ADDR": f"127.0.0.1:{port}", "SIZZLE_GRACE_SECONDS": "0.2",
                **BENCH_WITHOUT_QUOTAS, **(env or {})}
    proc = subprocess.Popen([sys.executable, "-m", "apps.cli", "serve", "--services", services], env=full_env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    target = f"127.0.0.1:{port}"
    try:
        with open_channel(target, calls_tls()) as channel:
            grpc.channel_ready_future(channel).result(timeout=60)
        yield target
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def percentile(samples: list[float], q: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, int(round(q / 100 * (len(ordered) - 1)))))
    return ordered[index]


@dataclass
class Rate:
    calls: int
    seconds: float
    latencies: list[float]

    @property
    def per_second(self) -> float:
        return self.calls / self.seconds if self.seconds else 0.0

    def __add__(self, other: Rate) -> Rate:
        return Rate(self.calls + other.calls, self.seconds + other.seconds, self.latencies + other.latencies)

    @property
    def p50_ms(self) -> float:
        return percentile(self.latencies, 50) * 1000

    @property
    def p99_ms(self) -> float:
        return percentile(self.latencies, 99) * 1000


async def closed_loop(call: Callable[[int], Awaitable[object]], seconds: float, concurrency: int) -> Rate:
    """`concurrency` workers each call back to back for `seconds`; counts calls and latencies."""
    latencies: list[float] = []
    stop = time.perf_counter() + seconds

    async def worker(index: int) -> None:
        while time.perf_counter() < stop:
            start = time.perf_counter()
            await call(index)
            latencies.append(time.perf_counter() - start)

    start = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in range(concurrency)))
    return Rate(len(latencies), time.perf_counter() - start, latencies)


async def empty_call_rate(channel: grpc.aio.Channel, seconds: float, concurrency: int) -> Rate:
    """The baseline: grpc.health.v1 Check, the emptiest call the same server answers."""
    health = health_pb2_grpc.HealthStub(channel)
    request = health_pb2.HealthCheckRequest()
    return await closed_loop(lambda _: health.Check(request, timeout=10), seconds, concurrency)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def table(title: str, header: list[str], rows: Sequence[Sequence[object]]) -> str:
    cells = [header, *[[c if isinstance(c, str) else f"{c:,.2f}" if isinstance(c, float) else str(c) for c in r]
                       for r in rows]]
    widths = [max(len(str(row[i])) for row in cells) for i in range(len(header))]
    lines = [title, "  " + "  ".join(str(h).ljust(w) for h, w in zip(header, widths, strict=True))]
    lines += ["  " + "  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)) for row in cells[1:]]
    return "\n".join(lines)


def mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else float("nan")
