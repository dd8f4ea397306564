"""The records store on SQL through SQLAlchemy 2 (async): PostgreSQL (asyncpg) in deployments and
tests, SQLite (aiosqlite) as the embedded default. One code path; the dialects differ only in their
INSERT ... ON CONFLICT DO NOTHING, which both have.

Exactly once, without locks of our own: a finished match is an insert keyed by its id that does
nothing when the row exists (two replicas racing: PostgreSQL makes the second wait for the first's
transaction, then do nothing); its player rows go in the same transaction, only when the match row
was new. A match's rating changes go in one transaction with its rated flag (an insert keyed by the
match id), each rating written only if its version is still the one read (else the whole transaction
is rolled back and the caller reads again).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

from sqlalchemy import Select, or_, select, tuple_, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from services.kit.config import Config
from services.kit.errors import GameError
from services.records.database import create_engine, describe, is_sqlite, records_url
from services.records.migrate import NotMigrated, check_current, migrate
from services.records.models import (
    AccountRow,
    FinishedMatchRow,
    MatchPlayerRow,
    RatedMatchRow,
    RatingChangeRow,
    RatingRow,
)
from services.records.store import (
    APPLIED,
    CONFLICT,
    CREATED,
    DONE,
    PLAYER_TAKEN,
    USERNAME_TAKEN,
    Account,
    FinishedMatch,
    HistoryEntry,
    HistoryPage,
    RatingPoint,
    RatingUpdate,
    RecordsStore,
    StoredRating,
    decode_log,
    encode_log,
)
from sizzle.common.v1 import common_pb2
from sizzle.match.v1 import match_service_pb2 as mpb

TRANSIENT = (OperationalError, InterfaceError, OSError, TimeoutError)


class _Conflict(Exception):
    """A rating moved since it was read: the transaction is rolled back."""


def _unavailable(exc: BaseException) -> GameError:
    return GameError(common_pb2.ERROR_REASON_STORE_UNAVAILABLE,
                     f"the records store is unavailable: {type(exc).__name__}")


def _is_deadlock(exc: DBAPIError) -> bool:
    """PostgreSQL gave up one of two transactions waiting on each other, or a serialization failure."""
    code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
    return code in ("40P01", "40001")


@contextlib.asynccontextmanager
async def _available() -> AsyncIterator[None]:
    try:
        yield
    except TRANSIENT as exc:
        raise _unavailable(exc) from exc


def _rating(row: Any) -> StoredRating:
    return StoredRating(row.player_id, row.mu, row.sigma, row.matches, row.name, row.version)


class SqlRecordsStore(RecordsStore):
    def __init__(self, engine: AsyncEngine, url: str, schema: str = "", migrate_on_start: bool = False) -> None:
        self.engine = engine
        self.url = url
        self.schema = schema
        self.migrate_on_start = migrate_on_start or is_sqlite(url)
        self.kind = engine.dialect.name  # "postgresql" or "sqlite"
        self._insert = sqlite_insert if engine.dialect.name == "sqlite" else pg_insert

    @classmethod
    def connect(cls, url: str, schema: str = "", pool_size: int = 5, migrate_on_start: bool = False) -> SqlRecordsStore:
        schema = "" if is_sqlite(url) else schema
        return cls(create_engine(url, schema, pool_size), url, schema, migrate_on_start)

    async def open(self) -> None:
        """The embedded default (SQLite) creates and migrates its file; a shared database is migrated
        by its operator (`sizzle records migrate`) and only checked here, unless told otherwise."""
        if self.migrate_on_start:
            await migrate(self.url, self.schema)
        else:
            try:
                await check_current(self.engine, self.url)
            except TRANSIENT as exc:
                raise NotMigrated(f"the records database {describe(self.url)} does not answer: {exc}") from exc

    # ---------------------------------------------------------------- finished matches
    async def put_match(self, finished: FinishedMatch) -> bool:
        match = finished.match
        row = {
            "match_id": match.match_id, "game_id": match.game_id, "rules_version": match.rules_version,
            "seed": str(finished.seed), "seed_fixed": match.seed_fixed, "options": dict(match.options),
            "num_players": len(match.seats), "creator_player_id": finished.creator_player_id,
            "created_unix_ms": match.created_unix_ms, "finished_unix_ms": finished.finished_unix_ms,
            "match": match.SerializeToString(), "state": finished.state, "log": encode_log(finished.log),
        }
        seats: dict[str, int] = {}
        for seat, player in finished.players():
            seats.setdefault(player, seat)  # one row per person, at their first seat
        players = [{"player_id": player, "match_id": match.match_id, "game_id": match.game_id, "seat": seat,
                    "finished_unix_ms": finished.finished_unix_ms} for player, seat in seats.items()]
        async with _available(), self.engine.begin() as connection:
            result = await connection.execute(
                self._insert(FinishedMatchRow).values(row).on_conflict_do_nothing(index_elements=["match_id"]))
            if result.rowcount != 1:
                return False
            if players:
                await connection.execute(self._insert(MatchPlayerRow), players)
            return True

    async def get_match(self, match_id: str) -> FinishedMatch | None:
        query = select(FinishedMatchRow.match, FinishedMatchRow.state, FinishedMatchRow.log, FinishedMatchRow.seed,
                       FinishedMatchRow.creator_player_id, FinishedMatchRow.finished_unix_ms).where(
            FinishedMatchRow.match_id == match_id)
        async with _available(), self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        if row is None:
            return None
        return FinishedMatch(mpb.Match.FromString(row.match), bytes(row.state), decode_log(bytes(row.log)),
                             row.creator_player_id, row.finished_unix_ms, int(row.seed))

    @staticmethod
    def history_query(player_id: str, game_id: str, cursor: str, limit: int) -> Select[int, str, int, bytes]:
        """One page of a player's history: a range of ix_match_players_history (or, by game,
        ix_match_players_game_history) read backwards from the cursor, joined to its matches."""
        played = MatchPlayerRow
        query = (select(played.finished_unix_ms, played.match_id, played.seat, FinishedMatchRow.match)
                 .join(FinishedMatchRow, FinishedMatchRow.match_id == played.match_id)
                 .where(played.player_id == player_id))
        if game_id:
            query = query.where(played.game_id == game_id)
        if cursor:
            finished_text, _, match_id = cursor.partition(":")
            query = query.where(tuple_(played.finished_unix_ms, played.match_id) < tuple_(int(finished_text), match_id))
        return query.order_by(played.finished_unix_ms.desc(), played.match_id.desc()).limit(limit + 1)

    async def history(self, player_id: str, game_id: str, cursor: str, limit: int) -> HistoryPage:
        query = self.history_query(player_id, game_id, cursor, limit)
        async with _available(), self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        entries = [HistoryEntry(mpb.Match.FromString(row.match), row.seat, row.finished_unix_ms)
                   for row in rows[:limit]]
        following = ""
        if len(rows) > limit:
            last = rows[limit - 1]
            following = f"{last.finished_unix_ms}:{last.match_id}"
        return HistoryPage(entries, following)

    # ---------------------------------------------------------------- accounts
    async def create_account(self, account: Account) -> str:
        row = {"player_id": account.player_id, "username": account.username, "username_key": account.username_key,
               "password_hash": account.password_hash, "created_unix_ms": account.created_unix_ms}
        if account.username_skeleton:
            row["username_skeleton"] = account.username_skeleton
        async with _available(), self.engine.begin() as connection:
            result = await connection.execute(self._insert(AccountRow).values(row).on_conflict_do_nothing())
            if result.rowcount == 1:
                return CREATED
        taken = await self.account_like(account.username_key, account.username_skeleton)
        return USERNAME_TAKEN if taken is not None else PLAYER_TAKEN

    async def _account(self, condition: Any) -> Account | None:
        async with _available(), self.engine.connect() as connection:
            row = (await connection.execute(select(AccountRow).where(condition).limit(1))).first()
        if row is None:
            return None
        return Account(row.player_id, row.username, row.username_key, row.password_hash, row.created_unix_ms,
                       row.username_skeleton or "")

    async def account_by_key(self, username_key: str) -> Account | None:
        return await self._account(AccountRow.username_key == username_key)

    async def account_like(self, username_key: str, username_skeleton: str) -> Account | None:
        if not username_skeleton:
            return await self.account_by_key(username_key)
        return await self._account(or_(AccountRow.username_key == username_key,
                                       AccountRow.username_skeleton == username_skeleton))

    async def account_of(self, player_id: str) -> Account | None:
        return await self._account(AccountRow.player_id == player_id)

    # ---------------------------------------------------------------- ratings
    async def get_ratings(self, game_id: str, player_ids: Sequence[str]) -> dict[str, StoredRating]:
        if not player_ids:
            return {}
        query = select(RatingRow).where(RatingRow.game_id == game_id, RatingRow.player_id.in_(list(player_ids)))
        async with _available(), self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return {row.player_id: _rating(row) for row in rows}

    async def apply_ratings(self, game_id: str, match_id: str, updates: Sequence[RatingUpdate], unix_ms: int) -> str:
        try:
            async with _available(), self.engine.begin() as connection:
                flagged = await connection.execute(self._insert(RatedMatchRow).values(
                    match_id=match_id, game_id=game_id, unix_ms=unix_ms).on_conflict_do_nothing())
                if flagged.rowcount != 1:
                    return DONE
                # Always in player order: two matches sharing players never wait on each other in a cycle.
                for item in sorted(updates, key=lambda u: u.player_id):
                    values = {"mu": item.mu, "sigma": item.sigma, "ordinal": item.mu - 3 * item.sigma,
                              "matches": item.matches, "name": item.name, "version": item.expected_version + 1,
                              "updated_unix_ms": unix_ms}
                    if item.expected_version == 0:
                        statement: Any = self._insert(RatingRow).values(
                            game_id=game_id, player_id=item.player_id, **values).on_conflict_do_nothing()
                    else:
                        statement = update(RatingRow).where(
                            RatingRow.game_id == game_id, RatingRow.player_id == item.player_id,
                            RatingRow.version == item.expected_version).values(**values)
                    if (await connection.execute(statement)).rowcount != 1:
                        raise _Conflict()
                await connection.execute(self._insert(RatingChangeRow), [
                    {"game_id": game_id, "player_id": item.player_id, "match_id": match_id, "mu": item.mu,
                     "sigma": item.sigma, "matches": item.matches, "unix_ms": unix_ms} for item in updates])
                return APPLIED
        except _Conflict:
            return CONFLICT
        except DBAPIError as exc:
            if _is_deadlock(exc):
                return CONFLICT
            raise

    async def rating_history(self, game_id: str, player_id: str, limit: int) -> list[RatingPoint]:
        change = RatingChangeRow
        query = (select(change).where(change.game_id == game_id, change.player_id == player_id)
                 .order_by(change.unix_ms.desc(), change.match_id.desc()).limit(limit))
        async with _available(), self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [RatingPoint(row.match_id, row.mu, row.sigma, row.matches, row.unix_ms) for row in rows]

    async def ratings_page(self, game_id: str, after_player_id: str, limit: int) -> list[StoredRating]:
        query = (select(RatingRow).where(RatingRow.game_id == game_id, RatingRow.player_id > after_player_id)
                 .order_by(RatingRow.player_id).limit(limit))
        async with _available(), self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [_rating(row) for row in rows]

    async def import_ratings(self, game_id: str, ratings: Sequence[StoredRating], unix_ms: int) -> int:
        added = 0
        async with _available(), self.engine.begin() as connection:
            for r in ratings:  # once per deployment: one row at a time, each counted
                row = {"game_id": game_id, "player_id": r.player_id, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal,
                       "matches": r.matches, "name": r.name, "version": 1, "updated_unix_ms": unix_ms}
                result = await connection.execute(self._insert(RatingRow).values(row).on_conflict_do_nothing())
                added += result.rowcount
        return added

    async def close(self) -> None:
        await self.engine.dispose()



def build_records(config: Config) -> SqlRecordsStore | None:
    """The records store of a configuration (services/records/database.py's records_url), or None."""
    url = records_url(config)
    if not url:
        return None
    return SqlRecordsStore.connect(url, config.records_schema, config.records_pool_size,
                                   bool(config.records_migrate_on_start))
