"""ListMatchHistory through the real API, on PostgreSQL and on SQLite: a player's finished matches,
newest first, by game, in pages whose opaque tokens only this query accepts; hostile requests answered
with their reasons; GetRating's history of rating changes."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

from services.kit.errors import error_info
from tests.records.databases import RecordsDatabase
from tests.records.platforms import history, records_platform, register
from tests.records.store_suite import finished
from tests.servers import ServerThread


@pytest.fixture()
def server(records_db: RecordsDatabase) -> Iterator[ServerThread]:
    server = records_platform(records_db)
    yield server
    server.stop()


def refusal(call: object) -> tuple[grpc.StatusCode, str]:
    try:
        call()  # type: ignore[operator]
    except grpc.RpcError as error:
        info = error_info(error)
        return error.code(), info.reason if info else ""
    raise AssertionError("the call was not refused")


def test_history_pages_newest_first_by_game(server: ServerThread) -> None:
    records = server.running.deps.records
    for i in range(25):
        game = "hibachi" if i % 5 == 0 else "grill_party"
        server.call(records.put_match(finished(f"m_{i:02d}", ["p_ann", "p_ben" if i % 2 else ""], 10_000 + i,
                                               game=game)))
    with grpc.insecure_channel(server.target) as channel:
        seen, token, pages = [], "", 0
        while True:
            page = history(channel, player_id="p_ann", page_size=10, page_token=token)
            seen.extend(e.match.match_id for e in page.entries)
            pages += 1
            if not page.next_page_token:
                break
            token = page.next_page_token
        assert seen == [f"m_{i:02d}" for i in reversed(range(25))] and pages == 3
        first = history(channel, player_id="p_ann")  # 20 by default
        assert len(first.entries) == 20 and first.entries[0].finished_unix_ms == 10_024 and first.entries[0].seat == 0
        hibachi = history(channel, player_id="p_ann", game_id="hibachi")
        assert [e.match.match_id for e in hibachi.entries] == ["m_20", "m_15", "m_10", "m_05", "m_00"]
        assert [e.seat for e in history(channel, player_id="p_ben", page_size=3).entries] == [1, 1, 1]
        assert history(channel, player_id="p_nobody").entries == []

        invalid = (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_REQUEST")
        token = history(channel, player_id="p_ann", page_size=5).next_page_token
        assert token
        assert refusal(lambda: history(channel, player_id="p_ben", page_size=5, page_token=token)) == invalid
        assert refusal(lambda: history(channel, player_id="p_ann", game_id="hibachi", page_token=token)) == invalid
        assert refusal(lambda: history(channel, player_id="p_ann", page_token="nan")) == invalid
        assert refusal(lambda: history(channel, player_id="p_ann", page_size=101)) == invalid
        assert refusal(lambda: history(channel, player_id="p_ann", page_size=-1)) == invalid
        assert refusal(lambda: history(channel, player_id="p_" + "x" * 5000)) == invalid
        assert refusal(lambda: history(channel, player_id="p_ann", game_id="chess")) == (
            grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_GAME")
        assert refusal(lambda: history(channel)) == (grpc.StatusCode.UNAUTHENTICATED, "INVALID_TOKEN")
        mine = register(channel, "ann", "a long password")
        assert history(channel, mine.token).entries == []  # the caller's own (a new player: none yet)


def test_get_rating_returns_the_rating_history(server: ServerThread) -> None:
    from services.records.store import RatingUpdate
    from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb
    from sizzle.matchmaking.v1 import matchmaking_service_pb2_grpc

    records = server.running.deps.records
    for n in range(1, 6):
        update = RatingUpdate("p_cat", n - 1, 25.0 + n, 8.0 - n / 2, n, "cat")
        assert server.call(records.apply_ratings("hibachi", f"m_{n}", [update], 1_000 * n)) == "applied"
    with grpc.insecure_channel(server.target) as channel:
        stub = matchmaking_service_pb2_grpc.MatchmakingServiceStub(channel)
        got = stub.GetRating(mmpb.GetRatingRequest(game_id="hibachi", player_id="p_cat", history_size=3), timeout=5)
        assert (got.rating.mu, got.rating.matches_played, got.rating.display_name) == (30.0, 5, "cat")
        assert [(c.match_id, c.mu, c.matches_played, c.unix_ms) for c in got.history] == [
            ("m_5", 30.0, 5, 5_000), ("m_4", 29.0, 4, 4_000), ("m_3", 28.0, 3, 3_000)]
        assert got.history[0].ordinal == pytest.approx(30.0 - 3 * 5.5)
        every = stub.GetRating(mmpb.GetRatingRequest(game_id="hibachi", player_id="p_cat"), timeout=5)
        assert len(every.history) == 5
        none = stub.GetRating(mmpb.GetRatingRequest(game_id="grill_party", player_id="p_cat"), timeout=5)
        assert none.rating.matches_played == 0 and list(none.history) == []
        try:
            stub.GetRating(mmpb.GetRatingRequest(game_id="hibachi", player_id="p_cat", history_size=101), timeout=5)
            raise AssertionError("history_size 101 was accepted")
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
