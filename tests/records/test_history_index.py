"""A page of history is an index read, never a scan: the records benchmark's bulk fill (make bench runs
it with 1,000,000 matches) on a smaller table, and PostgreSQL's plans for the three kinds of page."""

from __future__ import annotations

import asyncio

from apps.bench.records import PLAYERS, history_pages


def testhistory_pages_read_their_index_only(postgres_url: str) -> None:
    found = asyncio.run(history_pages(postgres_url, 40_000, PLAYERS, 5))
    assert all(len(samples) == 5 for samples in found["kinds"].values())
    for nodes, index in zip(found["plans"], ("ix_match_players_history", "ix_match_players_game_history",
                                            "ix_match_players_history"), strict=True):
        assert not any(node.startswith("Seq Scan") for node in nodes), nodes
        assert f"Index Only Scan on {index}" in nodes and "Index Scan on pk_finished_matches" in nodes, nodes
