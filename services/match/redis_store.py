"""The Redis match store.

Keys of one match share the hash tag {match_id}, so the compare-and-set script touches one slot and
runs unchanged on a Redis Cluster:
  <prefix>:{<id>}:match      hash: v (version), r (StoredMatch bytes)
  <prefix>:{<id>}:log        stream, one entry per version, id "<version>-1" (a submitted action's
                             entry carries a digest of its request id: the first answer to a retry)
  <prefix>:{<id>}:wake       pub/sub channel, a message per new version
Global indexes (the record stays the truth and readers re-check it):
  <prefix>:deadlines                 sorted set: match id by next deadline (unix ms), written just
                                     before the commit (in its round trip) or after it
  (the match indexes below are written after the commit)
  <prefix>:index:<game|*>:<status>   sorted set: match id by creation
  <prefix>:records:pending           sorted set: finished match id whose durable record is pending,
                                     by the end of its writer's claim (0: due); added by the commit
                                     script that finishes the match (on a cluster, just before it)
No path scans the keyspace.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import NoScriptError

from services.kit.errors import GameError
from services.kit.pubsub import TRANSIENT, Notifier
from services.match.store import STATUS_NAMES, CommitResult, MatchStore, Page, index_score
from sizzle.common.v1 import common_pb2
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_store_pb2 as spb

log = logging.getLogger("sizzle.store.redis")

# KEYS: match hash, log stream[, pending-records queue]. ARGV: expected version, record, log entry,
# wake channel, ttl of a finished match (0 keeps it)[, match id to queue for its record].
COMMIT_SCRIPT = """
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return {3, ''} end
if tonumber(v) ~= tonumber(ARGV[1]) then return {0, v} end
local nv = tonumber(v) + 1
redis.call('HSET', KEYS[1], 'v', nv, 'r', ARGV[2])
redis.call('XADD', KEYS[2], nv .. '-1', 'e', ARGV[3])
if tonumber(ARGV[5]) > 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[5])
  redis.call('EXPIRE', KEYS[2], ARGV[5])
end
if KEYS[3] then redis.call('ZADD', KEYS[3], 0, ARGV[6]) end
redis.call('PUBLISH', ARGV[4], nv)
return {1, tostring(nv)}
"""

# KEYS: pending-records queue. ARGV: now, until, limit.
CLAIM_FINISHED_SCRIPT = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, m in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], m) end
return due
"""

# KEYS: pending-records queue. ARGV: match id, the end of the claim that wrote its record.
DROP_FINISHED_SCRIPT = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
"""

def _unavailable(exc: BaseException) -> GameError:
    return GameError(common_pb2.ERROR_REASON_STORE_UNAVAILABLE, f"the match store is unavailable: {exc}")


class RedisStore(MatchStore):
    kind = "redis"

    def __init__(self, url: str, prefix: str, replay_ttl_seconds: int, cluster: bool = False) -> None:
        self.prefix = prefix
        self.replay_ttl = replay_ttl_seconds
        self.client: Any
        self.cluster = cluster
        if cluster:
            self.client = RedisCluster.from_url(url)
        else:
            # Callers beyond the pool wait for a connection instead of failing.
            pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=256, timeout=30)
            self.client = aioredis.Redis(connection_pool=pool)
        # Pub/sub goes through one node: PUBLISH reaches every node of a cluster.
        self._notifier = Notifier(aioredis.Redis.from_url(url), "sizzle-notifier-start")
        self._commit = self.client.register_script(COMMIT_SCRIPT)
        self._claim_finished = self.client.register_script(CLAIM_FINISHED_SCRIPT)
        self._drop_finished = self.client.register_script(DROP_FINISHED_SCRIPT)

    # ---------------------------------------------------------------- keys
    def _match_key(self, match_id: str) -> str:
        return f"{self.prefix}:{{{match_id}}}:match"

    def _log_key(self, match_id: str) -> str:
        return f"{self.prefix}:{{{match_id}}}:log"

    def _channel(self, match_id: str) -> str:
        return f"{self.prefix}:{{{match_id}}}:wake"

    def _index_key(self, game_id: str, status: int) -> str:
        return f"{self.prefix}:index:{game_id or '*'}:{STATUS_NAMES.get(status, 'unknown')}"

    @property
    def _deadline_key(self) -> str:
        return f"{self.prefix}:deadlines"

    @property
    def _pending_key(self) -> str:
        return f"{self.prefix}:records:pending"

    # ---------------------------------------------------------------- operations
    async def _index_put(self, match: mpb.Match, previous_status: int) -> None:
        if previous_status == match.status:
            return  # the indexes only change with the status
        score = index_score(match)
        # Each match is in its status's index and in the any-status (0) index, per game and for all.
        for game in (match.game_id, ""):
            if previous_status and previous_status != match.status:
                await self.client.zrem(self._index_key(game, previous_status), match.match_id)
            for status in (match.status, 0):
                key = self._index_key(game, status)
                await self.client.zadd(key, {match.match_id: score})
                # Matches older than the replay time have expired: trim them from the index.
                await self.client.zremrangebyscore(key, "-inf", score - self.replay_ttl * 1_000_000)

    async def create(self, record: spb.StoredMatch, entry: spb.LogEntry) -> None:
        async with self.timed("create"):
            match = record.match
            try:
                await self.client.hset(self._match_key(match.match_id),
                                       mapping={"v": match.version, "r": record.SerializeToString()})
                await self.client.xadd(self._log_key(match.match_id), {"e": entry.SerializeToString()},
                                       id=f"{match.version}-1")
                await self._index_put(match, 0)
            except TRANSIENT as exc:
                raise _unavailable(exc) from exc

    async def load(self, match_id: str) -> spb.StoredMatch | None:
        async with self.timed("load"):
            try:
                raw = await self.client.hget(self._match_key(match_id), "r")
            except TRANSIENT as exc:
                raise _unavailable(exc) from exc
            return None if raw is None else spb.StoredMatch.FromString(raw)

    async def commit(self, record, expected_version, entry, previous_status=0,  # type: ignore[no-untyped-def]
                     deadline_unix_ms=0):
        match = record.match
        mid = match.match_id
        finished = match.status == mpb.MATCH_STATUS_FINISHED
        keys = [self._match_key(mid), self._log_key(mid)]
        args = [expected_version, record.SerializeToString(), entry.SerializeToString(), self._channel(mid),
                self.replay_ttl if finished else 0]
        if finished and not self.cluster:  # queued for its durable record by the commit itself
            keys.append(self._pending_key)
            args.append(mid)
        async with self.timed("commit"):
            try:
                if finished and self.cluster:  # the queue is on another node: queued first (a lost
                    # race leaves an entry the writer drops when it finds the match unfinished)
                    await self.client.zadd(self._pending_key, {mid: 0})
                code, value = await self._scheduled_commit(mid, deadline_unix_ms, keys, args)
            except TRANSIENT as exc:
                raise _unavailable(exc) from exc
        if code == 3:
            return CommitResult(False, missing=True)
        if code == 0:
            return CommitResult(False, int(value))
        self._notifier.published(self._channel(mid), int(value))
        try:
            await self._index_put(match, previous_status)
        except TRANSIENT as exc:  # the record is the truth; the index heals on the next change
            log.warning("index update of %s failed: %s", mid, exc)
        return CommitResult(True, int(value))

    async def _scheduled_commit(self, match_id: str, deadline_unix_ms: int, keys: list[str],
                                args: list[Any]) -> tuple[int, Any]:
        """The commit script's answer, the deadline (if any) scheduled before it. On one node both go
        in one round trip, in order; a cluster keeps the deadline on another node, so it is sent first
        on its own. A script the server has forgotten (NOSCRIPT) is loaded by the plain call."""
        if deadline_unix_ms and not self.cluster:
            async with self.client.pipeline(transaction=False) as pipe:
                pipe.zadd(self._deadline_key, {match_id: deadline_unix_ms})
                pipe.evalsha(self._commit.sha, len(keys), *keys, *args)
                try:
                    _, answer = await pipe.execute()
                    return answer  # type: ignore[no-any-return]
                except NoScriptError:
                    pass  # the deadline is in: the plain call below loads the script and commits
        elif deadline_unix_ms:
            await self.client.zadd(self._deadline_key, {match_id: deadline_unix_ms})
        return await self._commit(keys=keys, args=args)  # type: ignore[no-any-return]

    async def answer(self, match_id: str, request_key: bytes, version: int) -> spb.LogEntry | None:
        if version <= 0 or not request_key:
            return None
        try:
            rows = await self.client.xrange(self._log_key(match_id), min=f"{version}-1", max=f"{version}-1")
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc
        if not rows:
            return None
        entry = spb.LogEntry.FromString(rows[0][1][b"e"])
        return entry if entry.request_key == request_key else None

    async def log(self, match_id: str, after_version: int) -> list[spb.LogEntry]:
        async with self.timed("log"):
            try:
                rows = await self.client.xrange(self._log_key(match_id), min=f"{max(after_version + 1, 0)}-0")
            except TRANSIENT as exc:
                raise _unavailable(exc) from exc
            return [spb.LogEntry.FromString(fields[b"e"]) for _, fields in rows]

    async def _version(self, match_id: str) -> int:
        raw = await self.client.hget(self._match_key(match_id), "v")
        return -1 if raw is None else int(raw)

    @contextlib.asynccontextmanager
    async def watching(self, match_id: str) -> AsyncIterator[None]:
        # The stream's own reference keeps the channel subscribed, and its newest version known,
        # between waits: a wait then sends nothing to Redis (no SUBSCRIBE, read or UNSUBSCRIBE).
        channel = self._channel(match_id)
        try:
            await self._notifier.subscribe(channel)
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc
        try:
            yield
        finally:
            await self._notifier.unsubscribe(channel)

    async def wait(self, match_id: str, after_version: int, timeout: float) -> int:
        channel = self._channel(match_id)
        await self._notifier.subscribe(channel)
        try:
            # Subscribed first, then read: a version published in between is not missed. Watchers of
            # a match already subscribed in this process share what the notifier knows: no read.
            version = self._notifier.latest(channel)
            if version is None:
                version = await self._version(match_id)
                self._notifier.note(channel, version)
            if version > after_version or version < 0:
                return version
            def newer() -> bool:
                latest = self._notifier.latest(channel)
                return latest is not None and latest > after_version

            if await self._notifier.wait(channel, newer, timeout):
                published = self._notifier.latest(channel)
                return after_version + 1 if published is None else published
            # The timeout: read the record itself, in case a notification was lost.
            version = await self._version(match_id)
            self._notifier.note(channel, version)
            return version
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc
        finally:
            await self._notifier.unsubscribe(channel)

    async def list_matches(self, game_id: str, status: int, cursor: str, limit: int) -> Page:
        async with self.timed("list"):
            key = self._index_key(game_id, status)
            high = f"({cursor}" if cursor else "+inf"
            try:
                rows = await self.client.zrevrangebyscore(key, high, "-inf", start=0, num=limit + 1, withscores=True)
                raws = await asyncio.gather(
                    *(self.client.hget(self._match_key(member.decode()), "r") for member, _ in rows[:limit]))
            except TRANSIENT as exc:
                raise _unavailable(exc) from exc
            records = []
            for (member, _), raw in zip(rows[:limit], raws, strict=True):
                if raw is None:  # expired: drop it from the index
                    await self.client.zrem(key, member)
                    continue
                record = spb.StoredMatch.FromString(raw)
                if status == 0 or record.match.status == status:
                    records.append(record)
            next_cursor = repr(rows[limit - 1][1]) if len(rows) > limit else ""
            return Page(records, next_cursor)

    async def schedule(self, match_id: str, deadline_unix_ms: int) -> None:
        try:
            if deadline_unix_ms:
                await self.client.zadd(self._deadline_key, {match_id: deadline_unix_ms})
            else:
                await self.client.zrem(self._deadline_key, match_id)
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc

    async def due(self, now_unix_ms: int, limit: int) -> list[str]:
        rows = await self.client.zrangebyscore(self._deadline_key, "-inf", now_unix_ms, start=0, num=limit)
        return [r.decode() for r in rows]

    async def count(self, game_id: str, status: int) -> int:
        return int(await self.client.zcard(self._index_key(game_id, status)))

    async def claim_finished(self, now_ms: int, until_ms: int, limit: int) -> list[str]:
        try:
            rows = await self._claim_finished(keys=[self._pending_key], args=[now_ms, until_ms, limit])
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc
        return [row.decode() if isinstance(row, bytes) else str(row) for row in rows]

    async def drop_finished(self, match_id: str, claimed_until_ms: int) -> None:
        try:
            await self._drop_finished(keys=[self._pending_key], args=[match_id, claimed_until_ms])
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc

    async def finished_pending(self) -> int:
        try:
            return int(await self.client.zcard(self._pending_key))
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc

    async def close(self) -> None:
        await self._notifier.close()
        with contextlib.suppress(Exception):
            await self.client.aclose()
