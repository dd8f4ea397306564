"""Migrations of the records database (Alembic, scripts in services/records/migrations/versions/),
driven from code: `sizzle records migrate`, the deployment's migration Job, the embedded default at
start, and the tests all call `migrate`. A server on PostgreSQL does not migrate by itself: it checks
that the database is at the head revision (`check_current`) and refuses to start otherwise."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
from collections.abc import AsyncIterator
from pathlib import Path

from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from services.records.database import check_schema, create_engine, describe, is_sqlite

SCRIPTS = Path(__file__).resolve().parent / "migrations"
# One migration at a time per PostgreSQL database (two Jobs, or a Job and a developer).
_ADVISORY_LOCK = 0x5122_1E_DB


class NotMigrated(RuntimeError):
    """The records database is not at the revision this code needs."""


def alembic_config(connection: Connection | None = None) -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", str(SCRIPTS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def _upgrade(connection: Connection, revision: str) -> None:
    command.upgrade(alembic_config(connection), revision)


def _current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


async def current_revision(engine: AsyncEngine) -> str | None:
    async with engine.connect() as connection:
        return await connection.run_sync(_current)


@contextlib.asynccontextmanager
async def _file_lock(url: str) -> AsyncIterator[None]:
    """One migration at a time per SQLite file (servers of `make test` start side by side on one)."""
    database = make_url(url).database
    if not database or database == ":memory:":
        yield
        return
    with open(f"{database}.migrate.lock", "a") as lock:
        await asyncio.to_thread(fcntl.flock, lock.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


async def migrate(url: str, schema: str = "", revision: str = "head") -> str | None:
    """Upgrades the records database (creating the schema when named) to `revision`; returns the
    revision it is at afterwards."""
    check_schema(schema)
    if is_sqlite(url):
        async with _file_lock(url):
            return await _migrate(url, schema, revision)
    return await _migrate(url, schema, revision)


async def _migrate(url: str, schema: str, revision: str) -> str | None:
    engine = create_engine(url, schema, pool_size=1)
    try:
        async with engine.connect() as connection:
            if not is_sqlite(url):
                await connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": _ADVISORY_LOCK})
                if schema:
                    await connection.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
                await connection.commit()
            try:
                await connection.run_sync(_upgrade, revision)
                await connection.commit()
            finally:
                if not is_sqlite(url):
                    await connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": _ADVISORY_LOCK})
                    await connection.commit()
        return await current_revision(engine)
    finally:
        await engine.dispose()


async def check_current(engine: AsyncEngine, url: str) -> None:
    """NotMigrated unless the database is at the head revision."""
    found = await current_revision(engine)
    wanted = head_revision()
    if found != wanted:
        raise NotMigrated(f"the records database {describe(url)} is at revision {found or 'none'}, this server "
                          f"needs {wanted}: run `sizzle records migrate` (the deployment's migration Job) first")
