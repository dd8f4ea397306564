"""The shared server kit: one way to build, start and stop a gRPC server.

Every server gets the ServiceInterceptor (error model and RPC metrics), standard health checking,
reflection (descriptors with json_name filled in), bounded message sizes, and a graceful stop that
turns health NOT_SERVING first. Its port serves TLS (or mTLS) when the config names a certificate
and key (services/kit/tls.py), plaintext otherwise.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from services.kit.config import Config
from services.kit.interceptor import Admission, ServiceInterceptor
from services.kit.reflection_pool import JsonNamePool
from services.kit.tls import server_tls

log = logging.getLogger("sizzle.server")


@dataclass(frozen=True)
class Registration:
    """One servicer to add: its generated add function, the servicer, and its full service name."""

    add: Callable[[Any, grpc.aio.Server], None]
    servicer: Any
    service_name: str


@dataclass
class RunningServer:
    server: grpc.aio.Server
    port: int
    health: health.aio.HealthServicer
    service_names: tuple[str, ...]
    secure: bool = False  # the port serves TLS

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def stop(self, grace: float) -> None:
        """Health goes NOT_SERVING first, then in-flight calls get `grace` seconds."""
        await self.health.enter_graceful_shutdown()
        await self.server.stop(grace)


def channel_options(config: Config) -> list[tuple[str, Any]]:
    return [
        ("grpc.max_receive_message_length", config.max_message_bytes),
        ("grpc.max_send_message_length", config.max_message_bytes),
    ]


def server_options(config: Config) -> list[tuple[str, Any]]:
    return [
        *channel_options(config),
        ("grpc.max_connection_age_ms", config.max_connection_age_ms),
        ("grpc.max_connection_age_grace_ms", int(config.grace_seconds * 1000)),
        # gRPC turns SO_REUSEPORT on: a second server on a taken port started beside the first and
        # took half its connections, each with matches of its own. A taken port is an error.
        ("grpc.so_reuseport", 0),
    ]


async def start_server(config: Config, registrations: Sequence[Registration], addr: str | None = None,
                       admit: Admission | None = None) -> RunningServer:
    tls = server_tls(config)  # first: a half-configured TLS stops the process before anything listens
    server = grpc.aio.server(interceptors=[ServiceInterceptor(admit)], options=server_options(config))
    for registration in registrations:
        registration.add(registration.servicer, server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    names = tuple(r.service_name for r in registrations)
    served = (*names, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME)
    # Descriptors with json_name filled in, so every grpcurl prints lowerCamel JSON (services/kit/reflection_pool.py).
    reflection.enable_server_reflection(served, server, pool=JsonNamePool(served))
    listen = addr or config.addr
    try:
        port = server.add_secure_port(listen, tls.credentials()) if tls else server.add_insecure_port(listen)
    except RuntimeError:  # grpc's "Failed to bind": taken, or not this machine's address
        port = 0
    if port == 0:
        raise OSError(f"cannot listen on {listen} (is another server on it?)")
    if tls:
        log.info("port %d serves %s", port, tls.describe())
    await server.start()
    for name in ("", *names):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return RunningServer(server, port, health_servicer, names, secure=tls is not None)


async def serve_until_signalled(running: Any, grace: float) -> None:
    """Blocks until SIGTERM or SIGINT, then drains gracefully."""
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    await stopping.wait()
    log.info("stopping: health NOT_SERVING, draining for %.1fs", grace)
    await running.stop(grace)
