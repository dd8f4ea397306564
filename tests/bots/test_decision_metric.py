"""`sizzle_bot_decision_seconds` counts each bot decision once (it counted each twice: under the
path's kind and again under the policy's), so its rate is the decision rate."""

from __future__ import annotations

import time

import grpc
from prometheus_client import REGISTRY

from apps.platform import Deps, create_server
from services.kit.config import Config
from sizzle.match.v1 import match_service_pb2 as mpb
from tests.match.players import BOT, Player
from tests.servers import ServerThread


def decisions() -> float:
    total = 0.0
    for family in REGISTRY.collect():
        if family.name == "sizzle_bot_decision_seconds":
            total += sum(s.value for s in family.samples if s.name.endswith("_count"))
    return total


def test_each_in_process_bot_decision_is_counted_once() -> None:
    server = ServerThread(lambda: create_server(Config(addr="127.0.0.1:0"), Deps(services=("match",))))
    try:
        with grpc.insecure_channel(server.target) as channel:
            host = Player.guest(channel, "host")
            before = decisions()
            match = host.create("grill_party", [BOT, BOT])  # the shipped policies decide
            deadline = time.monotonic() + 60
            while True:
                current = host.stub.GetMatch(mpb.GetMatchRequest(match_id=match.match_id), timeout=5).match
                if current.status == mpb.MATCH_STATUS_FINISHED:
                    break
                assert time.monotonic() < deadline
                time.sleep(0.05)
            replay = host.stub.GetReplay(mpb.GetReplayRequest(match_id=match.match_id), timeout=5)
            bot_actions = sum(1 for step in replay.steps if step.action.type_url)
            assert decisions() - before == bot_actions
    finally:
        server.stop()
