"""The Celery app of the bot workers: Redis as broker, JSON only, late acks, one `bots` queue.

Start a worker with `sizzle worker` (or `celery -A workers.bots.celery_app worker -Q bots`).
"""

from __future__ import annotations

from celery import Celery

from services.kit.config import Config


def make_celery(config: Config) -> Celery:
    app = Celery("sizzle", broker=config.broker_url or "redis://127.0.0.1:6379/1", include=["workers.bots.tasks"])
    app.conf.update(
        task_serializer="json",
        accept_content=["json"],
        result_serializer="json",
        task_ignore_result=True,
        task_acks_late=True,  # a turn whose worker died goes back to the queue
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_default_queue=config.bot_queue,
        broker_connection_retry_on_startup=True,
        # A message not acked this long is delivered again; the match service re-dispatches sooner.
        broker_transport_options={"visibility_timeout": 60},
        worker_hijack_root_logger=False,
    )
    return app


config = Config.from_env()
app = make_celery(config)
