"""The conventional gRPC server metrics (grpc_server_*, as go-grpc-prometheus names them) and the
open-streams gauge, read from the /metrics page a Prometheus scrapes, for unary calls and a WatchMatch
stream through a real server."""

from __future__ import annotations

import threading
import time
import urllib.request
from collections.abc import Iterator

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from apps.platform import Deps, create_server
from services.kit.config import Config
from services.kit.metrics import serve_metrics
from services.match.store import MemoryStore
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.rules.v1 import rules_service_pb2 as rpb
from sizzle.rules.v1 import rules_service_pb2_grpc
from tests.conftest import random_bot_factory
from tests.match.players import HUMAN, Player, auth
from tests.servers import ServerThread

RULES = "sizzle.rules.v1.RulesService"
MATCH = "sizzle.match.v1.MatchService"


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[ServerThread, int]]:
    config = Config(addr="127.0.0.1:0", web_addr="")
    running = ServerThread(lambda: create_server(config, Deps(store=MemoryStore(), bot_factory=random_bot_factory)))
    port = free_port()
    serve_metrics(port)
    yield running, port
    running.stop()


def sample(port: int, name: str, labels: dict[str, str]) -> float:
    page = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    for family in text_string_to_metric_families(page):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return float(s.value)
    return 0.0


def test_unary_calls_are_started_handled_and_timed(server: tuple[ServerThread, int]) -> None:
    running, port = server
    unary = {"grpc_type": "unary", "grpc_service": RULES, "grpc_method": "GetGame"}
    before = [sample(port, "grpc_server_started_total", unary),
              sample(port, "grpc_server_handled_total", {**unary, "grpc_code": "OK"}),
              sample(port, "grpc_server_handled_total", {**unary, "grpc_code": "INVALID_ARGUMENT"}),
              sample(port, "grpc_server_handling_seconds_count", unary)]
    with grpc.insecure_channel(running.target) as channel:
        rules = rules_service_pb2_grpc.RulesServiceStub(channel)
        rules.GetGame(rpb.GetGameRequest(game_id="hibachi"), timeout=5)
        with pytest.raises(grpc.RpcError):
            rules.GetGame(rpb.GetGameRequest(game_id="chess"), timeout=5)
    after = [sample(port, "grpc_server_started_total", unary),
             sample(port, "grpc_server_handled_total", {**unary, "grpc_code": "OK"}),
             sample(port, "grpc_server_handled_total", {**unary, "grpc_code": "INVALID_ARGUMENT"}),
             sample(port, "grpc_server_handling_seconds_count", unary)]
    assert [a - b for a, b in zip(after, before, strict=True)] == [2, 1, 1, 2]


def test_a_watch_stream_is_open_while_it_lasts_and_counts_its_messages(server: tuple[ServerThread, int]) -> None:
    running, port = server
    stream = {"grpc_type": "server_stream", "grpc_service": MATCH, "grpc_method": "WatchMatch"}
    gauge = {"grpc_service": MATCH, "grpc_method": "WatchMatch"}
    with grpc.insecure_channel(running.target) as channel:
        alice = Player.guest(channel, "alice")
        match = alice.create("grill_party", [HUMAN, HUMAN])
        sent_before = sample(port, "grpc_server_msg_sent_total", stream)
        open_before = sample(port, "sizzle_grpc_open_streams", gauge)  # (other tests' servers share the registry)
        call = alice.stub.WatchMatch(mpb.WatchMatchRequest(match_id=match.match_id), metadata=auth(alice.token),
                                     timeout=30)
        first = threading.Event()
        threading.Thread(target=lambda: (next(call), first.set()), daemon=True).start()
        assert first.wait(10)
        assert sample(port, "sizzle_grpc_open_streams", gauge) == open_before + 1
        assert sample(port, "grpc_server_msg_sent_total", stream) >= sent_before + 1
        call.cancel()
        deadline = time.monotonic() + 10
        while sample(port, "sizzle_grpc_open_streams", gauge) != open_before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sample(port, "sizzle_grpc_open_streams", gauge) == open_before
        assert sample(port, "grpc_server_handled_total", {**stream, "grpc_code": "CANCELLED"}) >= 1
