"""A broker outage during bot turns: the broker (a Redis of the test's own) dies mid-match and comes
back; the turns that could not be enqueued are played once it returns (the turn deadline dispatches
them again), and none is played twice. Bounded: the whole test stops by itself within minutes."""

from __future__ import annotations

import socket
import subprocess
import time
import uuid
from collections.abc import Iterator

import pytest
import redis

from apps.platform import Deps, create_server
from services.kit.config import Config
from services.match.redis_store import RedisStore
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc
from tests.bots.test_celery_worker import KEY, Worker, all_bot_match, assert_each_turn_once, wait_finished
from tests.servers import ServerThread
from tests.waiting import eventually


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Broker:
    """A throwaway redis-server on a loopback port, that the test can kill and start again."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                assert time.monotonic() < deadline, "the broker did not start"
                time.sleep(0.05)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)


@pytest.fixture()
def broker() -> Iterator[Broker]:
    made = Broker()
    made.start()
    yield made
    if made.proc is not None and made.proc.poll() is None:
        made.kill()


def test_turns_wait_out_a_broker_outage_and_none_is_played_twice(redis_url: str, broker: Broker) -> None:
    prefix, queue = f"sizzle-test-{uuid.uuid4().hex[:10]}", "bots-outage"
    config = Config(addr="127.0.0.1:0", token_key=KEY, redis_url=redis_url, redis_prefix=prefix,
                    broker_url=broker.url, bot_queue=queue, bot_turn_timeout_seconds=1.0)
    server = ServerThread(lambda: create_server(config, Deps(store=RedisStore(redis_url, prefix, 3600))))
    worker = Worker({"SIZZLE_BROKER_URL": broker.url, "SIZZLE_BOT_QUEUE": queue, "SIZZLE_MATCH_ADDR": server.target,
                     "SIZZLE_TOKEN_KEY": KEY}, concurrency=1)
    try:
        channel, match = all_bot_match(server.target, "grill_party", 3)
        stub = match_service_pb2_grpc.MatchServiceStub(channel)

        def version() -> int:
            return int(stub.GetMatch(mpb.GetMatchRequest(match_id=match.match_id), timeout=5).match.version)

        eventually(lambda: version() >= 4, timeout=60, every=0.1)
        broker.kill()
        stalled = version()
        time.sleep(3)  # three turn deadlines pass while no broker answers
        during = version()
        assert during <= stalled + 1  # at most the turn already in a worker's hands lands
        broker.start()  # the same port: the match service and the worker reconnect
        finished = wait_finished(channel, match.match_id, timeout=180)
        assert finished.version > during
        assert_each_turn_once(channel, finished)
    finally:
        worker.stop()
        server.stop()
        client = redis.Redis.from_url(redis_url)
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
