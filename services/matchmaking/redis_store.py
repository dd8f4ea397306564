"""The Redis matchmaking store.

Every key of a pool shares the hash tag {mm:<game>}, so each script below touches one slot and runs
unchanged on a Redis Cluster (a game's pool lives on one node):
  <prefix>:mm:{mm:<game>}:t:<ticket>    hash: d (Ticket bytes), s (state), f (formation), r (rating),
                                        c (created ms), x (wait deadline ms), e (expiry ms), p (player),
                                        m (match), a (Assignment bytes); expires on its own (PEXPIRE)
  <prefix>:mm:{mm:<game>}:p:<player>    the player's live ticket of the game (expires with it)
  <prefix>:mm:{mm:<game>}:by_rating     sorted set: waiting ticket by rating (mu)
  <prefix>:mm:{mm:<game>}:by_time       sorted set: waiting ticket by creation
  <prefix>:mm:{mm:<game>}:by_deadline   sorted set: waiting ticket by wait deadline
  <prefix>:mm:{mm:<game>}:lease         the replica working the pool (SET PX)
  <prefix>:mm:{mm:<game>}:forming       hash: formation id -> claimed group (JSON)
  <prefix>:mm:{mm:<game>}:w:<ticket>    pub/sub channel, a message per change of the ticket
Ratings, per game under {rt:<game>}: :ratings (hash player -> JSON), :board (sorted set by ordinal,
people only), :rated:<match> (the once-per-match marker). Matches awaiting their rating:
<prefix>:mm:rating_queue (sorted set "game/match" by the time its watcher's lease runs out). With
durable records the ratings are a cache rebuilt from them (into :ratings:new:<token> and
:board:new:<token>, renamed over the two at once); <prefix>:mm:ratings_cached says it was.
No path scans the keyspace; index entries whose ticket expired on its own are dropped when read.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from services.kit.errors import GameError
from services.kit.pubsub import TRANSIENT, Notifier
from services.matchmaking.model import WAITING, Formation, RatingRecord, RatingWrite, game_of, is_bot, public
from services.matchmaking.store import (
    APPLIED,
    CLAIMED,
    CONFLICT,
    DONE,
    GONE,
    LEASE_LOST,
    ChangeWaiter,
    MatchmakingStore,
    StoredTicket,
    split_pending,
)
from sizzle.common.v1 import common_pb2
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb

log = logging.getLogger("sizzle.matchmaking.redis")

# Index keys are always KEYS[n..n+2] = by_rating, by_time, by_deadline; ARGV[1] is the pool's key
# base ("<prefix>:mm:{mm:<game>}:"), from which a script names ticket, player and channel keys of the
# same slot. States: 1 waiting, 2 assigned, 3 cancelled, 9 forming.
_LIB = """
local function unindex(k, id)
  redis.call('ZREM', KEYS[k], id); redis.call('ZREM', KEYS[k + 1], id); redis.call('ZREM', KEYS[k + 2], id)
end
local function free_slot(base, id, player)
  local pk = base .. 'p:' .. player
  if redis.call('GET', pk) == id then redis.call('DEL', pk) end
end
local function put_back(k, base, fid, ids)
  for _, id in ipairs(ids) do
    local tk = base .. 't:' .. id
    local v = redis.call('HMGET', tk, 's', 'f', 'r', 'c', 'x')
    if v[1] == '9' and v[2] == fid then
      redis.call('HSET', tk, 's', '1', 'f', '')
      redis.call('ZADD', KEYS[k], v[3], id); redis.call('ZADD', KEYS[k + 1], v[4], id)
      redis.call('ZADD', KEYS[k + 2], v[5], id)
      redis.call('PUBLISH', base .. 'w:' .. id, '1')
    end
  end
end
"""

# KEYS: ticket, player slot, indexes. ARGV: base, id, data, rating, created, deadline, expires, player, keep ms.
CREATE = _LIB + """
local cur = redis.call('GET', KEYS[2])
if cur then
  local s = redis.call('HGET', ARGV[1] .. 't:' .. cur, 's')
  if s == '1' or s == '9' then return cur end
end
redis.call('HSET', KEYS[1], 'd', ARGV[3], 's', '1', 'f', '', 'r', ARGV[4], 'c', ARGV[5], 'x', ARGV[6],
           'e', ARGV[7], 'p', ARGV[8])
redis.call('PEXPIRE', KEYS[1], ARGV[9])
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[9])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[2]); redis.call('ZADD', KEYS[4], ARGV[5], ARGV[2])
redis.call('ZADD', KEYS[5], ARGV[6], ARGV[2])
return ''
"""

# KEYS: ticket, indexes. ARGV: base, id, now, result ttl ms.
CANCEL = _LIB + """
local v = redis.call('HMGET', KEYS[1], 's', 'p')
if not v[1] then return false end
if v[1] == '1' or v[1] == '9' then
  redis.call('HSET', KEYS[1], 's', '3', 'f', '', 'u', ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  unindex(2, ARGV[2])
  free_slot(ARGV[1], ARGV[2], v[2])
  redis.call('PUBLISH', ARGV[1] .. 'w:' .. ARGV[2], '3')
end
return redis.call('HMGET', KEYS[1], 'd', 's', 'a')
"""

# KEYS: lease. ARGV: holder, ttl ms.
LEASE = """
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0
"""

UNLEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: lease, forming, indexes. ARGV: base, holder, then per formation: id, JSON, n, its n ticket ids.
# Returns a code per formation: 0 claimed, -1 the lease is not the holder's, k > 0 its k-th ticket is not waiting.
CLAIM_MANY = _LIB + """
local out = {}
local leased = redis.call('GET', KEYS[1]) == ARGV[2]
local i = 3
while i <= #ARGV do
  local fid, json, n = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local code = 0
  if not leased then code = -1 else
    for j = 1, n do
      if code == 0 and redis.call('HGET', ARGV[1] .. 't:' .. ARGV[i + 2 + j], 's') ~= '1' then code = j end
    end
  end
  if code == 0 then
    for j = 1, n do
      local id = ARGV[i + 2 + j]
      redis.call('HSET', ARGV[1] .. 't:' .. id, 's', '9', 'f', fid)
      unindex(3, id)
    end
    redis.call('HSET', KEYS[2], fid, json)
  end
  out[#out + 1] = code
  i = i + 3 + n
end
return out
"""

# KEYS: forming, indexes. ARGV: base, now, result ttl ms, then per formation: id, match id, n, and n
# (ticket id, Assignment bytes) pairs. Returns 1 per formation assigned, 0 per formation undone.
ASSIGN_MANY = _LIB + """
local out = {}
local i = 4
while i <= #ARGV do
  local fid, match, n = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local ok = true
  local ids = {}
  for j = 0, n - 1 do
    local id = ARGV[i + 3 + 2 * j]
    ids[#ids + 1] = id
    local v = redis.call('HMGET', ARGV[1] .. 't:' .. id, 's', 'f', 'm')
    if not ((v[1] == '9' and v[2] == fid) or (v[1] == '2' and v[3] == match)) then ok = false end
  end
  if ok then
    for j = 0, n - 1 do
      local id = ARGV[i + 3 + 2 * j]
      local tk = ARGV[1] .. 't:' .. id
      local v = redis.call('HMGET', tk, 's', 'p')
      if v[1] == '9' then
        redis.call('HSET', tk, 's', '2', 'f', '', 'm', match, 'a', ARGV[i + 4 + 2 * j], 'u', ARGV[2])
        redis.call('PEXPIRE', tk, ARGV[3])
        free_slot(ARGV[1], id, v[2])
        redis.call('PUBLISH', ARGV[1] .. 'w:' .. id, '2')
      end
    end
    out[#out + 1] = 1
  else
    put_back(2, ARGV[1], fid, ids)
    out[#out + 1] = 0
  end
  redis.call('HDEL', KEYS[1], fid)
  i = i + 3 + 2 * n
end
return out
"""

# KEYS: indexes. ARGV: base, which ('time' or 'due'), now, limit. The waiting tickets, oldest (or
# earliest due) first, as a flat list of Ticket bytes; entries of vanished tickets leave the indexes.
READ = _LIB + """
local ids
if ARGV[2] == 'due' then
  ids = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[3], 'LIMIT', 0, ARGV[4])
else
  ids = redis.call('ZRANGE', KEYS[2], 0, tonumber(ARGV[4]) - 1)
end
local out = {}
for _, id in ipairs(ids) do
  local v = redis.call('HMGET', ARGV[1] .. 't:' .. id, 'd', 's')
  if not v[1] then unindex(1, id) elseif v[2] == '1' then out[#out + 1] = v[1] end
end
return out
"""

# KEYS: indexes. ARGV: base, per side, then (rating, window) pairs. Returns, per query, up to `per
# side` waiting tickets just above and just below the rating within the window, as a string of
# comma-separated 1-based places in the list that ends the reply: the Ticket bytes of each one named
# (few reply elements: the client parses replies in Python).
NEAREST = _LIB + """
local per = tonumber(ARGV[2])
local out = {}
local place = {}
local data = {}
for i = 3, #ARGV, 2 do
  local r, w = tonumber(ARGV[i]), tonumber(ARGV[i + 1])
  local found = {}
  local up = redis.call('ZRANGEBYSCORE', KEYS[1], r, r + w, 'LIMIT', 0, per)
  local down = redis.call('ZREVRANGEBYSCORE', KEYS[1], r, r - w, 'LIMIT', 0, per)
  for _, list in ipairs({up, down}) do
    for _, id in ipairs(list) do
      if place[id] == nil then
        local v = redis.call('HMGET', ARGV[1] .. 't:' .. id, 'd', 's')
        if not v[1] then unindex(1, id) place[id] = false
        elseif v[2] == '1' then data[#data + 1] = v[1] place[id] = #data
        else place[id] = false end
      end
      if place[id] then found[#found + 1] = place[id] end
    end
  end
  out[#out + 1] = table.concat(found, ',')
end
out[#out + 1] = data
return out
"""

# KEYS: forming, indexes. ARGV: base, formation id, ticket ids...
RELEASE = _LIB + """
local ids = {}
for i = 3, #ARGV do ids[#ids + 1] = ARGV[i] end
put_back(2, ARGV[1], ARGV[2], ids)
redis.call('HDEL', KEYS[1], ARGV[2])
return 0
"""

# KEYS: ticket, indexes. ARGV: base, id, now.
EXPIRE = _LIB + """
local v = redis.call('HMGET', KEYS[1], 's', 'p', 'e')
if not v[1] then unindex(2, ARGV[2]) return 1 end
if v[1] ~= '1' or tonumber(v[3]) > tonumber(ARGV[3]) then return 0 end
redis.call('DEL', KEYS[1])
unindex(2, ARGV[2])
free_slot(ARGV[1], ARGV[2], v[2])
redis.call('PUBLISH', ARGV[1] .. 'w:' .. ARGV[2], '4')
return 1
"""

# KEYS: ratings, board, rated marker. ARGV: keep ms, then (player, expected raw, new raw, ordinal or '').
APPLY_RATINGS = """
if redis.call('EXISTS', KEYS[3]) == 1 then return 2 end
for i = 2, #ARGV, 4 do
  if (redis.call('HGET', KEYS[1], ARGV[i]) or '') ~= ARGV[i + 1] then return 0 end
end
for i = 2, #ARGV, 4 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2])
  if ARGV[i + 3] ~= '' then redis.call('ZADD', KEYS[2], ARGV[i + 3], ARGV[i]) end
end
redis.call('SET', KEYS[3], '1', 'PX', ARGV[1])
return 1
"""

# KEYS: new ratings, new board, ratings, board. Puts the rebuilt pair in place (none: empty).
SWAP_RATINGS = """
for i = 1, 2 do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('RENAME', KEYS[i], KEYS[i + 2])
  else redis.call('DEL', KEYS[i + 2]) end
end
return 1
"""

# KEYS: queue. ARGV: now, until, limit.
CLAIM_PENDING = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, m in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], m) end
return due
"""


def _unavailable(exc: BaseException) -> GameError:
    return GameError(common_pb2.ERROR_REASON_STORE_UNAVAILABLE, f"the matchmaking store is unavailable: {exc}")


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class _RedisWaiter(ChangeWaiter):
    """A ticket watcher's view of its channel: woken by any message that came since its last wait."""

    def __init__(self, notifier: Notifier, channel: str) -> None:
        self.notifier = notifier
        self.channel = channel
        self.seen = notifier.generation(channel)

    async def wait(self, timeout: float) -> None:
        await self.notifier.wait(self.channel, lambda: self.notifier.generation(self.channel) > self.seen, timeout)
        self.seen = self.notifier.generation(self.channel)


class RedisMatchmakingStore(MatchmakingStore):
    kind = "redis"

    def __init__(self, url: str, prefix: str, cluster: bool = False) -> None:
        self.prefix = prefix
        self.cluster = cluster
        self.client: Any
        if cluster:
            self.client = RedisCluster.from_url(url)
        else:
            pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=64, timeout=30)
            self.client = aioredis.Redis(connection_pool=pool)
        self._notifier = Notifier(aioredis.Redis.from_url(url), "sizzle-mm-notifier-start")
        self._scripts = {name: self.client.register_script(body) for name, body in (
            ("create", CREATE), ("cancel", CANCEL), ("lease", LEASE), ("unlease", UNLEASE), ("claim", CLAIM_MANY),
            ("assign", ASSIGN_MANY), ("release", RELEASE), ("expire", EXPIRE),
            ("read", READ), ("nearest", NEAREST),
            ("apply_ratings", APPLY_RATINGS), ("claim_pending", CLAIM_PENDING), ("swap_ratings", SWAP_RATINGS))}

    async def _run(self, script: str, keys: list[str], args: list[Any]) -> Any:
        try:
            return await self._scripts[script](keys=keys, args=args)
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc

    # ---------------------------------------------------------------- keys
    def _base(self, game_id: str) -> str:
        return f"{self.prefix}:mm:{{mm:{game_id}}}:"

    def _indexes(self, game_id: str) -> list[str]:
        base = self._base(game_id)
        return [base + "by_rating", base + "by_time", base + "by_deadline"]

    def _rating_base(self, game_id: str) -> str:
        return f"{self.prefix}:mm:{{rt:{game_id}}}:"

    @property
    def _queue(self) -> str:
        return f"{self.prefix}:mm:rating_queue"

    # ---------------------------------------------------------------- tickets
    async def create_ticket(self, ticket: mmpb.Ticket, keep_ms: int) -> str:
        base = self._base(ticket.game_id)
        result = await self._run("create", [base + "t:" + ticket.ticket_id, base + "p:" + ticket.player_id,
                                            *self._indexes(ticket.game_id)], [
            base, ticket.ticket_id, public(ticket, WAITING).SerializeToString(), repr(ticket.rating),
            ticket.created_unix_ms, ticket.wait_deadline_unix_ms, ticket.expires_unix_ms, ticket.player_id, keep_ms])
        return _text(result)

    async def create_tickets(self, tickets: Sequence[mmpb.Ticket], keep_ms: int) -> list[str]:
        if self.cluster:  # a cluster client cannot pipeline scripts
            return list(await asyncio.gather(*(self.create_ticket(t, keep_ms) for t in tickets)))
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                for ticket in tickets:
                    base = self._base(ticket.game_id)
                    await self._scripts["create"](
                        keys=[base + "t:" + ticket.ticket_id, base + "p:" + ticket.player_id,
                              *self._indexes(ticket.game_id)],
                        args=[base, ticket.ticket_id, public(ticket, WAITING).SerializeToString(), repr(ticket.rating),
                              ticket.created_unix_ms, ticket.wait_deadline_unix_ms, ticket.expires_unix_ms,
                              ticket.player_id, keep_ms],
                        client=pipe)
                return [_text(r) for r in await pipe.execute()]
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc

    @staticmethod
    def _compose(data: Any, state: Any, assignment: Any) -> StoredTicket:
        ticket = mmpb.Ticket.FromString(data)
        return StoredTicket(public(ticket, int(state), assignment or b""), int(state))

    async def get_ticket(self, ticket_id: str) -> StoredTicket | None:
        game_id = game_of(ticket_id)
        if game_id is None:
            return None
        try:
            data, state, assignment = await self.client.hmget(self._base(game_id) + "t:" + ticket_id, "d", "s", "a")
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc
        return None if data is None else self._compose(data, state, assignment)

    async def cancel_ticket(self, ticket_id: str, now_ms: int, result_ttl_ms: int) -> StoredTicket | None:
        game_id = game_of(ticket_id)
        if game_id is None:
            return None
        base = self._base(game_id)
        row = await self._run("cancel", [base + "t:" + ticket_id, *self._indexes(game_id)],
                              [base, ticket_id, now_ms, result_ttl_ms])
        return None if not row else self._compose(*row)

    @asynccontextmanager
    async def changes(self, ticket_id: str) -> AsyncIterator[ChangeWaiter]:
        game_id = game_of(ticket_id) or "-"
        channel = self._base(game_id) + "w:" + ticket_id
        try:
            await self._notifier.subscribe(channel)
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc
        try:
            yield _RedisWaiter(self._notifier, channel)
        finally:
            await self._notifier.unsubscribe(channel)

    # ---------------------------------------------------------------- pools
    async def acquire_lease(self, game_id: str, holder: str, ttl_ms: int) -> bool:
        return bool(await self._run("lease", [self._base(game_id) + "lease"], [holder, ttl_ms]))

    async def release_lease(self, game_id: str, holder: str) -> None:
        await self._run("unlease", [self._base(game_id) + "lease"], [holder])

    async def waiting_count(self, game_id: str) -> int:
        try:
            return int(await self.client.zcard(self._base(game_id) + "by_time"))
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc

    async def _read(self, game_id: str, which: str, now_ms: int, limit: int) -> list[mmpb.Ticket]:
        rows = await self._run("read", self._indexes(game_id), [self._base(game_id), which, now_ms, limit])
        return [mmpb.Ticket.FromString(raw) for raw in rows]

    async def oldest(self, game_id: str, limit: int) -> list[mmpb.Ticket]:
        return await self._read(game_id, "time", 0, limit)

    async def due(self, game_id: str, now_ms: int, limit: int) -> list[mmpb.Ticket]:
        return await self._read(game_id, "due", now_ms, limit)

    async def nearest(self, game_id: str, queries: Sequence[tuple[float, float]],
                      per_side: int) -> list[list[mmpb.Ticket]]:
        if not queries:
            return []
        args: list[Any] = [self._base(game_id), per_side]
        for rating, window in queries:
            args += [repr(float(rating)), repr(float(window))]
        rows = await self._run("nearest", self._indexes(game_id), args)
        tickets = [mmpb.Ticket.FromString(raw) for raw in rows[-1]]
        return [[tickets[int(p) - 1] for p in dict.fromkeys(_text(places).split(","))] if places else []
                for places in rows[:-1]]

    async def claim_many(self, game_id: str, formations: Sequence[Formation]) -> list[str]:
        if not formations:
            return []
        base = self._base(game_id)
        args: list[Any] = [base, formations[0].holder]
        for formation in formations:
            args += [formation.formation_id, formation.encode(), len(formation.ticket_ids), *formation.ticket_ids]
        codes = await self._run("claim", [base + "lease", base + "forming", *self._indexes(game_id)], args)
        return [CLAIMED if int(c) == 0 else LEASE_LOST if int(c) < 0 else GONE for c in codes]

    async def assign_many(self, game_id: str, formations: Sequence[Formation], now_ms: int,
                          result_ttl_ms: int) -> list[bool]:
        if not formations:
            return []
        base = self._base(game_id)
        args: list[Any] = [base, now_ms, result_ttl_ms]
        for formation in formations:
            args += [formation.formation_id, formation.match_id, len(formation.ticket_ids)]
            for ticket_id in formation.ticket_ids:
                args += [ticket_id, formation.assignments.get(ticket_id, b"")]
        codes = await self._run("assign", [base + "forming", *self._indexes(game_id)], args)
        return [bool(int(c)) for c in codes]

    async def release(self, game_id: str, formation: Formation) -> None:
        base = self._base(game_id)
        await self._run("release", [base + "forming", *self._indexes(game_id)],
                        [base, formation.formation_id, *formation.ticket_ids])

    async def formations(self, game_id: str) -> list[Formation]:
        try:
            rows = await self.client.hgetall(self._base(game_id) + "forming")
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc
        return [Formation.decode(_text(k), v) for k, v in rows.items()]

    async def expire(self, game_id: str, ticket_id: str, now_ms: int) -> bool:
        base = self._base(game_id)
        return bool(await self._run("expire", [base + "t:" + ticket_id, *self._indexes(game_id)],
                                    [base, ticket_id, now_ms]))

    # ---------------------------------------------------------------- ratings
    async def get_ratings(self, game_id: str, player_ids: Sequence[str]) -> dict[str, str]:
        if not player_ids:
            return {}
        try:
            rows = await self.client.hmget(self._rating_base(game_id) + "ratings", list(player_ids))
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc
        return {p: _text(raw) for p, raw in zip(player_ids, rows, strict=True) if raw is not None}

    async def apply_ratings(self, game_id: str, match_id: str, writes: Sequence[RatingWrite], keep_ms: int) -> str:
        base = self._rating_base(game_id)
        args: list[Any] = [keep_ms]
        for write in writes:
            args += [write.player_id, write.expected, write.new.encode(),
                     "" if is_bot(write.player_id) else repr(write.new.ordinal)]
        code = int(await self._run("apply_ratings", [base + "ratings", base + "board", base + "rated:" + match_id],
                                   args))
        return {0: CONFLICT, 1: APPLIED, 2: DONE}[code]

    async def put_rating(self, game_id: str, player_id: str, record: RatingRecord) -> None:
        base = self._rating_base(game_id)
        try:
            await self.client.hset(base + "ratings", player_id, record.encode())
            if not is_bot(player_id):
                await self.client.zadd(base + "board", {player_id: record.ordinal})
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc

    async def leaderboard(self, game_id: str, start: int, count: int) -> list[tuple[str, str]]:
        base = self._rating_base(game_id)
        try:
            ids = [_text(i) for i in await self.client.zrevrange(base + "board", start, start + count - 1)]
            raws = await self.client.hmget(base + "ratings", ids) if ids else []
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc
        return [(p, _text(raw)) for p, raw in zip(ids, raws, strict=True) if raw is not None]

    async def board_size(self, game_id: str) -> int:
        try:
            return int(await self.client.zcard(self._rating_base(game_id) + "board"))
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc

    async def rank(self, game_id: str, player_id: str) -> int | None:
        try:
            found = await self.client.zrevrank(self._rating_base(game_id) + "board", player_id)
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc
        return None if found is None else int(found)

    async def replace_ratings(self, game_id: str, rows: Sequence[tuple[str, RatingRecord]]) -> None:
        base = self._rating_base(game_id)
        token = secrets.token_hex(6)
        ratings, board = f"{base}ratings:new:{token}", f"{base}board:new:{token}"
        try:
            for start in range(0, len(rows), 500):
                chunk = rows[start:start + 500]
                await self.client.hset(ratings, mapping={p: r.encode() for p, r in chunk})
                people = {p: r.ordinal for p, r in chunk if not is_bot(p)}
                if people:
                    await self.client.zadd(board, people)
        except TRANSIENT as exc:
            with contextlib.suppress(Exception):
                await self.client.delete(ratings, board)
            raise _unavailable(exc) from exc
        await self._run("swap_ratings", [ratings, board, base + "ratings", base + "board"], [])

    async def all_ratings(self, game_id: str) -> dict[str, str]:
        try:
            found = await self.client.hgetall(self._rating_base(game_id) + "ratings")
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc
        return {_text(player): _text(raw) for player, raw in found.items()}

    @property
    def _cached_key(self) -> str:
        return f"{self.prefix}:mm:ratings_cached"

    async def ratings_cached(self) -> bool:
        try:
            return bool(await self.client.exists(self._cached_key))
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc

    async def mark_ratings_cached(self) -> None:
        try:
            await self.client.set(self._cached_key, "1")
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc

    # ---------------------------------------------------------------- pending ratings
    async def add_pending(self, items: Sequence[tuple[str, str]], due_ms: int) -> None:
        if not items:
            return
        try:
            await self.client.zadd(self._queue, {f"{g}/{m}": due_ms for g, m in items}, nx=True)
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc

    async def claim_pending(self, now_ms: int, until_ms: int, limit: int) -> list[tuple[str, str]]:
        rows = await self._run("claim_pending", [self._queue], [now_ms, until_ms, limit])
        return [split_pending(_text(r)) for r in rows]

    async def renew_pending(self, items: Sequence[tuple[str, str]], until_ms: int) -> None:
        if not items:
            return
        try:
            await self.client.zadd(self._queue, {f"{g}/{m}": until_ms for g, m in items}, xx=True)
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc

    async def drop_pending(self, game_id: str, match_id: str) -> None:
        try:
            await self.client.zrem(self._queue, f"{game_id}/{match_id}")
        except TRANSIENT as exc:
            raise _unavailable(exc) from exc

    async def close(self) -> None:
        await self._notifier.close()
        with contextlib.suppress(Exception):
            await self.client.aclose()
