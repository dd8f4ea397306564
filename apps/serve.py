"""`sizzle serve`: every service in one process, on the embedded defaults unless configured."""

from __future__ import annotations

import logging

from apps.platform import build_deps, create_server
from services.kit.config import Config
from services.kit.metrics import serve_metrics
from services.kit.server import serve_until_signalled
from services.web.server import WithWebPort, web_port_beside

log = logging.getLogger("sizzle.serve")


async def serve(config: Config, services: tuple[str, ...] | None = None) -> None:
    serve_metrics(config.metrics_port, config.metrics_addr)  # first: a taken port stops it before anything runs
    deps = build_deps(config, services) if services else build_deps(config)
    running = await create_server(config, deps)
    web, no_web = await web_port_beside(config, running)
    print(f"Sizzle is serving on {config.addr} (port {running.port}): {', '.join(running.service_names)}", flush=True)
    if web is not None:
        print(f"Web client and browser API (Connect, gRPC-Web) on {web.url}/", flush=True)
    else:
        print(f"  no web port: {no_web}", flush=True)
    store = "Redis at " + config.redis_url if config.redis_url else "the embedded in-process store"
    bots = "Celery via " + config.broker_url if config.broker_url else "in-process bots"
    print(f"  matches live in {store}; bot seats are played by {bots}", flush=True)
    print(f"  Prometheus metrics on http://{config.metrics_addr}:{config.metrics_port}/metrics" if config.metrics_port
          else "  no metrics endpoint (set SIZZLE_METRICS_PORT)", flush=True)
    from services.records.database import describe, records_url

    records = records_url(config)
    print(f"  records (accounts, finished matches, ratings) are kept in {describe(records)}" if records else
          "  no records database (set SIZZLE_RECORDS_URL): no accounts and no match history; ratings live only"
          " in Redis",
          flush=True)
    if config.uses_dev_key:
        print("  tokens are signed with the DEVELOPMENT key (fine on this machine alone; set SIZZLE_TOKEN_KEY for "
              "anything shared)", flush=True)
    print("  reflection and grpc.health.v1 are on; stop with Ctrl-C or SIGTERM", flush=True)
    await serve_until_signalled(running if web is None else WithWebPort(running, web), config.grace_seconds)
