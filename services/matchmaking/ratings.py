"""Ratings: OpenSkill (Plackett-Luce, free-for-all over any number of seats) per player and game,
bots rated per difficulty, and the keeper that learns over gRPC when each formed match ends and
rates it exactly once (replicas share the watch queue).

With durable records (services/records/), the records database is the ratings' home: a match's
rating changes are written there in one transaction with its rated flag, so each match counts once,
and the matchmaking store (Redis) keeps ratings and the leaderboard's sorted set as a cache, written
after each rating and rebuilt from the database whenever it is found empty (`sizzle ratings
rebuild` forces it). Without records, the matchmaking store is the home and its per-match marker
guards the once."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import grpc
from openskill.models import PlackettLuce

from services.kit.config import Config
from services.match.read_masks import MATCH_ONLY
from services.matchmaking.model import BOT_PREFIX, RatingRecord, RatingWrite
from services.matchmaking.store import CONFLICT, RatingStore, wall_ms
from services.records.store import RatingUpdate, RecordsStore, StoredRating
from services.rules import registry
from sizzle.match.v1 import match_service_pb2 as mpb

log = logging.getLogger("sizzle.matchmaking.ratings")
MODEL = PlackettLuce()
START = RatingRecord(MODEL.mu, MODEL.sigma)
# Where a difficulty's bots start before any rated match of a game without a ladder measurement:
# below, at and above a new player.
BOT_START = {
    mpb.DIFFICULTY_EASY: RatingRecord(MODEL.mu - 7, 4.0),
    mpb.DIFFICULTY_MEDIUM: RatingRecord(MODEL.mu, 4.0),
    mpb.DIFFICULTY_HARD: RatingRecord(MODEL.mu + 7, 4.0),
}
DIFFICULTIES = tuple(BOT_START)
# The ladder's measured ratings (`make ladder`, workers/training/ladder.py): a game's bots start at
# their ladder mu, shifted so that the heuristic sits where a new person starts (a newcomer is taken
# to play about as well as the heuristic), with the ladder's sigma but at least BOT_SIGMA_FLOOR (the
# shift itself is a guess that people's results correct).
BOT_RATINGS_FILE = Path(__file__).with_name("bot_ratings.json")
BOT_SIGMA_FLOOR = 2.0


@functools.lru_cache(maxsize=4)
def _ladder(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text()) if path.is_file() else {}


def bot_start(game_id: str, difficulty: int, path: Path = BOT_RATINGS_FILE) -> RatingRecord:
    """Where a difficulty's bots of a game start: measured on the ladder, else BOT_START."""
    entrants = _ladder(path).get(game_id, {}).get("entrants", {})
    name = bot_id(difficulty).removeprefix(BOT_PREFIX)
    if name not in entrants or "heuristic" not in entrants:
        return BOT_START[difficulty]
    measured, anchor = entrants[name], entrants["heuristic"]
    return RatingRecord(MODEL.mu + measured["mu"] - anchor["mu"], max(measured["sigma"], BOT_SIGMA_FLOOR))
# A rating keeper's hold on a pending match; renewed every tick while it watches.
WATCH_LEASE_MS = 15_000
WATCH_STREAM_SECONDS = 30.0
TICK_SECONDS = 0.5
CACHE_CHECK_MS = 10_000  # how often a keeper checks that the ratings cache is there (records only)


def bot_id(difficulty: int) -> str:
    return BOT_PREFIX + mpb.Difficulty.Name(difficulty or mpb.DIFFICULTY_MEDIUM).removeprefix("DIFFICULTY_").lower()


def bot_difficulty(player_id: str) -> int | None:
    for difficulty in DIFFICULTIES:
        if bot_id(difficulty) == player_id:
            return difficulty
    return None


def record_of(game_id: str, player_id: str, raw: str | None) -> RatingRecord:
    """A player's (or a difficulty's bots') rating in a game from its stored form, else its start."""
    if raw:
        return RatingRecord.decode(raw)
    difficulty = bot_difficulty(player_id)
    if difficulty is not None:
        start = bot_start(game_id, difficulty)
        return RatingRecord(start.mu, start.sigma, 0, f"{bot_id(difficulty).removeprefix(BOT_PREFIX)} bot")
    return START


def choose_difficulty(people: Sequence[float], bots: dict[int, RatingRecord]) -> int:
    """The difficulty whose bots' rating is nearest the mean rating of the people at the table."""
    mean = sum(people) / len(people)
    return min(DIFFICULTIES, key=lambda d: (abs(bots[d].mu - mean), d))


def seat_entities(match: mpb.Match) -> list[str]:
    """Who each seat's result counts for: the person who held it (even when a bot finished it for
    them after they left), else the bots of its difficulty."""
    return [seat.player_id if seat.player_id else bot_id(seat.difficulty) for seat in match.seats]


def rate_table(entities: Sequence[str], ranks: Sequence[int], current: dict[str, RatingRecord],
               names: dict[str, str], model: PlackettLuce = MODEL) -> dict[str, RatingRecord]:
    """New ratings after one game. Each seat is its own team; an entity on several seats (two bots of
    one difficulty) takes the mean of its seats' updates."""
    teams = [[model.rating(mu=current[e].mu, sigma=current[e].sigma)] for e in entities]
    rated = model.rate(teams, ranks=list(ranks))
    sums: dict[str, list[float]] = {}
    for entity, team in zip(entities, rated, strict=True):
        total = sums.setdefault(entity, [0.0, 0.0, 0.0])
        total[0] += team[0].mu
        total[1] += team[0].sigma
        total[2] += 1
    return {
        e: RatingRecord(mu / n, sigma / n, current[e].matches + 1, names.get(e) or current[e].name)
        for e, (mu, sigma, n) in sums.items()
    }


def rated_table(match: mpb.Match) -> tuple[list[str], list[int], dict[str, str]] | None:
    """Who each seat's result counts for, the seats' ranks and the people's names; None when the
    match is not rated (a fixed seed, fewer than two seats, an incomplete outcome)."""
    results = {r.seat: r.rank for r in match.outcome.results}
    entities = seat_entities(match)
    if match.seed_fixed:  # whoever chose the seed knew every hidden card: never rated
        return None
    if len(entities) < 2 or set(results) != set(range(len(entities))):
        return None
    ranks = [results[s] for s in range(len(entities))]
    names = {seat.player_id: seat.display_name for seat in match.seats if seat.player_id}
    return entities, ranks, names


def record_from(game_id: str, player_id: str, stored: StoredRating | None) -> RatingRecord:
    """A durable rating as the matchmaking store's record (the starting one when there is none)."""
    if stored is None:
        return record_of(game_id, player_id, None)
    return RatingRecord(stored.mu, stored.sigma, stored.matches, stored.name)


async def rate_match_durably(records: RecordsStore, cache: RatingStore, match: mpb.Match,
                             attempts: int = 50) -> str:
    """Rates a finished match once in the records (reads, computes, writes with the rated flag, again
    on a conflict), then brings the cache up to the records for its players: also when it finds the
    match rated already (a keeper that died between the two)."""
    table = rated_table(match)
    if table is None:
        return "unrated"
    entities, ranks, names = table
    unique = list(dict.fromkeys(entities))
    for _ in range(attempts):
        stored = await records.get_ratings(match.game_id, unique)
        current = {e: record_from(match.game_id, e, stored.get(e)) for e in unique}
        new = rate_table(entities, ranks, current, names)
        updates = [RatingUpdate(e, stored[e].version if e in stored else 0, new[e].mu, new[e].sigma, new[e].matches,
                                new[e].name) for e in unique]
        result = await records.apply_ratings(match.game_id, match.match_id, updates, wall_ms())
        if result == CONFLICT:
            await asyncio.sleep(0.01)
            continue
        for entity, rating in (await records.get_ratings(match.game_id, unique)).items():
            await cache.put_rating(match.game_id, entity, record_from(match.game_id, entity, rating))
        return result
    raise RuntimeError(f"ratings of {match.match_id} kept conflicting")


async def _durable_ratings(records: RecordsStore, game_id: str, page: int) -> list[tuple[str, RatingRecord]]:
    rows: list[tuple[str, RatingRecord]] = []
    after = ""
    while batch := await records.ratings_page(game_id, after, page):
        rows.extend((r.player_id, record_from(game_id, r.player_id, r)) for r in batch)
        after = batch[-1].player_id
    return rows


async def rebuild_rating_cache(records: RecordsStore, cache: RatingStore, game_ids: Sequence[str],
                               page: int = 1000) -> int:
    """Replaces the cached ratings and leaderboards of the games with the records'; returns how many
    ratings it wrote. A game the records have no rating of, whose cache has some (a deployment's
    Redis from before it kept records), has them imported into the records first, never wiped."""
    total = 0
    for game_id in game_ids:
        rows = await _durable_ratings(records, game_id, page)
        if not rows:
            kept = await cache.all_ratings(game_id)
            if kept:
                imported = [StoredRating(p, r.mu, r.sigma, r.matches, r.name, 1)
                            for p, r in ((p, RatingRecord.decode(raw)) for p, raw in sorted(kept.items()))]
                added = await records.import_ratings(game_id, imported, wall_ms())
                log.info("imported %d ratings of %s from the matchmaking store into the records", added, game_id)
                rows = await _durable_ratings(records, game_id, page)
        await cache.replace_ratings(game_id, rows)
        total += len(rows)
    await cache.mark_ratings_cached()
    return total


async def rate_match(store: RatingStore, match: mpb.Match, keep_ms: int, attempts: int = 50) -> str:
    """Rates a finished match once: reads, computes, compare-and-sets, again on a conflict."""
    table = rated_table(match)
    if table is None:
        return "unrated"
    entities, ranks, names = table
    unique = list(dict.fromkeys(entities))
    for _ in range(attempts):
        raws = await store.get_ratings(match.game_id, unique)
        current = {e: record_of(match.game_id, e, raws.get(e)) for e in unique}
        new = rate_table(entities, ranks, current, names)
        writes = [RatingWrite(e, raws.get(e, ""), new[e]) for e in unique]
        result = await store.apply_ratings(match.game_id, match.match_id, writes, keep_ms)
        if result != CONFLICT:
            return result
        await asyncio.sleep(0.01)
    raise RuntimeError(f"ratings of {match.match_id} kept conflicting")


class RatingKeeper:
    """Watches the matches the matchmaker formed until they finish, then rates them. The watch queue
    lives in the store: a replica leases the matches it watches, and when it dies another takes them."""

    def __init__(self, config: Config, store: RatingStore, stub: Any,
                 clock: Callable[[], int] = wall_ms, max_watches: int = 2_000,
                 records: RecordsStore | None = None) -> None:
        self.config = config
        self.store = store
        self.stub = stub
        self.clock = clock
        self.max_watches = max_watches
        self.records = records
        self._active: dict[tuple[str, str], asyncio.Task[None]] = {}
        self.keep_ms = max(config.replay_ttl_seconds, 3600) * 1000
        self._cache_checked_ms = 0

    async def check_cache(self) -> None:
        """With records: rebuilds the ratings cache when it is gone (a Redis that lost its data)."""
        now = self.clock()
        if self.records is None or now - self._cache_checked_ms < CACHE_CHECK_MS:
            return
        self._cache_checked_ms = now
        if not await self.store.ratings_cached():
            count = await rebuild_rating_cache(self.records, self.store, registry.game_ids())
            log.info("ratings cache rebuilt from the records: %d ratings", count)

    async def track(self, matches: Sequence[tuple[str, str]]) -> None:
        """Queues (game, match) pairs; a keeper of some replica picks each up on its next tick."""
        await self.store.add_pending(matches, self.clock())

    async def tick(self) -> None:
        await self.check_cache()
        now = self.clock()
        until = now + WATCH_LEASE_MS
        await self.store.renew_pending(list(self._active), until)
        free = self.max_watches - len(self._active)
        if free <= 0:
            return
        for key in await self.store.claim_pending(now, until, free):
            if key not in self._active:
                task = asyncio.create_task(self._watch(*key))
                self._active[key] = task
                task.add_done_callback(lambda _, k=key: self._active.pop(k, None))  # type: ignore[misc]

    async def _watch(self, game_id: str, match_id: str) -> None:
        try:
            match = await self._wait_finished(match_id)
            if match is not None and self.records is not None:
                result = await rate_match_durably(self.records, self.store, match)
                log.info("match %s of %s: ratings %s", match_id, game_id, result)
            elif match is not None:
                result = await rate_match(self.store, match, self.keep_ms)
                log.info("match %s of %s: ratings %s", match_id, game_id, result)
            await self.store.drop_pending(game_id, match_id)
        except asyncio.CancelledError:
            raise
        except Exception:  # left in the queue: its lease lapses and a keeper tries again
            log.exception("rating of %s failed", match_id)

    async def _wait_finished(self, match_id: str) -> mpb.Match | None:
        """The match once FINISHED (GetMatch, then WatchMatch from its version); None once unknown."""
        timeout = self.config.call_timeout_seconds
        while True:
            try:
                got = await self.stub.GetMatch(mpb.GetMatchRequest(match_id=match_id, read_mask=MATCH_ONLY),
                                               timeout=timeout)
                if got.match.status == mpb.MATCH_STATUS_FINISHED:
                    return got.match  # type: ignore[no-any-return]
                stream = self.stub.WatchMatch(mpb.WatchMatchRequest(match_id=match_id, from_version=got.match.version),
                                              timeout=WATCH_STREAM_SECONDS)
                try:
                    async for update in stream:
                        if update.match.status == mpb.MATCH_STATUS_FINISHED:
                            return update.match  # type: ignore[no-any-return]
                finally:
                    stream.cancel()
            except grpc.aio.AioRpcError as error:
                if error.code() == grpc.StatusCode.NOT_FOUND:
                    return None
                if error.code() not in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED):
                    log.info("watching %s: %s; again shortly", match_id, error.code().name)
                    await asyncio.sleep(1.0)

    async def stop(self) -> None:
        """Cancels the watches (after the Ticker running `tick` has stopped)."""
        tasks = list(self._active.values())
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=5)

