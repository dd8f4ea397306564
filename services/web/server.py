"""Starts the web port: Hypercorn serving the web site (services/web/site.py) on SIZZLE_WEB_ADDR in
the running event loop, beside the gRPC server, and stops it gracefully."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypercorn.asyncio import serve
from hypercorn.config import Config as HypercornConfig
from hypercorn.middleware import ProxyFixMiddleware

from services.kit.config import Config
from services.kit.interceptor import Admission
from services.kit.server import Registration
from services.web.bridge import RpcApp, intercepted_endpoints
from services.web.site import CLIENT_DIR, build_site

log = logging.getLogger("sizzle.web")


def split_addr(addr: str) -> tuple[str, int]:
    host, _, port = addr.rpartition(":")
    return host.strip("[]") or "127.0.0.1", int(port)


def bind(addr: str) -> socket.socket:
    host, port = split_addr(addr)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family, reuse_port=False)
    except OSError as error:
        raise OSError(f"the web port cannot listen on {addr}: {error.strerror}") from error


@dataclass
class RunningWeb:
    """The web port, serving."""

    host: str
    port: int
    task: asyncio.Task[None]
    shutdown: asyncio.Event

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def stop(self, grace: float) -> None:
        """Stops accepting, gives open calls `grace` seconds, then ends the rest (watch streams)."""
        self.shutdown.set()
        try:
            await asyncio.wait_for(asyncio.shield(self.task), grace + 1)
        except TimeoutError:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        log.info("stopped the web port %s", self.url)


async def start_web(config: Config, registrations: Sequence[Registration], admit: Admission | None,
                    addr: str | None = None, client_dir: Path | None = None) -> RunningWeb:
    """Serves `registrations` (the servicers the gRPC server serves) on the web port, with the web
    client's files from `client_dir` (default: SIZZLE_WEB_CLIENT_DIR, else this checkout's build)."""
    endpoints = await intercepted_endpoints(registrations, admit)
    if client_dir is None:
        client_dir = Path(config.web_client_dir) if config.web_client_dir else CLIENT_DIR
    site: Any = build_site(RpcApp(endpoints, config.max_message_bytes), config.web_cors_origins, client_dir)
    if config.web_proxy_hops:  # behind an Ingress: the caller is the proxies' X-Forwarded-For entry
        site = ProxyFixMiddleware(site, mode="legacy", trusted_hops=config.web_proxy_hops)
    sock = bind(addr or config.web_addr)
    host, port = sock.getsockname()[:2]
    settings = HypercornConfig()
    settings.bind = [f"fd://{sock.detach()}"]
    settings.graceful_timeout = config.grace_seconds
    settings.accesslog = None
    settings.errorlog = log
    settings.include_server_header = False
    shutdown = asyncio.Event()
    task = asyncio.create_task(_serve(site, settings, shutdown), name="web port")
    return RunningWeb(host, port, task, shutdown)


async def _serve(site: Any, settings: HypercornConfig, shutdown: asyncio.Event) -> None:
    try:
        await serve(site, settings, shutdown_trigger=shutdown.wait, mode="asgi")
    except Exception:
        log.exception("the web port stopped")
        raise


@dataclass
class WithWebPort:
    """A server and its web port, stopped together: the web port first, then the server."""

    server: Any
    web: RunningWeb

    async def stop(self, grace: float) -> None:
        await self.web.stop(grace)
        await self.server.stop(grace)


async def web_port_beside(config: Config, platform: Any) -> tuple[RunningWeb | None, str]:
    """`sizzle serve`'s web port beside the platform's gRPC server: (the port, "") when it serves;
    (None, why) when SIZZLE_WEB_ADDR is empty or its address is taken (another `sizzle serve` of a
    multi-process topology holds it, say): the gRPC port serves on without it."""
    if not config.web_addr:
        return None, "SIZZLE_WEB_ADDR is empty"
    try:
        return await start_web(config, platform.registrations, platform.admit), ""
    except OSError as error:
        log.warning("%s; serving gRPC only", error)
        return None, str(error)
