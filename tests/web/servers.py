"""The whole platform with its web port on free loopback ports, for the web tests: the gRPC server
and the web port share the servicers, as `sizzle serve` runs them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from apps.platform import Deps, Platform, create_server
from services.kit.config import Config
from services.web.server import RunningWeb, start_web
from services.web.site import CLIENT_DIR


@dataclass
class WebPlatform:
    platform: Platform
    web: RunningWeb

    @property
    def target(self) -> str:
        return self.platform.target

    @property
    def url(self) -> str:
        return self.web.url

    async def stop(self, grace: float) -> None:
        await self.web.stop(grace)
        await self.platform.stop(grace)


async def start_web_platform(config: Config, deps: Deps, client_dir: Path | None = CLIENT_DIR) -> WebPlatform:
    """`client_dir` None: the folder SIZZLE_WEB_CLIENT_DIR names, as `sizzle serve` finds it."""
    platform = await create_server(config, deps)
    web = await start_web(config, platform.registrations, platform.admit, addr="127.0.0.1:0", client_dir=client_dir)
    return WebPlatform(platform, web)


def web_config(**overrides: Any) -> Config:
    return Config(addr="127.0.0.1:0", web_addr="127.0.0.1:0", **overrides)
