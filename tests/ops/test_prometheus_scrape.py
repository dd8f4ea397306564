"""A real Prometheus (Debian's package) scrapes a running Sizzle through the shipped scrape
configuration, and the test reads a metric back through Prometheus's query API."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import grpc

from sizzle.rules.v1 import rules_service_pb2 as pb
from sizzle.rules.v1 import rules_service_pb2_grpc
from tests.kit.test_graceful_shutdown import free_port

ROOT = Path(__file__).resolve().parents[2]


def ensure_prometheus() -> str:
    binary = shutil.which("prometheus")
    if binary is None:  # installs Debian's package, as scripts/deploy_check.sh does
        subprocess.run(["apt-get", "update", "-qq"], check=True, capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", "prometheus"], check=True, capture_output=True)
        binary = shutil.which("prometheus")
    assert binary, "Debian's prometheus package is needed"
    return binary


def query(port: int, expr: str) -> list[dict]:  # type: ignore[type-arg]
    url = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    with urllib.request.urlopen(url, timeout=5) as response:
        body = json.load(response)
    assert body["status"] == "success"
    return body["data"]["result"]  # type: ignore[no-any-return]


def test_prometheus_scrapes_the_stack() -> None:
    binary = ensure_prometheus()
    folder = Path(tempfile.mkdtemp(prefix="sizzle-prom-"))
    shutil.copytree(ROOT / "deploy" / "prometheus", folder / "prometheus")
    config_dir = folder / "prometheus"
    for target in (config_dir / "targets").glob("sizzle-*.json"):
        target.unlink()
    grpc_port, metrics_port, prom_port = free_port(), free_port(), free_port()
    (config_dir / "targets" / "sizzle-test.json").write_text(json.dumps(
        [{"targets": [f"127.0.0.1:{metrics_port}"], "labels": {"component": "all-in-one"}}]))
    env = {**os.environ, "SIZZLE_ADDR": f"127.0.0.1:{grpc_port}", "SIZZLE_METRICS_PORT": str(metrics_port)}
    sizzle = subprocess.Popen([sys.executable, "-m", "apps.cli", "serve"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    prometheus = subprocess.Popen(
        [binary, f"--config.file={config_dir / 'prometheus.yml'}", f"--storage.tsdb.path={folder / 'data'}",
         f"--web.listen-address=127.0.0.1:{prom_port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{grpc_port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=30)
            rules = rules_service_pb2_grpc.RulesServiceStub(channel)
            for _ in range(5):
                rules.ListGames(pb.ListGamesRequest(), timeout=5)
        deadline = time.monotonic() + 60
        result: list[dict] = []  # type: ignore[type-arg]
        while time.monotonic() < deadline:
            try:
                result = query(prom_port, 'grpc_server_handled_total{grpc_method="ListGames",grpc_code="OK"}')
            except OSError:
                result = []
            if result:
                break
            time.sleep(1)
        assert result, "Prometheus never scraped grpc_server_handled_total"
        assert float(result[0]["value"][1]) >= 5
        assert result[0]["metric"]["grpc_service"] == "sizzle.rules.v1.RulesService"
        assert query(prom_port, 'up{job="sizzle"}')[0]["value"][1] == "1"
    finally:
        for proc in (prometheus, sizzle):
            proc.terminate()
            proc.wait(20)
        shutil.rmtree(folder, ignore_errors=True)
