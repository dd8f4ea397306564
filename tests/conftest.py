"""Shared fixtures: real servers on loopback ports."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

from services.app import Deps, create_server
from services.kit.config import Config
from tests.servers import ServerThread


@pytest.fixture(scope="module")
def platform() -> Iterator[ServerThread]:
    """The whole platform on the embedded defaults, on a free loopback port."""
    config = Config(addr="127.0.0.1:0")
    server = ServerThread(lambda: create_server(config, Deps()))
    yield server
    server.stop()


@pytest.fixture()
def channel(platform: ServerThread) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(platform.target) as ch:
        yield ch
