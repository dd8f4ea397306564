"""Shared fixtures: real servers on loopback ports and a real Redis (never skipped: a test that needs
Redis fails loudly when none answers; `make test` starts one)."""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Iterator

import grpc
import pytest
import redis

from apps.platform import Deps, create_server
from services.kit.config import Config
from tests.servers import ServerThread
from workers.bots.interface import RandomBot

# Tests use their own database number and a key prefix per test, and delete their keys after.
REDIS_URL = os.environ.get("SIZZLE_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")


def random_bot_factory(game_id: str, difficulty: str, rng: random.Random) -> RandomBot:
    return RandomBot(rng)


@pytest.fixture(scope="session")
def redis_url() -> str:
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.exceptions.ConnectionError as exc:
        raise RuntimeError(f"these tests need Redis at {REDIS_URL} (make test starts one): {exc}") from exc
    return REDIS_URL


@pytest.fixture()
def redis_prefix(redis_url: str) -> Iterator[str]:
    prefix = f"sizzle-test-{uuid.uuid4().hex[:12]}"
    yield prefix
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))  # test clean-up only
    if keys:
        client.delete(*keys)


@pytest.fixture(scope="module")
def platform() -> Iterator[ServerThread]:
    """The whole platform on the embedded defaults, on a free loopback port."""
    config = Config(addr="127.0.0.1:0")
    server = ServerThread(lambda: create_server(config, Deps(bot_factory=random_bot_factory)))
    yield server
    server.stop()


@pytest.fixture()
def channel(platform: ServerThread) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(platform.target) as ch:
        yield ch
