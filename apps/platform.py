"""The composition root of the serving process. Builds the platform's gRPC server:
`create_server(config, deps)` is used by `sizzle serve` and by the tests alike, so both run the same
wiring. `build_deps(config)` picks the store (Redis when
SIZZLE_REDIS_URL is set, else in-process), the bot dispatcher (Celery when SIZZLE_BROKER_URL is
set, else in-process) and the durable records (SIZZLE_RECORDS_URL, else an SQLite file beside the
embedded store)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from services.auth.accounts import Accounts
from services.auth.service import AUTH_SERVICE, AuthServicer
from services.auth.tokens import TokenSigner, bearer
from services.kit.config import Config
from services.kit.errors import GameError
from services.kit.interceptor import Admission
from services.kit.quotas import Quotas, QuotaStore, build_quota_store, subject_of
from services.kit.server import Registration, RunningServer, start_server
from services.match.core import Matches
from services.match.deadlines import DeadlineLoop
from services.match.service import MATCH_SERVICE, MatchServicer
from services.match.store import MatchStore, MemoryStore
from services.records.writer import RecordWriter
from services.rules import registry
from services.rules import service as rules_service
from sizzle.auth.v1 import auth_service_pb2_grpc
from sizzle.match.v1 import match_service_pb2_grpc
from sizzle.rules.v1 import rules_service_pb2_grpc

log = logging.getLogger("sizzle.app")
ALL_SERVICES = ("rules", "match", "matchmaking")
STOP_STEP_SECONDS = 10.0  # the longest one shutdown step may take (past the drain's grace) before it is given up


def task_stacks() -> str:
    """Every pending task of the running loop with its stack: what a stuck shutdown is waiting on."""
    lines = []
    for task in asyncio.all_tasks():
        if task is not asyncio.current_task():
            lines.append(f"  {task.get_name()} {task.get_coro()!r}")
            lines.extend(f"    {frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}"
                         for frame in task.get_stack(limit=12))
    return "\n".join(lines)


@dataclass
class Deps:
    """What the services need from outside; `build_deps` fills it, tests may fill it themselves."""

    store: MatchStore = field(default_factory=MemoryStore)
    bots: Any = None  # a BotDispatcher; None: chosen from the config
    bot_factory: Any = None  # in-process bots only: (game_id, difficulty, rng) -> Bot; None: the policy
    services: Sequence[str] = ALL_SERVICES
    background: list[Any] = field(default_factory=list)
    quota_store: QuotaStore | None = None  # None: chosen from the config (Redis when the store is)
    engines: Any = None  # the rules this replica plays, game id -> Engine; None: the registry's
    records: Any = None  # the durable records (services/records/store.py RecordsStore); None: none kept


def build_store(config: Config) -> MatchStore:
    if config.redis_url:
        from services.match.redis_store import RedisStore

        return RedisStore(config.redis_url, config.redis_prefix, config.replay_ttl_seconds,
                          cluster=bool(config.redis_cluster))
    return MemoryStore()


def build_deps(config: Config, services: Sequence[str] = ALL_SERVICES) -> Deps:
    from services.records.sql_store import build_records

    return Deps(store=build_store(config), services=services, records=build_records(config))


@dataclass
class Platform:
    """A started server with what runs beside it."""

    running: RunningServer
    matches: Matches | None
    deps: Deps
    deadlines: DeadlineLoop | None = None
    matchmaking: Any = None
    # What the gRPC server serves, for the web port to serve the same servicers the same way.
    registrations: Sequence[Registration] = ()
    admit: Admission | None = None

    @property
    def target(self) -> str:
        return self.running.target

    @property
    def port(self) -> int:
        return self.running.port

    @property
    def service_names(self) -> tuple[str, ...]:
        return self.running.service_names

    async def stop(self, grace: float, step_seconds: float = STOP_STEP_SECONDS) -> None:
        """Drains the server, then stops what runs beside it. Each step is logged; one that takes
        longer than `step_seconds` is named in the log with every task's stack and given up on, so a
        stuck step never keeps the process from exiting."""
        steps: list[tuple[str, Callable[[], Awaitable[Any]], float]] = [
            ("the gRPC server", lambda: self.running.stop(grace), grace + step_seconds)]
        if self.matchmaking is not None:
            steps.append(("matchmaking", self.matchmaking.stop, step_seconds))
        if self.deadlines is not None:
            steps.append(("the deadline loop", self.deadlines.stop, step_seconds))
        steps.extend((f"the {loop.ticker.name}", loop.stop, step_seconds) for loop in self.deps.background)
        bots = self.deps.bots
        if bots is not None and hasattr(bots, "close"):
            steps.append(("the bot dispatcher", bots.close, step_seconds))
        steps.append(("the match store", self.deps.store.close, step_seconds))
        if self.deps.quota_store is not None:
            steps.append(("the quota store", self.deps.quota_store.close, step_seconds))
        if self.deps.records is not None:
            steps.append(("the records store", self.deps.records.close, step_seconds))
        for name, step, limit in steps:
            started = time.monotonic()
            task = asyncio.ensure_future(step())
            await asyncio.wait({task}, timeout=limit)
            if not task.done():
                log.error("stopping %s took over %.1fs; going on without it. Tasks now:\n%s", name, limit,
                          task_stacks())
                task.cancel()
            elif task.exception() is not None:
                log.error("stopping %s failed", name, exc_info=task.exception())
            else:
                log.info("stopped %s in %.2fs", name, time.monotonic() - started)


def make_bots(config: Config, matches: Matches, deps: Deps) -> Any:
    """Who plays the bot seats: Celery workers when a broker is set (the match service enqueues on the
    workers' app), else the policy in this process. Here, and only here, the services meet the workers."""
    if config.broker_url:
        from services.match.celery_bots import CeleryBots
        from workers.bots.celery_app import make_celery

        return CeleryBots(config, make_celery(config))
    from services.match.bots import InProcessBots
    from workers.bots.policy import make_bot

    return InProcessBots(matches, deps.bot_factory or make_bot, config.bot_think_seconds)


def rate_limit(signer: TokenSigner, quotas: Quotas) -> Admission:
    """The interceptor's admission: each call takes a token of its caller's requests-per-second bucket
    (the player its token names, else its address; bots and services pass). A bad token is left to
    the handler to refuse, and counts against the address."""
    async def admit(service: str, context: Any) -> None:
        kind, player_id = None, ""
        with contextlib.suppress(GameError):
            token = bearer(context.invocation_metadata())
            if token:
                identity = signer.verify(token)
                kind, player_id = identity.kind, identity.player_id
        await quotas.request(subject_of(kind, player_id, context.peer()))

    return admit


async def create_server(config: Config, deps: Deps, addr: str | None = None) -> Platform:
    registrations: list[Registration] = []
    matches = None
    deadlines = None
    if deps.quota_store is None:
        deps.quota_store = build_quota_store(config)
    quotas = Quotas(config, deps.quota_store)
    signer = TokenSigner.from_config(config)
    if deps.records is not None:
        await deps.records.open()  # the embedded SQLite file is migrated; a shared database checked
    if "rules" in deps.services:
        registrations.append(Registration(rules_service_pb2_grpc.add_RulesServiceServicer_to_server,
                                          rules_service.RulesServicer(), rules_service.SERVICE_NAME))
    if "match" in deps.services:
        matches = Matches(config, deps.store, signer, engines=deps.engines or registry.get_engine)
        matches.quotas = quotas
        matches.records = deps.records
        if deps.bots is None:
            deps.bots = make_bots(config, matches, deps)
        matches.bots = deps.bots
        registrations.append(Registration(match_service_pb2_grpc.add_MatchServiceServicer_to_server,
                                          MatchServicer(matches), MATCH_SERVICE))
        registrations.append(Registration(auth_service_pb2_grpc.add_AuthServiceServicer_to_server,
                                          AuthServicer(signer, Accounts(config, deps.records, signer, quotas)),
                                          AUTH_SERVICE))
    matchmaking = None
    if "matchmaking" in deps.services:
        from services.matchmaking.wiring import build_matchmaking

        matchmaking = build_matchmaking(config)
        matchmaking.tickets.quotas = quotas
        matchmaking.records = matchmaking.tickets.records = deps.records
        registrations.extend(matchmaking.registrations)
    admit = rate_limit(signer, quotas) if config.quota_requests_per_second > 0 else None
    running = await start_server(config, registrations, addr, admit)
    if matches is not None:
        deadlines = DeadlineLoop(matches)
        deadlines.start()
        if deps.records is not None:  # finished matches, from the live store to the records
            writer = RecordWriter(config, deps.store, deps.records, matches.engines, matches.clock)
            writer.start()
            deps.background.append(writer)
    if matchmaking is not None:
        # In one process the matchmaker reaches the match service at the port just bound.
        await matchmaking.start(running.target if matches is not None else config.match_target)
    return Platform(running, matches, deps, deadlines, matchmaking, registrations, admit)
