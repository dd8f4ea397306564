"""Connections to the records database: the async engine for a URL (PostgreSQL through asyncpg, SQLite
through aiosqlite), the schema the tables live in, and where the embedded default's file goes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from services.kit.config import Config

SQLITE_FILE = "records.sqlite3"
_SCHEMA = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def records_url(config: Config) -> str:
    """The records database of a configuration: SIZZLE_RECORDS_URL; else, when the live store is
    embedded too, the SQLite file under SIZZLE_DATA_DIR (its folder created); else "" (none)."""
    if config.records_url:
        return config.records_url
    if config.redis_url:
        return ""
    folder = Path(config.data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{(folder / SQLITE_FILE).resolve()}"


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def check_schema(schema: str) -> str:
    if schema and not _SCHEMA.match(schema):
        raise ValueError(f"SIZZLE_RECORDS_SCHEMA must be a lower-case SQL name, not {schema!r}")
    return schema


def create_engine(url: str, schema: str = "", pool_size: int = 5) -> AsyncEngine:
    """The engine of the records database. On PostgreSQL `schema` (when set) is the connections'
    search path, so the tables and Alembic's version table live there."""
    check_schema(schema)
    if is_sqlite(url):
        engine = create_async_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_connection: Any, _: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")  # readers never wait for the writer
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    connect_args: dict[str, Any] = {}
    if schema:
        connect_args["server_settings"] = {"search_path": schema}
    return create_async_engine(url, pool_size=pool_size, max_overflow=pool_size, pool_pre_ping=True,
                               pool_recycle=1800, connect_args=connect_args)


def describe(url: str) -> str:
    """The URL without its password, for logs and start-up lines."""
    return make_url(url).render_as_string(hide_password=True)
