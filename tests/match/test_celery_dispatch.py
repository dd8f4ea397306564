"""Bot turns are enqueued beside the request that made them: the caller never waits for the broker,
and a turn the broker cannot take is logged and counted, its deadline dispatching it again."""

from __future__ import annotations

import asyncio

from prometheus_client import REGISTRY

from apps.bench.harness import free_port
from services.kit.config import Config
from services.match.bot_turns import TASK
from services.match.celery_bots import CeleryBots
from workers.bots.celery_app import make_celery


def celery_bots(config: Config) -> CeleryBots:
    return CeleryBots(config, make_celery(config))


def failures(game: str) -> float:
    return REGISTRY.get_sample_value("sizzle_bot_dispatch_failures_total", {"game": game}) or 0.0


def test_a_turn_the_broker_cannot_take_is_counted_and_the_caller_does_not_wait() -> None:
    async def main() -> None:
        # Nothing listens on this port: every connection to the broker is refused.
        bots = celery_bots(Config(broker_url=f"redis://127.0.0.1:{free_port()}/0", bot_queue="bots-nowhere"))
        before = failures("a_la_carte")
        loop = asyncio.get_running_loop()
        start = loop.time()
        await bots.dispatch("m_0000000000000000", 1, 7, "a_la_carte")
        assert loop.time() - start < 0.05, "dispatch waited for the broker"
        assert failures("a_la_carte") == before  # still trying
        await bots.close()  # lets the enqueue under way finish: here, fail
        assert failures("a_la_carte") == before + 1

    asyncio.run(main())


def test_the_loop_publisher_queues_the_message_celery_would(redis_url: str, redis_prefix: str) -> None:
    """Sent from the event loop, a turn lands on the queue as Celery's own send_task puts it there
    (a worker reads it like any other: tests/bots/test_celery_worker.py plays matches through it)."""
    import json

    import redis

    queue = f"{redis_prefix}:bots"
    bots = celery_bots(Config(broker_url=redis_url, bot_queue=queue))
    assert bots.publisher is not None  # a Redis broker: no thread
    args = ["m_0000000000000000", 1, 7, 1_700_000_000_000]

    async def main() -> None:
        await bots.publisher.send(TASK, args, queue)  # type: ignore[union-attr]
        await bots.close()

    asyncio.run(main())
    bots.app.send_task(TASK, args=args, queue=queue, argsrepr=repr(args), kwargsrepr="{}")
    client = redis.Redis.from_url(redis_url)
    ours, celerys = (json.loads(client.rpop(queue)) for _ in range(2))  # type: ignore[arg-type]
    assert client.llen(queue) == 0

    def fixed(message: dict) -> dict:  # type: ignore[type-arg]
        """The message less what differs between any two sends: the task id and delivery tag."""
        for key in ("id", "root_id"):
            message["headers"].pop(key)
        for key in ("correlation_id", "delivery_tag"):
            message["properties"].pop(key)
        return message

    assert fixed(ours) == fixed(celerys)


def test_a_broker_other_than_redis_is_sent_to_from_a_thread() -> None:
    assert celery_bots(Config(broker_url="amqp://guest@127.0.0.1:5672//", bot_queue="bots")).publisher is None
