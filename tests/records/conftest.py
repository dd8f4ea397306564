"""Fixtures of the records tests: each test gets an empty records database of its own, migrated to
the head revision, on PostgreSQL and on SQLite alike (`records_db`), or on PostgreSQL alone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.records.databases import (
    POSTGRES_URL,
    RecordsDatabase,
    check_postgres,
    drop_schema,
    new_schema,
    sqlite_database,
)


@pytest.fixture(scope="session")
def postgres_url() -> str:
    check_postgres()
    return POSTGRES_URL


@pytest.fixture()
def postgres_db(postgres_url: str) -> Iterator[RecordsDatabase]:
    """An unmigrated schema of its own on PostgreSQL, dropped after the test."""
    database = RecordsDatabase(postgres_url, new_schema())
    yield database
    drop_schema(database.schema)


@pytest.fixture()
def sqlite_db(tmp_path: Path) -> RecordsDatabase:
    return sqlite_database(tmp_path)


@pytest.fixture(params=["postgres", "sqlite"])
def records_db(request: pytest.FixtureRequest) -> RecordsDatabase:
    """A migrated records database of each backend."""
    database: RecordsDatabase = request.getfixturevalue(f"{request.param}_db")
    database.migrate()
    return database
