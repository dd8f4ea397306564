"""Starts and stops the local topology: replicas of each service and bot workers as real processes on
127.0.0.1, sharing one Redis under a key prefix of their own."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import redis

from apps.bench.harness import calls_tls, free_port
from services.kit.tls import open_channel


@dataclass
class Topology:
    redis_url: str
    match_replicas: int = 2
    matchmaking_replicas: int = 0
    workers: int = 1
    prefix: str = field(default_factory=lambda: f"sizzle-load-{uuid.uuid4().hex[:8]}")
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    match_ports: list[int] = field(default_factory=list)
    matchmaking_ports: list[int] = field(default_factory=list)
    metrics_ports: list[int] = field(default_factory=list)
    logs: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="sizzle-load-")))

    @property
    def broker_url(self) -> str:
        return self.redis_url.rsplit("/", 1)[0] + "/11"

    @property
    def queue(self) -> str:
        return f"bots-{self.prefix}"

    @staticmethod
    def targets(ports: list[int]) -> str:
        """One gRPC target naming every replica, for client-side round robin."""
        return "ipv4:" + ",".join(f"127.0.0.1:{p}" for p in ports)

    def _env(self, **extra: str) -> dict[str, str]:
        return {**os.environ, "SIZZLE_REDIS_URL": self.redis_url, "SIZZLE_REDIS_PREFIX": self.prefix,
                "SIZZLE_BROKER_URL": self.broker_url, "SIZZLE_BOT_QUEUE": self.queue,
                "SIZZLE_TOKEN_KEY": "sizzle-loadtest-key-0123456789abcdef", "SIZZLE_GRACE_SECONDS": "1",
                # every simulated player calls from this one address: the per-address limits would
                # measure themselves (the per-player ones still hold)
                "SIZZLE_QUOTA_MATCHES_PER_HOUR_PER_ADDRESS": "0", "SIZZLE_QUOTA_GUESTS_PER_HOUR": "0", **extra}

    def _spawn(self, name: str, args: list[str], env: dict[str, str]) -> None:
        log = open(self.logs / f"{name}.log", "w")  # noqa: SIM115
        self.procs.append(subprocess.Popen([sys.executable, "-m", "apps.cli", *args], env=env, stdout=log,
                                           stderr=subprocess.STDOUT, start_new_session=True))

    def start(self) -> None:
        redis.Redis.from_url(self.redis_url).ping()
        for index in range(self.match_replicas):
            port, metrics = free_port(), free_port()
            self.match_ports.append(port)
            self.metrics_ports.append(metrics)
            self._spawn(f"match-{index}", ["serve", "--services", "match"],
                        self._env(SIZZLE_ADDR=f"127.0.0.1:{port}", SIZZLE_METRICS_PORT=str(metrics)))
        match_target = self.targets(self.match_ports)
        for index in range(self.matchmaking_replicas):
            port, metrics = free_port(), free_port()
            self.matchmaking_ports.append(port)
            self.metrics_ports.append(metrics)
            self._spawn(f"matchmaking-{index}", ["serve", "--services", "matchmaking"],
                        self._env(SIZZLE_ADDR=f"127.0.0.1:{port}", SIZZLE_METRICS_PORT=str(metrics),
                                  SIZZLE_MATCH_ADDR=match_target))
        for index in range(self.workers):
            metrics = free_port()
            self.metrics_ports.append(metrics)
            self._spawn(f"worker-{index}", ["worker", "--concurrency", "1", "--loglevel", "WARNING"],
                        self._env(SIZZLE_MATCH_ADDR=match_target, SIZZLE_METRICS_PORT=str(metrics)))
        for port in self.match_ports + self.matchmaking_ports:
            with open_channel(f"127.0.0.1:{port}", calls_tls()) as channel:
                grpc.channel_ready_future(channel).result(timeout=60)

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        for url, pattern in ((self.redis_url, f"{self.prefix}:*"), (self.broker_url, f"*{self.queue}*")):
            client = redis.Redis.from_url(url)
            keys = list(client.scan_iter(match=pattern, count=2000))  # load-test clean-up only
            for start in range(0, len(keys), 2000):
                client.delete(*keys[start:start + 2000])
