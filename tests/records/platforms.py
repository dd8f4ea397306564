"""Real servers with durable records for the records tests: the whole platform in a thread on a free
loopback port (the embedded live store, or Redis), its records on a test database."""

from __future__ import annotations

from typing import Any

import grpc

from apps.platform import Deps, create_server
from services.kit.config import Config
from services.match.redis_store import RedisStore
from sizzle.auth.v1 import auth_service_pb2 as apb
from sizzle.auth.v1 import auth_service_pb2_grpc
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc
from tests.conftest import random_bot_factory
from tests.match.players import auth
from tests.records.databases import RecordsDatabase
from tests.servers import ServerThread

KEY = "sizzle-records-test-key-0123456789abcdef"


def records_platform(database: RecordsDatabase, redis: tuple[str, str] | None = None, **config: Any) -> ServerThread:
    """The platform on `database`'s records; on Redis (url, prefix) when given, else the embedded store."""
    settings: dict[str, Any] = {"addr": "127.0.0.1:0", "token_key": KEY, "records_interval_ms": 50,
                                "matchmaking_interval_ms": 50, **config}
    if redis is not None:
        settings.update(redis_url=redis[0], redis_prefix=redis[1])
    built = Config(**settings)

    def deps() -> Deps:
        store = RedisStore(redis[0], redis[1], built.replay_ttl_seconds) if redis is not None else None
        made = Deps(records=database.store(), bot_factory=random_bot_factory)
        if store is not None:
            made.store = store
        return made

    return ServerThread(lambda: create_server(built, deps()))


def auth_stub(channel: grpc.Channel) -> auth_service_pb2_grpc.AuthServiceStub:
    return auth_service_pb2_grpc.AuthServiceStub(channel)


def register(channel: grpc.Channel, username: str, password: str) -> apb.RegisterResponse:
    return auth_stub(channel).Register(apb.RegisterRequest(username=username, password=password), timeout=10)


def login(channel: grpc.Channel, username: str, password: str) -> apb.LoginResponse:
    return auth_stub(channel).Login(apb.LoginRequest(username=username, password=password), timeout=10)


def history(channel: grpc.Channel, token: str = "", **fields: Any) -> mpb.ListMatchHistoryResponse:
    stub = match_service_pb2_grpc.MatchServiceStub(channel)
    return stub.ListMatchHistory(mpb.ListMatchHistoryRequest(**fields), metadata=auth(token) if token else None,
                                 timeout=5)
