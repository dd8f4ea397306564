"""The Celery task of a bot turn: thin and idempotent; it carries ids and re-reads the match.

gRPC channels and ONNX sessions are created in each worker process after the fork, once. The TLS
files of the channel (services/kit/tls.py) are read when the worker starts, before it forks.
"""

from __future__ import annotations

import os
from typing import Any

import grpc
from celery.signals import worker_process_init
from celery.signals import worker_process_shutdown as worker_process_shutdown_signal

from services.auth.tokens import TokenSigner
from services.kit.tls import client_tls, open_channel
from services.match.bot_turns import TASK
from sizzle.match.v1 import match_service_pb2_grpc
from workers.bots.celery_app import app, config
from workers.bots.turn import play_turn

_process: dict[str, Any] = {}
_tls = client_tls(config)  # a half-configured TLS stops the worker here, with one line
RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.RESOURCE_EXHAUSTED)


@worker_process_init.connect
def _after_fork(**_: Any) -> None:
    _process.clear()


def _stub() -> Any:
    if _process.get("pid") != os.getpid():
        _process.clear()
        _process["pid"] = os.getpid()
        channel = open_channel(config.match_target, _tls, [("grpc.lb_policy_name", "round_robin")])
        _process["stub"] = match_service_pb2_grpc.MatchServiceStub(channel)
        _process["token"] = TokenSigner(config.token_key, 24 * 3600).bot_token()
    return _process["stub"]


def _make_bot(game_id: str, difficulty: str, rng: Any) -> Any:
    from workers.bots.policy import make_bot

    return make_bot(game_id, difficulty, rng)


class TransientError(Exception):
    """A gRPC failure worth retrying (the match service is restarting or overloaded)."""


@app.task(name=TASK, bind=True, acks_late=True, autoretry_for=(TransientError,),
          retry_backoff=0.2, retry_backoff_max=5, retry_jitter=True, max_retries=8)
def take_turn(self: Any, match_id: str, seat: int, version: int, dispatched_unix_ms: int = 0) -> str:
    stub = _stub()
    try:
        return play_turn(stub, _process["token"], match_id, seat, version, _make_bot, config.call_timeout_seconds,
                         dispatched_unix_ms, config.bot_think_seconds)
    except grpc.RpcError as error:
        if error.code() in RETRYABLE:
            raise TransientError(f"{error.code().name}: {error.details()}") from error
        raise


@worker_process_shutdown_signal.connect
def _mark_dead(pid: int | None = None, **_: Any) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid or os.getpid())


@app.task(name="workers.bots.tasks.noop", acks_late=True)
def noop(reply_key: str) -> None:
    """Does nothing but answer on a Redis list: the baseline of a Celery round trip in `make bench`."""
    import redis

    if "redis" not in _process or _process.get("redis_pid") != os.getpid():
        _process["redis"] = redis.Redis.from_url(config.broker_url)
        _process["redis_pid"] = os.getpid()
    client = _process["redis"]
    client.lpush(reply_key, 1)
    client.expire(reply_key, 60)
