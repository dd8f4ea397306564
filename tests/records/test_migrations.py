"""The records' migrations: an empty database upgrades to the head revision, and so does one at the
previous revision with rows in it (kept); the head schema is exactly the models'; `sizzle records
migrate` is how an operator runs them, and a server on an unmigrated PostgreSQL refuses to start."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection

from services.auth.accounts import username_skeleton
from services.records.migrate import head_revision, migrate
from services.records.models import Base
from services.records.store import APPLIED, CREATED, USERNAME_TAKEN, Account, RatingUpdate
from tests.records.databases import RecordsDatabase
from tests.records.store_suite import finished


def _differences(connection: Connection) -> list[object]:
    return list(compare_metadata(MigrationContext.configure(connection), Base.metadata))


async def _schema_differences(database: RecordsDatabase) -> list[object]:
    store = database.store()
    try:
        async with store.engine.connect() as connection:
            return await connection.run_sync(_differences)
    finally:
        await store.close()


def test_an_empty_database_upgrades_to_the_models(records_db: RecordsDatabase) -> None:
    # records_db is migrated from empty by the fixture
    assert asyncio.run(_schema_differences(records_db)) == []
    assert asyncio.run(migrate(records_db.url, records_db.schema)) == head_revision()  # again: nothing to do


def test_the_previous_schema_upgrades_with_its_rows(postgres_db: RecordsDatabase, sqlite_db: RecordsDatabase) -> None:
    for database in (postgres_db, sqlite_db):
        assert asyncio.run(migrate(database.url, database.schema, "0001")) == "0001"

        async def before(database: RecordsDatabase = database) -> None:
            store = database.store()
            try:
                assert await store.put_match(finished("m_old", ["p_a", "p_b"], 1_000))
                assert await store.create_account(Account("p_a", "Alice", "alice", "hash", 1)) == CREATED
                # Two names that look alike, both registered before skeletons were kept: "Bob" (U+0412)
                # in Cyrillic, then in Latin letters.
                assert await store.create_account(Account("p_c", "\u0412ob", "\u0432ob", "hash", 2)) == CREATED
                assert await store.create_account(Account("p_d", "Bob", "bob", "hash", 3)) == CREATED
            finally:
                await store.close()

        async def after(database: RecordsDatabase = database) -> None:
            store = database.store()
            try:
                old = await store.get_match("m_old")
                assert old is not None and [e.version for e in old.log] == [0, 1, 2]
                assert [e.match.match_id for e in (await store.history("p_b", "", "", 5)).entries] == ["m_old"]
                assert (await store.account_by_key("alice")) is not None
                # The older keeps the skeleton; the younger keeps its name and login, without one.
                older, younger = await store.account_by_key("\u0432ob"), await store.account_by_key("bob")
                assert older is not None and older.username_skeleton == username_skeleton("Bob")
                assert younger is not None and younger.username_skeleton == ""
                assert await store.create_account(Account("p_e", "B\u03bfb", "b\u03bfb", "h", 4,
                                                          username_skeleton("B\u03bfb"))) == USERNAME_TAKEN
                update = RatingUpdate("p_a", 0, 26.0, 8.0, 1, "Alice")
                assert await store.apply_ratings("grill_party", "m_old", [update], 2_000) == APPLIED
            finally:
                await store.close()

        asyncio.run(before())
        assert asyncio.run(migrate(database.url, database.schema)) == head_revision()
        asyncio.run(after())
        assert asyncio.run(_schema_differences(database)) == []


def _sizzle(*args: str, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "apps.cli", *args], env={**os.environ, **env},
                          capture_output=True, text=True, timeout=timeout)


def test_an_operator_migrates_with_the_cli_and_servers_wait_for_it(postgres_db: RecordsDatabase) -> None:
    env = {**postgres_db.env(), "SIZZLE_ADDR": "127.0.0.1:0", "SIZZLE_TOKEN_KEY": "k" * 40}
    refused = _sizzle("serve", "--services", "match", env=env)
    assert refused.returncode == 2
    assert "sizzle records migrate" in refused.stderr and "revision none" in refused.stderr, refused.stderr
    done = _sizzle("records", "migrate", env=env)
    assert done.returncode == 0, done.stderr
    assert f"is at revision {head_revision()}" in done.stdout and "postgres@" in done.stdout


def test_servers_starting_side_by_side_migrate_one_sqlite_file_once(sqlite_db: RecordsDatabase) -> None:
    """The embedded default migrates at start: several processes on one file take turns."""
    code = ("import asyncio; from services.records.migrate import migrate; "
            f"print(asyncio.run(migrate({sqlite_db.url!r})))")
    runs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(4)]
    outputs = [run.communicate(timeout=60) for run in runs]
    assert [run.returncode for run in runs] == [0] * 4, outputs
    assert {out.strip() for out, _ in outputs} == {head_revision()}
    assert asyncio.run(_schema_differences(sqlite_db)) == []
