"""The records store passes one suite on PostgreSQL (a schema of its own) and on SQLite (a file)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from services.records.store import RecordsStore, decode_log, encode_log
from tests.records.databases import RecordsDatabase
from tests.records.store_suite import SUITE, finished


@pytest.mark.parametrize("check", SUITE, ids=lambda c: c.__name__)
def test_records_store(check: Callable[[RecordsStore], Coroutine[Any, Any, None]], records_db: RecordsDatabase) -> None:
    async def main() -> None:
        store = records_db.store()
        try:
            await check(store)
        finally:
            await store.close()

    asyncio.run(main())


def test_a_log_round_trips_through_its_encoding() -> None:
    log = finished("m", ["p"], 5).log
    assert decode_log(encode_log(log)) == log
    assert decode_log(encode_log([])) == []
