"""`sizzle lobby`: the live matches of a server, joined or watched from the list."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import grpc

from clients.connection import new_match
from clients.tui.lobby_app import LobbyApp, LobbyChoice, age_text, players_line
from sizzle.match.v1 import match_service_pb2 as mpb
from tests.clients.driving import SIZE, text_of, wait_for
from tests.match.players import BOT, HUMAN, Player, play_out
from tests.records.databases import sqlite_database
from tests.records.platforms import history, records_platform
from tests.servers import ServerThread


def test_the_lobby_lists_waiting_and_running_matches_to_join_or_watch(platform: ServerThread) -> None:
    waiting = new_match(platform.target, "grill_party", name="kim", bots=1, humans=2, seed=3)
    running = new_match(platform.target, "hibachi", name="lee", bots=2, seed=4)  # lee thinks: it stays running
    lobby = LobbyApp(platform.target, game_id="grill_party", refresh_seconds=0)

    async def drive() -> LobbyChoice | None:
        async with lobby.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: lobby.loaded, what="the list")
            ids = [m.match_id for m in lobby.matches]
            assert waiting.match_id in ids and running.match_id not in ids  # --game grill_party
            assert all(m.status in (mpb.MATCH_STATUS_WAITING, mpb.MATCH_STATUS_RUNNING) for m in lobby.matches)
            lobby.query_one("#matches").move_cursor(row=ids.index(waiting.match_id))  # type: ignore[attr-defined]
            await pilot.pause()
            assert waiting.match_id in text_of(lobby, "#details") and "kim (seat 0)" in text_of(lobby, "#details")
            await pilot.press("j")  # a chosen seed: the lobby asks first
            assert "j again joins anyway" in text_of(lobby, "#notice") and lobby.is_running
            await pilot.press("j")
        return lobby.return_value

    choice = asyncio.run(drive())
    assert choice is not None and choice.action == "join" and choice.match.match_id == waiting.match_id
    assert choice.accept_fixed_seed

    everything = LobbyApp(platform.target, refresh_seconds=0)

    async def watch() -> LobbyChoice | None:
        async with everything.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: everything.loaded, what="the list")
            ids = [m.match_id for m in everything.matches]
            assert ids.index(waiting.match_id) < ids.index(running.match_id)  # waiting ones first
            everything.query_one("#matches").move_cursor(row=ids.index(running.match_id))  # type: ignore[attr-defined]
            await pilot.pause()
            await pilot.press("j")
            assert "no open seat" in text_of(everything, "#notice")
            await pilot.press("w")
        return everything.return_value

    watched = asyncio.run(watch())
    assert watched is not None and watched.action == "watch" and watched.match.match_id == running.match_id


def test_the_lobby_says_when_nothing_is_played(platform: ServerThread) -> None:
    lobby = LobbyApp(platform.target, game_id="a_la_carte", refresh_seconds=0)

    async def drive() -> None:
        async with lobby.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: lobby.loaded, what="the list")
            assert not lobby.matches and "no live matches of A la carte" in text_of(lobby, "#notice")
            await pilot.press("q")

    asyncio.run(drive())


def test_the_lobby_of_an_unreachable_server_says_so() -> None:
    lobby = LobbyApp("127.0.0.1:1", refresh_seconds=0)

    async def drive() -> None:
        async with lobby.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: "cannot list the matches" in text_of(lobby, "#notice"), timeout=60,
                           what="the refusal")
            await pilot.press("q")

    asyncio.run(drive())


def test_words_of_the_lobby() -> None:
    match = mpb.Match()
    match.seats.add(seat=0, kind=mpb.SEAT_KIND_HUMAN, player_id="p", display_name="kim")
    match.seats.add(seat=1, kind=mpb.SEAT_KIND_BOT, display_name="medium bot")
    match.seats.add(seat=2, kind=mpb.SEAT_KIND_BOT, display_name="medium bot")
    match.seats.add(seat=3, kind=mpb.SEAT_KIND_HUMAN)
    assert players_line(match) == "kim, 2 medium bots"
    assert [age_text(0, ms) for ms in (5_000, 125_000, 7_300_000)] == ["5s", "2m", "2h"]


def test_a_players_past_matches_are_replayed_from_the_lobby(tmp_path: Path) -> None:
    database = sqlite_database(tmp_path)
    database.migrate()
    server = records_platform(database)
    try:
        with grpc.insecure_channel(server.target) as channel:
            erin = Player.guest(channel, "erin", seed=3)
            match = erin.create("a_la_carte_cards", [HUMAN, BOT], seed=17)
            erin.join(match.match_id)
            assert play_out([erin]).status == mpb.MATCH_STATUS_FINISHED
            player_id = erin.get().match.seats[erin.seat].player_id
            deadline = time.monotonic() + 30
            while not history(channel, player_id=player_id).entries:  # the records are written in the background
                assert time.monotonic() < deadline, "the finished match never reached the records"
                time.sleep(0.05)
        lobby = LobbyApp(server.target, player_id=player_id, refresh_seconds=0)

        async def drive() -> LobbyChoice | None:
            async with lobby.run_test(size=SIZE) as pilot:
                await wait_for(pilot, lambda: lobby.loaded and bool(lobby.history), what="the past matches")
                assert [e.match.match_id for e in lobby.history] == [match.match_id]
                await pilot.press("tab")  # from the live matches to the past ones
                assert lobby.in_history and f"sizzle replay {match.match_id}" in text_of(lobby, "#details")
                await pilot.press("w")  # watching is for live matches
                assert lobby.is_running
                await pilot.press("enter")
            return lobby.return_value

        choice = asyncio.run(drive())
        assert choice is not None and choice.action == "replay" and choice.match.match_id == match.match_id
    finally:
        server.stop()


def test_a_server_without_records_says_it_keeps_no_history(platform: ServerThread) -> None:
    lobby = LobbyApp(platform.target, player_id="p_someone", refresh_seconds=0)

    async def drive() -> None:
        async with lobby.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: "keeps no match history" in text_of(lobby, "#notice"), what="the note")
            await pilot.press("q")

    asyncio.run(drive())
