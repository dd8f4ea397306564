"""A real three-node Redis Cluster on loopback for the store suite (redis-server --cluster-enabled and
redis-cli --cluster create), started in a temporary folder and stopped after."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import redis


def _free_cluster_port() -> int:
    """A port p such that p and its cluster bus port p + 10000 are both free."""
    for _ in range(100):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if port + 10000 > 65535:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        return port
    raise RuntimeError("no free port pair for a cluster node")


class RedisCluster:
    def __init__(self, nodes: int = 3) -> None:
        if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
            raise RuntimeError("the Redis Cluster test needs redis-server and redis-cli (apt's redis-server)")
        self.folder = Path(tempfile.mkdtemp(prefix="sizzle-cluster-"))
        self.ports = []
        self.procs: list[subprocess.Popen[bytes]] = []
        for _ in range(nodes):
            port = _free_cluster_port()
            node = self.folder / str(port)
            node.mkdir()
            self.procs.append(subprocess.Popen(
                ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--cluster-enabled", "yes",
                 "--cluster-config-file", str(node / "nodes.conf"), "--save", "", "--appendonly", "no",
                 "--dir", str(node)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            self.ports.append(port)
        for port in self.ports:
            self._wait(lambda p=port: redis.Redis(port=p).ping())
        subprocess.run(["redis-cli", "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports),
                        "--cluster-replicas", "0", "--cluster-yes"], check=True, capture_output=True, timeout=60)
        for port in self.ports:
            self._wait(lambda p=port: redis.Redis(port=p).cluster("info")["cluster_state"] == "ok")

    @staticmethod
    def _wait(check, timeout: float = 20) -> None:  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + timeout
        while True:
            try:
                if check():
                    return
            except redis.exceptions.RedisError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the Redis Cluster did not come up")
            time.sleep(0.1)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            proc.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)
