"""Configuration, read once at start from the environment into a frozen object and passed down.

`Config.from_env()` parses every `SIZZLE_<FIELD>` variable with pydantic-settings (the field's type:
`SIZZLE_REDIS_CLUSTER=true` is a bool, `SIZZLE_GRACE_SECONDS=abc` an error) and refuses a
`SIZZLE_*` variable that names no setting (a typo would otherwise be ignored in silence), each with
one line naming the variable: `ConfigError`, which the entry points print before exiting with 2.
Variables of the project's tools (`SIZZLE_TEST_*`, `SIZZLE_BENCH_*`, ...) are not settings and may
share the environment.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from functools import cache
from typing import Any

DEV_TOKEN_KEY = "sizzle-dev-key-not-for-production"
MIN_TOKEN_KEY_CHARS = 32
PREFIX = "SIZZLE_"
# Variables of the tools around the servers (tests, benchmarks, load, deploy checks), not settings.
TOOL_PREFIXES = ("SIZZLE_TEST_", "SIZZLE_BENCH_", "SIZZLE_LOADTEST_", "SIZZLE_LOAD_", "SIZZLE_DEPLOY_")


class ConfigError(ValueError):
    """A SIZZLE_* variable that is no setting, or whose value does not parse; its text is one line."""


@dataclass(frozen=True)
class Config:
    # Address the gRPC server listens on.
    addr: str = "127.0.0.1:50051"
    # Address of the web port of `sizzle serve` (Connect, gRPC-Web and gRPC over HTTP, and the web
    # client; docs/web.md); empty: no web port.
    web_addr: str = "127.0.0.1:8080"
    # Origins of third-party web clients allowed to call the web port (CORS), comma-separated; "*" for
    # any; empty: only pages the web port serves itself.
    web_cors_origins: str = ""
    # Folder of the built web client the web port serves; empty: clients/web/dist of this checkout
    # (`make web`). The image sets the folder its web stage built.
    web_client_dir: str = ""
    # Proxies in front of the web port that each append the caller's address to X-Forwarded-For (an
    # Ingress: 1). The web port then takes the caller's address from there, for the per-address
    # quotas; 0: the connection's own address (callers reach the port directly). Never more than
    # really stand in front: a caller can write the header's earlier entries itself.
    web_proxy_hops: int = 0
    # Redis for live matches, pools, ratings and logs; empty: the embedded in-process store.
    redis_url: str = ""
    # Key prefix of every Redis key this deployment writes (tests use one per run).
    redis_prefix: str = "sizzle"
    # Celery broker for bot turns; empty: bots play in-process.
    broker_url: str = ""
    # HMAC key that signs player, seat and bot tokens (at least 32 characters). Required wherever a
    # store is shared (Redis, a broker): only the embedded default may run on the development key.
    token_key: str = DEV_TOKEN_KEY
    # Requests a second a player (or an address, without a player token) may make; 0: no limit.
    # Bots and services are not limited. Kept in the store, so it holds across replicas.
    quota_requests_per_second: float = 0.0
    # How many requests above that rate a burst may hold.
    quota_request_burst: int = 60
    # Matches a player may create an hour; 0: no limit.
    quota_matches_per_hour: int = 120
    # Matches a player created that may run (not be over) at once; 0: no limit.
    quota_live_matches: int = 20
    # Matches players create from one address in an hour, whatever the players (guests are free, so the
    # per-player quota alone bounds nothing); 0: no limit.
    quota_matches_per_hour_per_address: int = 600
    # Tickets a player may create an hour; 0: no limit.
    quota_tickets_per_hour: int = 240
    # Watch streams (WatchMatch, WatchTicket) a player, or an address without a player token, may hold open.
    quota_watch_streams: int = 32
    # Earlier signing keys still accepted for verification, comma-separated (key rotation: sign with
    # the new key, keep the old one here until its tokens have expired).
    token_verify_keys: str = ""
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
    # True when SIZZLE_REDIS_URL names a node of a Redis Cluster (true/false, 1/0, yes/no).
    redis_cluster: bool = False
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
    # The terminal client (`sizzle play`, `sizzle watch`): shortest time between two bot moves it shows
    # a person, milliseconds (`--bot-pause`); 0 shows them as they come. Tables of bots only are never paced.
    bot_pause_ms: int = 700
    # TLS certificate chain (PEM file) the gRPC port serves, with SIZZLE_TLS_KEY; empty: plaintext.
    tls_cert: str = ""
    # Private key (PEM file) of SIZZLE_TLS_CERT.
    tls_key: str = ""
    # CA bundle (PEM file) of client certificates: set, the server requires and verifies one (mTLS).
    tls_client_ca: str = ""
    # CA bundle (PEM file) that signs the servers this process calls; set: outgoing calls use TLS.
    tls_ca: str = ""
    # 1: outgoing calls use TLS trusting the system's root certificates (when SIZZLE_TLS_CA is empty).
    tls_system_roots: int = 0
    # Certificate chain (PEM file) this process presents to servers that require one, with SIZZLE_TLS_CLIENT_KEY.
    tls_client_cert: str = ""
    # Private key (PEM file) of SIZZLE_TLS_CLIENT_CERT.
    tls_client_key: str = ""
    # Name checked against the servers' certificates instead of the target's host (e.g. calling 127.0.0.1).
    tls_server_name: str = ""
    # The records database (accounts, finished matches, ratings), an SQLAlchemy URL:
    # postgresql+asyncpg://user:password@host:5432/db in a deployment. Empty: an SQLite file under
    # SIZZLE_DATA_DIR when the live store is embedded too; with SIZZLE_REDIS_URL set and this empty,
    # nothing is recorded (replicas cannot share a file).
    records_url: str = ""
    # PostgreSQL schema of the records tables (empty: the database's default; tests use one per run).
    records_schema: str = ""
    # Folder of the embedded default's files (the SQLite records database); created when missing.
    data_dir: str = "data"
    # Connections each process keeps to the records database.
    records_pool_size: int = 5
    # 1: a server migrates a shared records database at start (a dev cluster); otherwise it only checks
    # the revision and the operator migrates (`sizzle records migrate`, the migration Job). SQLite always migrates.
    records_migrate_on_start: int = 0
    # Pause between two rounds of the records writer (finished matches to the records), milliseconds.
    records_interval_ms: int = 500
    # A finished match claimed by a replica's records writer; another replica takes it after this, ms.
    records_lease_ms: int = 30_000
    # Test-only fault injection: pause between claiming finished matches and writing them, milliseconds.
    records_pause_before_write_ms: int = 0
    # Failed logins of one username from one address within the window before Login refuses them
    # (QUOTA_EXCEEDED); 0: no limit. (Per username alone, anyone could lock the owner out.)
    quota_failed_logins: int = 10
    # Failed logins from one address within the window, whatever the usernames; 0: no limit.
    quota_failed_logins_per_address: int = 100
    # The window of both failed-login limits, seconds.
    failed_login_window_seconds: int = 900
    # Accounts (Register, UpgradeGuest) one address may create an hour; 0: no limit.
    quota_accounts_per_hour: int = 30
    # Guests (CreateGuest) one address may create an hour; 0: no limit.
    quota_guests_per_hour: int = 600

    @staticmethod
    def from_env(env: Mapping[str, str] | None = None) -> Config:
        """The settings of the environment; ConfigError on an unknown SIZZLE_* name or a bad value."""
        from pydantic import ValidationError

        env = os.environ if env is None else env
        known = {f"{PREFIX}{f.name.upper()}" for f in fields(Config)}
        for key in sorted(env):
            if key.startswith(PREFIX) and key not in known and not key.startswith(TOOL_PREFIXES):
                near = difflib.get_close_matches(key, sorted(known), n=1)
                hint = f" (did you mean {near[0]}?)" if near else ""
                raise ConfigError(f"{key} is not a setting{hint}; the settings are listed in services/kit/config.py")
        try:
            values = _parse(env)
        except ValidationError as error:
            first = error.errors()[0]
            name = f"{PREFIX}{str(first['loc'][0]).upper()}"
            raise ConfigError(f"{name}={str(first.get('input'))[:40]!r}: {first['msg']}") from None
        for name, value in values.items():
            problem = _out_of_range(name, value)
            if problem:
                raise ConfigError(f"{PREFIX}{name.upper()}={str(value)[:40]!r}: {problem}")
        return replace(Config(), **values)

    def with_overrides(self, **changes: object) -> Config:
        return replace(self, **changes)  # type: ignore[arg-type]

    def insecure_reason(self) -> str:
        """Why this configuration must not start a server, or "" when it may: a shared store (Redis,
        a broker) with the development token key, or a key too short to sign with."""
        shared = self.redis_url or self.broker_url
        if shared and self.token_key == DEV_TOKEN_KEY:
            return ("SIZZLE_TOKEN_KEY is not set: a server on a shared store (SIZZLE_REDIS_URL or SIZZLE_BROKER_URL) "
                    "needs its own secret key of at least 32 characters (e.g. `openssl rand -hex 32`)")
        if self.token_key != DEV_TOKEN_KEY and len(self.token_key) < MIN_TOKEN_KEY_CHARS:
            return f"SIZZLE_TOKEN_KEY must be at least {MIN_TOKEN_KEY_CHARS} characters"
        if any(0 < len(k) < MIN_TOKEN_KEY_CHARS for k in self.verify_keys):
            return f"every key of SIZZLE_TOKEN_VERIFY_KEYS must be at least {MIN_TOKEN_KEY_CHARS} characters"
        return ""

    @property
    def verify_keys(self) -> tuple[str, ...]:
        """The keys tokens are verified with: the signing key first, then the earlier ones."""
        earlier = tuple(k.strip() for k in self.token_verify_keys.split(",") if k.strip())
        return (self.token_key, *earlier)

    @property
    def uses_dev_key(self) -> bool:
        return self.token_key == DEV_TOKEN_KEY

    @property
    def match_target(self) -> str:
        return self.match_addr or self.addr



@cache
def _settings_class() -> Any:
    """A pydantic-settings model of Config's fields (same names, types and defaults) whose only
    source is the environment mapping handed to from_env (os.environ, or a test's dict)."""
    from pydantic import create_model
    from pydantic_settings import BaseSettings, SettingsConfigDict

    class FromMapping(BaseSettings):
        model_config = SettingsConfigDict(env_prefix=PREFIX, case_sensitive=False, extra="ignore")

        @classmethod
        def settings_customise_sources(cls, settings_cls: Any, init_settings: Any,  # type: ignore[override]
                                       **others: Any) -> tuple[Any, ...]:
            return (init_settings,)  # only what from_env passes: never os.environ behind its back

    types = {"str": str, "int": int, "float": float, "bool": bool}
    definitions: dict[str, Any] = {f.name: (types[str(f.type)], f.default) for f in fields(Config)}
    return create_model("Settings", __base__=FromMapping, **definitions)


# Settings that are addresses (host:port; the web port's may be empty: no web port), ports, and
# numbers that must be positive; every quota, limit and interval must be at least 0 (0: off).
ADDRESSES = {"addr": False, "web_addr": True}
PORTS = {"metrics_port"}
POSITIVE = {"token_ttl_seconds", "failed_login_window_seconds", "max_message_bytes"}


def _out_of_range(name: str, value: Any) -> str:
    """Why a parsed setting cannot be used, or "" (a port of 99999 was wrapped to 34463, a negative
    quota meant no limit, a negative token lifetime made tokens born expired)."""
    if name in ADDRESSES:
        if not value and ADDRESSES[name]:
            return ""
        host, _, port = str(value).rpartition(":")
        if not host or not port.isdigit() or not 0 <= int(port) <= 65535:
            return "not HOST:PORT with a port from 0 to 65535"
        return ""
    if name in PORTS:
        return "" if 0 <= value <= 65535 else "not a port from 0 to 65535 (0: none)"
    if name in POSITIVE:
        return "" if value > 0 else "must be more than 0"
    if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
        return "must be 0 or more"
    return ""


def _parse(env: Mapping[str, str]) -> dict[str, Any]:
    """The settings the mapping sets, parsed and checked (pydantic.ValidationError when one is bad)."""
    from pydantic_settings import EnvSettingsSource

    settings = _settings_class()

    class MappingSource(EnvSettingsSource):
        def _load_env_vars(self) -> Mapping[str, str | None]:
            return {k.lower(): v for k, v in env.items() if k.startswith(PREFIX)}

    raw = MappingSource(settings, case_sensitive=False, env_prefix=PREFIX)()
    return dict(settings(**raw).model_dump(include=set(raw)))
