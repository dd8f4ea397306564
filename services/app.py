"""Builds the whole platform's gRPC server: `create_server(config, deps)` is used by `sizzle serve` and
by the tests alike, so both run the same wiring."""

from __future__ import annotations

from dataclasses import dataclass

from services.kit.config import Config
from services.kit.server import Registration, RunningServer, start_server
from services.rules import service as rules_service
from sizzle.rules.v1 import rules_service_pb2_grpc


@dataclass
class Deps:
    """What the services need from outside: filled in by `build_deps` or by a test."""


def registrations(config: Config, deps: Deps) -> list[Registration]:
    return [
        Registration(
            rules_service_pb2_grpc.add_RulesServiceServicer_to_server,
            rules_service.RulesServicer(),
            rules_service.SERVICE_NAME,
        ),
    ]


async def create_server(config: Config, deps: Deps, addr: str | None = None) -> RunningServer:
    return await start_server(config, registrations(config, deps), addr)
