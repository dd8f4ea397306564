"""The one test suite the records store passes on PostgreSQL and on SQLite (tests/records/test_records_store.py)."""

from __future__ import annotations

import asyncio

from services.records.store import (
    APPLIED,
    CONFLICT,
    CREATED,
    DONE,
    PLAYER_TAKEN,
    USERNAME_TAKEN,
    Account,
    FinishedMatch,
    RatingUpdate,
    RecordsStore,
    StoredRating,
)
from sizzle.common.v1 import common_pb2
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_store_pb2 as spb


def finished(match_id: str, players: list[str], finished_ms: int, game: str = "grill_party",
             seed: int = 7) -> FinishedMatch:
    match = mpb.Match(match_id=match_id, game_id=game, status=mpb.MATCH_STATUS_FINISHED, version=2,
                      created_unix_ms=finished_ms - 500, rules_version="r1.abc", options={"rounds": "3"})
    for seat, player in enumerate(players):
        if player:
            match.seats.add(seat=seat, kind=mpb.SEAT_KIND_HUMAN, player_id=player, display_name=player.upper())
        else:
            match.seats.add(seat=seat, kind=mpb.SEAT_KIND_BOT, difficulty=mpb.DIFFICULTY_EASY)
    match.outcome.results.add(seat=0, rank=1, score=10, winner=True)
    log = [spb.LogEntry(version=0, seat=-1, action_id=-1, unix_ms=finished_ms - 500,
                        events=[common_pb2.Event(seat=-1, text="created")]),
           spb.LogEntry(version=1, seat=0, action_id=4, unix_ms=finished_ms - 200, replayable=True),
           spb.LogEntry(version=2, seat=1, action_id=2, unix_ms=finished_ms, replayable=True, request_key=b"k")]
    return FinishedMatch(match, b"final-state-" + match_id.encode(), log, players[0], finished_ms, seed)


async def a_finished_match_is_recorded_once_and_read_whole(store: RecordsStore) -> None:
    record = finished("m_1", ["p_a", "", "p_b"], 10_000, seed=2**64 - 1)
    assert await store.put_match(record)
    assert not await store.put_match(record)  # a retry, or another replica: nothing twice
    read = await store.get_match("m_1")
    assert read is not None
    assert read.match == record.match and read.state == record.state and read.log == record.log
    assert (read.creator_player_id, read.finished_unix_ms, read.seed) == ("p_a", 10_000, 2**64 - 1)
    assert await store.get_match("m_none") is None
    page = await store.history("p_b", "", "", 10)
    assert [(e.match.match_id, e.seat, e.finished_unix_ms) for e in page.entries] == [("m_1", 2, 10_000)]
    assert (await store.history("p_nobody", "", "", 10)).entries == []


async def replicas_racing_write_one_record(store: RecordsStore) -> None:
    record = finished("m_race", ["p_a", "p_b"], 20_000)
    wrote = await asyncio.gather(*(store.put_match(record) for _ in range(8)))
    assert sorted(wrote) == [False] * 7 + [True]
    assert [e.match.match_id for e in (await store.history("p_a", "", "", 10)).entries] == ["m_race"]


async def history_is_newest_first_by_game_and_paged(store: RecordsStore) -> None:
    for i in range(7):
        game = "hibachi" if i % 2 else "grill_party"
        await store.put_match(finished(f"m_{i}", ["p_a", "p_b" if i < 5 else ""], 1_000 * (i + 1), game=game))
    await store.put_match(finished("m_tie", ["p_a", "p_c"], 3_000))  # finished at the same ms as m_2
    newest_first = ["m_6", "m_5", "m_4", "m_3", "m_tie", "m_2", "m_1", "m_0"]  # a tie: by id, descending
    for size in (1, 2, 3, 5, 8):  # every page boundary, the tie's among them
        seen, cursor = [], ""
        while True:
            page = await store.history("p_a", "", cursor, size)
            assert len(page.entries) <= size
            seen.extend(e.match.match_id for e in page.entries)
            if not page.next_cursor:
                break
            cursor = page.next_cursor
        assert seen == newest_first, size
    hibachi = await store.history("p_a", "hibachi", "", 10)
    assert [e.match.match_id for e in hibachi.entries] == ["m_5", "m_3", "m_1"] and not hibachi.next_cursor
    assert [e.match.match_id for e in (await store.history("p_b", "", "", 10)).entries] == [
        "m_4", "m_3", "m_2", "m_1", "m_0"]
    exact = await store.history("p_b", "grill_party", "", 3)  # exactly a page: no next page
    assert len(exact.entries) == 3 and not exact.next_cursor


async def usernames_and_player_ids_are_unique(store: RecordsStore) -> None:
    assert await store.create_account(Account("p_a", "Alice", "alice", "hash-a", 1)) == CREATED
    assert await store.create_account(Account("p_b", "ALICE", "alice", "hash-b", 2)) == USERNAME_TAKEN
    assert await store.create_account(Account("p_a", "Bob", "bob", "hash-c", 3)) == PLAYER_TAKEN
    found = await store.account_by_key("alice")
    assert found is not None and (found.player_id, found.username, found.password_hash) == ("p_a", "Alice", "hash-a")
    assert await store.account_of("p_a") == found
    assert await store.account_by_key("bob") is None and await store.account_of("p_b") is None
    racing = await asyncio.gather(*(store.create_account(Account(f"p_{i}", "Carol", "carol", "h", 4))
                                    for i in range(5)))
    assert sorted(racing) == [CREATED] + [USERNAME_TAKEN] * 4
    # A skeleton is unique too: another key that looks alike is taken, also when racing.
    assert await store.create_account(Account("p_d", "Dan", "dan", "h", 5, "Dan-skeleton")) == CREATED
    assert await store.create_account(Account("p_e", "D\u0430n", "d\u0430n", "h", 6, "Dan-skeleton")) == USERNAME_TAKEN
    assert (await store.account_like("d\u0430n", "Dan-skeleton")) == await store.account_by_key("dan")
    assert await store.account_like("eve", "Eve-skeleton") is None
    racing = await asyncio.gather(*(store.create_account(Account(f"p_f{i}", "Fay", f"fay{i}", "h", 7, "Fay-skeleton"))
                                    for i in range(5)))
    assert sorted(racing) == [CREATED] + [USERNAME_TAKEN] * 4


async def a_match_is_rated_once(store: RecordsStore) -> None:
    first = [RatingUpdate("p_a", 0, 27.0, 8.0, 1, "Alice"), RatingUpdate("bot-easy", 0, 17.0, 4.0, 1, "easy bot")]
    assert await store.apply_ratings("hibachi", "m_1", first, 1_000) == APPLIED
    assert await store.apply_ratings("hibachi", "m_1", first, 1_001) == DONE  # the same match again
    ratings = await store.get_ratings("hibachi", ["p_a", "bot-easy", "p_none"])
    assert set(ratings) == {"p_a", "bot-easy"}
    assert (ratings["p_a"].mu, ratings["p_a"].matches, ratings["p_a"].version) == (27.0, 1, 1)
    stale = [RatingUpdate("p_a", 0, 30.0, 7.0, 1, "Alice")]  # read before m_1 was rated
    assert await store.apply_ratings("hibachi", "m_2", stale, 2_000) == CONFLICT
    assert (await store.get_ratings("hibachi", ["p_a"]))["p_a"].mu == 27.0  # nothing of it written
    fresh = [RatingUpdate("p_a", 1, 29.0, 7.5, 2, "Alice")]
    assert await store.apply_ratings("hibachi", "m_2", fresh, 2_000) == APPLIED  # and m_2 was not marked
    history = await store.rating_history("hibachi", "p_a", 10)
    assert [(p.match_id, p.mu, p.matches) for p in history] == [("m_2", 29.0, 2), ("m_1", 27.0, 1)]
    assert [p.match_id for p in await store.rating_history("hibachi", "p_a", 1)] == ["m_2"]
    assert await store.get_ratings("grill_party", ["p_a"]) == {}
    page = await store.ratings_page("hibachi", "", 1)
    assert [r.player_id for r in page] == ["bot-easy"]
    assert [r.player_id for r in await store.ratings_page("hibachi", "bot-easy", 10)] == ["p_a"]


async def racing_keepers_apply_a_match_once(store: RecordsStore) -> None:
    updates = [RatingUpdate("p_x", 0, 26.0, 8.0, 1, "X"), RatingUpdate("p_y", 0, 24.0, 8.0, 1, "Y")]
    results = await asyncio.gather(*(store.apply_ratings("grill_party", "m_r", updates, 5) for _ in range(6)))
    assert results.count(APPLIED) == 1 and set(results) <= {APPLIED, DONE, CONFLICT}
    assert len(await store.rating_history("grill_party", "p_x", 10)) == 1


async def imported_ratings_never_replace_the_records(store: RecordsStore) -> None:
    assert await store.apply_ratings("hibachi", "m_1", [RatingUpdate("p_a", 0, 30.0, 6.0, 4, "A")], 1_000) == APPLIED
    kept = [StoredRating("p_a", 20.0, 8.0, 1, "old A", 1), StoredRating("p_b", 22.0, 7.0, 2, "B", 1)]
    assert await store.import_ratings("hibachi", kept, 2_000) == 1  # p_b only
    ratings = await store.get_ratings("hibachi", ["p_a", "p_b"])
    assert (ratings["p_a"].mu, ratings["p_a"].version) == (30.0, 1)
    assert (ratings["p_b"].mu, ratings["p_b"].matches, ratings["p_b"].name) == (22.0, 2, "B")
    assert await store.rating_history("hibachi", "p_b", 5) == []  # no match made it


SUITE = [
    a_finished_match_is_recorded_once_and_read_whole,
    replicas_racing_write_one_record,
    history_is_newest_first_by_game_and_paged,
    usernames_and_player_ids_are_unique,
    a_match_is_rated_once,
    racing_keepers_apply_a_match_once,
    imported_ratings_never_replace_the_records,
]
