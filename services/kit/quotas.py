"""Quotas and rate limits, kept in the store so that they hold across replicas.

Per subject (a player; a caller without a player token by its network address; bots and services are
not limited), and all set in the configuration (0 turns one off):
- requests per second: a token bucket (`SIZZLE_QUOTA_REQUESTS_PER_SECOND`, burst
  `SIZZLE_QUOTA_REQUEST_BURST`), taken by the server interceptor before any handler runs;
- creations per hour: a fixed window per kind (matches, tickets), taken once a request is valid, so a
  refused or invalid request costs nothing;
- things live at once: a set of leases per kind (matches a player created that are not over, open
  watch streams), each with an expiry so that a replica that dies cannot hold a slot for ever.
Over a limit is RESOURCE_EXHAUSTED (reason QUOTA_EXCEEDED) with a RetryInfo saying when to try again,
and `sizzle_quota_refusals_total{quota}` counts it.

Keys (Redis): <prefix>:quota:{<subject>}:<kind>, one hash tag per subject (one Redis Cluster slot).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from services.kit import metrics
from services.kit.config import Config
from services.kit.errors import GameError
from sizzle.common.v1 import common_pb2

# One creation count: (subject, kind, per hour); a None subject or a limit of 0 counts nothing.
Charge = tuple[str | None, str, int]

HOUR_MS = 3_600_000
STREAM_LEASE_MS = 120_000  # an open stream renews its lease well within this (every wait of its loop)
LIVE_MATCH_LEASE_MS = 24 * HOUR_MS  # a match a player created counts until it ends, or a day at most


def wall_ms() -> int:
    return int(time.time() * 1000)


def refused(quota: str, message: str, retry_after_ms: int) -> GameError:
    metrics.QUOTA_REFUSALS.labels(quota).inc()
    return GameError(common_pb2.ERROR_REASON_QUOTA_EXCEEDED, message, {"quota": quota},
                     retry_after_seconds=max(retry_after_ms, 1) / 1000)


class QuotaStore(ABC):
    """The three primitives, atomic per subject. Each returns 0 when allowed, else the milliseconds
    until trying again may succeed."""

    @abstractmethod
    async def take_token(self, subject: str, rate: float, burst: int, now_ms: int) -> int: ...

    @abstractmethod
    async def count_in_window(self, subject: str, kind: str, limit: int, window_ms: int, now_ms: int) -> int: ...

    @abstractmethod
    async def uncount(self, subject: str, kind: str) -> None:
        """Gives back one count of the window (a creation that was refused after all)."""

    @abstractmethod
    async def acquire(self, subject: str, kind: str, member: str, limit: int, expires_ms: int, now_ms: int) -> int: ...

    @abstractmethod
    async def members(self, subject: str, kind: str, now_ms: int) -> list[str]: ...

    @abstractmethod
    async def release(self, subject: str, kind: str, member: str) -> None: ...

    async def close(self) -> None:
        return None


@dataclass
class _Bucket:
    tokens: float
    at_ms: int


@dataclass
class MemoryQuotaStore(QuotaStore):
    """The embedded default's quotas (one process)."""

    buckets: dict[str, _Bucket] = field(default_factory=dict)
    windows: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)  # (count, window end ms)
    leases: dict[tuple[str, str], dict[str, int]] = field(default_factory=dict)

    async def take_token(self, subject: str, rate: float, burst: int, now_ms: int) -> int:
        bucket = self.buckets.setdefault(subject, _Bucket(float(burst), now_ms))
        bucket.tokens = min(float(burst), bucket.tokens + (now_ms - bucket.at_ms) * rate / 1000)
        bucket.at_ms = now_ms
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0
        return math.ceil((1 - bucket.tokens) * 1000 / rate)

    async def count_in_window(self, subject: str, kind: str, limit: int, window_ms: int, now_ms: int) -> int:
        count, ends = self.windows.get((subject, kind), (0, 0))
        if ends <= now_ms:
            count, ends = 0, now_ms + window_ms
        if count >= limit:
            return ends - now_ms
        self.windows[(subject, kind)] = (count + 1, ends)
        return 0

    async def uncount(self, subject: str, kind: str) -> None:
        count, ends = self.windows.get((subject, kind), (0, 0))
        if count <= 1:
            self.windows.pop((subject, kind), None)
        else:
            self.windows[(subject, kind)] = (count - 1, ends)

    async def acquire(self, subject: str, kind: str, member: str, limit: int, expires_ms: int, now_ms: int) -> int:
        held = self.leases.setdefault((subject, kind), {})
        for old in [m for m, until in held.items() if until <= now_ms]:
            del held[old]
        if member not in held and len(held) >= limit:
            return min(held.values()) - now_ms
        held[member] = expires_ms
        return 0

    async def members(self, subject: str, kind: str, now_ms: int) -> list[str]:
        return [m for m, until in self.leases.get((subject, kind), {}).items() if until > now_ms]

    async def release(self, subject: str, kind: str, member: str) -> None:
        self.leases.get((subject, kind), {}).pop(member, None)


# KEYS: bucket hash. ARGV: rate per second, burst, now ms. Returns 0 or the ms to wait.
_TAKE_TOKEN = """
local rate, burst, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens, at = tonumber(state[1]) or burst, tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) * 1000 / rate) end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return wait
"""
# KEYS: window counter. ARGV: limit, window ms. Returns 0 or the ms until the window ends.
_COUNT_IN_WINDOW = """
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return math.max(redis.call('PTTL', KEYS[1]), 1) end
if redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""
# KEYS: window counter. Gives one count back; a window back at zero goes (as if never opened).
_UNCOUNT = """
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count <= 1 then redis.call('DEL', KEYS[1]) else redis.call('DECR', KEYS[1]) end
return 0
"""
# KEYS: lease set. ARGV: member, limit, expiry ms, now ms. Returns 0 or the ms until the oldest lapses.
_ACQUIRE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[4])
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(tonumber(oldest[2]) - tonumber(ARGV[4]), 1)
end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('PEXPIRE', KEYS[1], math.max(tonumber(ARGV[3]) - tonumber(ARGV[4]), 1))
return 0
"""


class RedisQuotaStore(QuotaStore):
    def __init__(self, url: str, prefix: str, cluster: bool = False) -> None:
        import redis.asyncio as aioredis
        from redis.asyncio.cluster import RedisCluster

        self.client = RedisCluster.from_url(url) if cluster else aioredis.Redis.from_url(url)
        self.prefix = prefix
        self._take = self.client.register_script(_TAKE_TOKEN)
        self._count = self.client.register_script(_COUNT_IN_WINDOW)
        self._uncount = self.client.register_script(_UNCOUNT)
        self._acquire = self.client.register_script(_ACQUIRE)

    def _key(self, subject: str, kind: str) -> str:
        return f"{self.prefix}:quota:{{{subject}}}:{kind}"

    async def _run(self, call: Awaitable[object]) -> object:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError

        try:
            return await call
        except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
            raise GameError(common_pb2.ERROR_REASON_STORE_UNAVAILABLE, "the quota store is unavailable") from exc

    async def take_token(self, subject: str, rate: float, burst: int, now_ms: int) -> int:
        return int(await self._run(self._take(keys=[self._key(subject, "rate")], args=[rate, burst, now_ms])))  # type: ignore[call-overload]

    async def count_in_window(self, subject: str, kind: str, limit: int, window_ms: int, now_ms: int) -> int:
        return int(await self._run(self._count(keys=[self._key(subject, kind)], args=[limit, window_ms])))  # type: ignore[call-overload]

    async def uncount(self, subject: str, kind: str) -> None:
        await self._run(self._uncount(keys=[self._key(subject, kind)], args=[]))  # type: ignore[call-overload]

    async def acquire(self, subject: str, kind: str, member: str, limit: int, expires_ms: int, now_ms: int) -> int:
        return int(await self._run(self._acquire(keys=[self._key(subject, kind)],  # type: ignore[call-overload]
                                                 args=[member, limit, expires_ms, now_ms])))

    async def members(self, subject: str, kind: str, now_ms: int) -> list[str]:
        found = await self._run(self.client.zrangebyscore(self._key(subject, kind), f"({now_ms}", "+inf"))
        return [m.decode() if isinstance(m, bytes) else str(m) for m in found]  # type: ignore[attr-defined]

    async def release(self, subject: str, kind: str, member: str) -> None:
        await self._run(self.client.zrem(self._key(subject, kind), member))

    async def close(self) -> None:
        await self.client.aclose()


def peer_host(peer: str) -> str:
    """The host of a gRPC peer string ("ipv4:10.0.0.7:5123", "ipv6:[::1]:5123"), without its port."""
    kind, _, rest = peer.partition(":")
    if kind == "ipv6" and rest.startswith("["):
        return rest[1:rest.find("]")]
    if kind == "ipv4":
        return rest.rsplit(":", 1)[0]
    return peer


def subject_of(kind: str | None, player_id: str, peer: str) -> str | None:
    """Whose quota a call counts against: the player a player or seat token names; the caller's
    address without one (behind a proxy that is the proxy's: see docs/security.md); None for bots
    and services, which are not limited."""
    if kind in ("bot", "service"):
        return None
    if kind in ("player", "seat") and player_id:
        return f"player:{player_id}"
    return f"addr:{peer_host(peer)}"


def build_quota_store(config: Config) -> QuotaStore:
    if config.redis_url:
        return RedisQuotaStore(config.redis_url, config.redis_prefix, cluster=bool(config.redis_cluster))
    return MemoryQuotaStore()


class Quotas:
    """The limits of the configuration over a quota store: what the services call."""

    def __init__(self, config: Config, store: QuotaStore, clock: Callable[[], int] = wall_ms) -> None:
        self.config = config
        self.store = store
        self.clock = clock

    async def request(self, subject: str | None) -> None:
        """One request of `subject` (None: not limited) against its requests-per-second bucket."""
        rate = self.config.quota_requests_per_second
        if subject is None or rate <= 0:
            return
        wait = await self.store.take_token(subject, rate, max(1, self.config.quota_request_burst), self.clock())
        if wait:
            raise refused("requests", f"more than {rate:g} requests a second; slow down", wait)

    async def created(self, subject: str | None, kind: str, per_hour: int) -> None:
        """One more `kind` (e.g. "matches") created by `subject` within the hour."""
        if subject is None or per_hour <= 0:
            return
        wait = await self.store.count_in_window(subject, f"created:{kind}", per_hour, HOUR_MS, self.clock())
        if wait:
            raise refused(f"{kind}_per_hour", f"at most {per_hour} {kind} an hour", wait)

    async def uncreated(self, subject: str | None, kind: str, per_hour: int) -> None:
        """Gives back a `created` count when the creation was refused after all (nothing was made)."""
        if subject is not None and per_hour > 0:
            await self.store.uncount(subject, f"created:{kind}")

    async def created_all(self, charges: Sequence[Charge]) -> None:
        """One more of each (subject, kind, per_hour), or none: a refusal gives back those taken."""
        for index, (subject, kind, per_hour) in enumerate(charges):
            try:
                await self.created(subject, kind, per_hour)
            except GameError:
                await self.uncreated_all(charges[:index])
                raise

    async def uncreated_all(self, charges: Sequence[Charge]) -> None:
        """Gives back every count of a `created_all`."""
        for subject, kind, per_hour in charges:
            await self.uncreated(subject, kind, per_hour)

    async def hold(self, subject: str | None, kind: str, member: str, limit: int, lease_ms: int,
                   still_live: Callable[[str], Awaitable[bool]] | None = None) -> bool:
        """Takes one of `limit` slots of `kind` for `member` (until released or `lease_ms` passes);
        True when a slot was taken. `still_live` lets the limit drop members that ended without
        being released (a replica that died) before refusing."""
        if subject is None or limit <= 0:
            return False
        now = self.clock()
        wait = await self.store.acquire(subject, kind, member, limit, now + lease_ms, now)
        if wait and still_live is not None:
            for other in await self.store.members(subject, kind, now):
                if not await still_live(other):
                    await self.store.release(subject, kind, other)
            wait = await self.store.acquire(subject, kind, member, limit, now + lease_ms, now)
        if wait:
            raise refused(kind, f"at most {limit} {kind.replace('_', ' ')} at once", wait)
        return True

    async def release(self, subject: str | None, kind: str, member: str) -> None:
        if subject is not None:
            await self.store.release(subject, kind, member)

    @contextlib.asynccontextmanager
    async def stream(self, subject: str | None) -> AsyncIterator[None]:
        """Holds one of the subject's watch-stream slots for the life of a stream, renewing its lease
        while the stream lasts (a lease that lapses frees the slot of a replica that died)."""
        member = uuid.uuid4().hex
        limit = self.config.quota_watch_streams
        if not await self.hold(subject, "watch_streams", member, limit, STREAM_LEASE_MS):
            yield
            return

        async def renew() -> None:
            while True:
                await asyncio.sleep(STREAM_LEASE_MS / 3000)
                now = self.clock()
                with contextlib.suppress(GameError):
                    await self.store.acquire(subject or "", "watch_streams", member, limit, now + STREAM_LEASE_MS, now)

        renewal = asyncio.create_task(renew())
        try:
            yield
        finally:
            renewal.cancel()
            with contextlib.suppress(GameError):
                await asyncio.shield(self.release(subject, "watch_streams", member))

    async def close(self) -> None:
        await self.store.close()
