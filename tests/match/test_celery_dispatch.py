"""Bot turns are enqueued beside the request that made them: the caller never waits for the broker,
and a turn the broker cannot take is logged and counted, its deadline dispatching it again."""

from __future__ import annotations

import asyncio

from prometheus_client import REGISTRY

from services.bench.harness import free_port
from services.kit.config import Config
from services.match.celery_bots import CeleryBots


def failures(game: str) -> float:
    return REGISTRY.get_sample_value("sizzle_bot_dispatch_failures_total", {"game": game}) or 0.0


def test_a_turn_the_broker_cannot_take_is_counted_and_the_caller_does_not_wait() -> None:
    async def main() -> None:
        # Nothing listens on this port: every connection to the broker is refused.
        bots = CeleryBots(Config(broker_url=f"redis://127.0.0.1:{free_port()}/0", bot_queue="bots-nowhere"))
        before = failures("a_la_carte")
        loop = asyncio.get_running_loop()
        start = loop.time()
        await bots.dispatch("m_0000000000000000", 1, 7, "a_la_carte")
        assert loop.time() - start < 0.05, "dispatch waited for the broker"
        assert failures("a_la_carte") == before  # still trying
        await bots.close()  # lets the enqueue under way finish: here, fail
        assert failures("a_la_carte") == before + 1

    asyncio.run(main())
