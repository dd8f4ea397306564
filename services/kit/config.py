"""Configuration, read once at start from the environment into a frozen object and passed down."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace

DEV_TOKEN_KEY = "sizzle-dev-key-not-for-production"


@dataclass(frozen=True)
class Config:
    # Address the gRPC server listens on.
    addr: str = "127.0.0.1:50051"
    # Redis for live matches, pools, ratings and logs; empty: the embedded in-process store.
    redis_url: str = ""
    # Key prefix of every Redis key this deployment writes (tests use one per run).
    redis_prefix: str = "sizzle"
    # Celery broker for bot turns; empty: bots play in-process.
    broker_url: str = ""
    # HMAC key that signs player, seat and bot tokens.
    token_key: str = DEV_TOKEN_KEY
    # Lifetime of a player or seat token, seconds.
    token_ttl_seconds: int = 7 * 24 * 3600
    # Port of the Prometheus metrics endpoint; 0 disables it.
    metrics_port: int = 0
    # Address the metrics endpoint binds (0.0.0.0 in a cluster so Prometheus can scrape it).
    metrics_addr: str = "127.0.0.1"
    # Servers close connections after this long so round-robin clients re-resolve and find new replicas.
    max_connection_age_ms: int = 300_000
    # Largest request or response, bytes.
    max_message_bytes: int = 1 << 20
    # Seconds in-flight calls get to finish after SIGTERM.
    grace_seconds: float = 5.0
    # How long a finished match (and its replay) is kept, seconds.
    replay_ttl_seconds: int = 7 * 24 * 3600
    # Deadline of every outgoing gRPC call, seconds.
    call_timeout_seconds: float = 5.0
    # Address other processes (bots, matchmaking) use to reach the match service.
    match_addr: str = ""
    # Longest a ticket may wait before it expires, seconds.
    ticket_ttl_seconds: int = 600
    # 1 when SIZZLE_REDIS_URL names a node of a Redis Cluster.
    redis_cluster: int = 0
    # Seconds a bot turn may take before it is dispatched again (a worker may have died).
    bot_turn_timeout_seconds: float = 10.0
    # Longest wait of a ticket that names none (CreateTicket max_wait_seconds = 0), seconds.
    ticket_default_wait_seconds: int = 60
    # How long a bot-fill ticket may stay past its longest wait while its match cannot be created, seconds.
    ticket_fill_grace_seconds: int = 30
    # How long an assigned or cancelled ticket stays readable (GetTicket, late watchers), seconds.
    ticket_result_ttl_seconds: int = 300
    # Pause between two matchmaker cycles of a replica, milliseconds.
    matchmaking_interval_ms: int = 200
    # A pool's lease: its holder renews it every cycle; another replica takes over when it lapses, ms.
    matchmaking_lease_ms: int = 3000
    # Oldest tickets a cycle tries to seat per pool (each costs two rating-index range reads).
    matchmaking_batch: int = 256
    # Rating window (OpenSkill mu points) of a ticket that has just arrived.
    matchmaking_window_base: float = 2.0
    # How much the rating window widens per second of waiting.
    matchmaking_window_growth: float = 0.5
    # The widest a rating window gets.
    matchmaking_window_max: float = 50.0
    # Turn limit of matches the matchmaker creates, seconds (a bot plays for a person who walks away).
    matchmaking_turn_seconds: int = 60
    # Test-only fault injection: pause between claiming a group and creating its match, milliseconds.
    matchmaking_pause_after_claim_ms: int = 0
    # The Celery queue bot turns go to.
    bot_queue: str = "bots"
    # Seconds a bot waits before acting (people like to see the bots' moves; 0 in tests and benchmarks).
    bot_think_seconds: float = 0.0

    @staticmethod
    def from_env(env: Mapping[str, str] | None = None) -> Config:
        env = os.environ if env is None else env
        base = Config()
        values: dict[str, object] = {}
        for name, field_type in Config.__annotations__.items():
            key = f"SIZZLE_{name.upper()}"
            if key in env:
                raw = env[key]
                values[name] = int(raw) if field_type == "int" else float(raw) if field_type == "float" else raw
        return replace(base, **values)  # type: ignore[arg-type]

    def with_overrides(self, **changes: object) -> Config:
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def match_target(self) -> str:
        return self.match_addr or self.addr
