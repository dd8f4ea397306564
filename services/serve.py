"""`sizzle serve`: every service in one process, on the embedded defaults unless configured."""

from __future__ import annotations

import logging

from services.app import Deps, create_server
from services.kit.config import Config
from services.kit.metrics import serve_metrics
from services.kit.server import serve_until_signalled

log = logging.getLogger("sizzle.serve")


async def serve(config: Config) -> None:
    deps = Deps()
    running = await create_server(config, deps)
    serve_metrics(config.metrics_port)
    print(f"Sizzle is serving on {config.addr} (port {running.port}): {', '.join(running.service_names)}", flush=True)
    print("  reflection and grpc.health.v1 are on; stop with Ctrl-C or SIGTERM", flush=True)
    await serve_until_signalled(running, config.grace_seconds)
