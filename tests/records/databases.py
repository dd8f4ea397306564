"""The records databases the tests run on: a real PostgreSQL (a schema of its own per test, dropped
after) and an SQLite file in a temporary folder. A test that needs PostgreSQL fails loudly when none
answers; `make test` starts one (scripts/ensure_postgres.sh)."""

from __future__ import annotations

import asyncio
import os
import uuid
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from services.records.migrate import migrate
from services.records.sql_store import SqlRecordsStore

POSTGRES_URL = os.environ.get("SIZZLE_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


def plain_dsn(url: str) -> str:
    """The URL as asyncpg itself takes it (without SQLAlchemy's driver name)."""
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _execute(sql: str) -> None:
    connection = await asyncpg.connect(plain_dsn(POSTGRES_URL), timeout=5)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def check_postgres() -> None:
    try:
        asyncio.run(_execute("SELECT 1"))
    except (OSError, asyncpg.PostgresError) as exc:
        raise RuntimeError(f"these tests need PostgreSQL at {POSTGRES_URL} (make test starts one): {exc}") from exc


def new_schema() -> str:
    return f"sizzle_test_{uuid.uuid4().hex[:12]}"


def drop_schema(schema: str) -> None:
    asyncio.run(_execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))


@dataclass(frozen=True)
class RecordsDatabase:
    """Where one test's records live: a URL and (PostgreSQL) a schema."""

    url: str
    schema: str = ""

    @property
    def backend(self) -> str:
        return "sqlite" if self.url.startswith("sqlite") else "postgresql"

    def env(self) -> dict[str, str]:
        """The configuration of a server process that uses it."""
        return {"SIZZLE_RECORDS_URL": self.url, "SIZZLE_RECORDS_SCHEMA": self.schema}

    def store(self) -> SqlRecordsStore:
        return SqlRecordsStore.connect(self.url, self.schema)

    def migrate(self, revision: str = "head") -> None:
        asyncio.run(migrate(self.url, self.schema, revision))


def sqlite_database(folder: Path) -> RecordsDatabase:
    return RecordsDatabase(f"sqlite+aiosqlite:///{folder / 'records.sqlite3'}")
