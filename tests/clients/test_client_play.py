"""`sizzle play`: the terminal client driven headlessly by Textual's pilot through whole games
against bots on a real platform server, with a friend on a second seat, and through dropped
connections."""

from __future__ import annotations

import asyncio
import random
import re
import threading
import time
import uuid

import grpc
import pytest

from clients.connection import MatchLink, join_match, new_match
from clients.tui.match_app import MatchApp
from services.rules import registry
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc
from tests.clients.driving import SIZE, Proxy, board_of, log_text, play_through, text_of, wait_for
from tests.match.players import Player, auth
from tests.servers import ServerThread


def replay_texts(target: str, match_id: str) -> list[str]:
    with grpc.insecure_channel(target) as channel:
        stub = Player(channel, "reader").stub
        replay = stub.GetReplay(mpb.GetReplayRequest(match_id=match_id), timeout=5)
    return [event.text for step in replay.steps for event in step.events]


def play_whole_game(target: str, game_id: str, bots: int, seed: int) -> tuple[MatchApp, str]:
    """Plays a whole game through the screen; returns the app and what its event log showed."""
    seating = new_match(target, game_id, name="alice", bots=bots, seed=seed)
    app = MatchApp(target, seating.match_id, token=seating.seat_token, seat=seating.seat)
    shown = []

    async def drive() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.match is not None, what="the first update")
            assert "alice (you)" in text_of(app, "#players")
            assert board_of(app).strip() and text_of(app, "#board").strip(), "the board shows the engine's rendering"
            await wait_for(pilot, lambda: app.can_act, what="alice's turn")
            # The log, the status and the board's header count the moves alike.
            board_moves = re.search(r"\bmove (\d+)", board_of(app))
            assert board_moves is not None
            assert f"--- your turn (move {board_moves[1]}) ---" in log_text(app)
            assert text_of(app, "#status").startswith(f"your turn (move {board_moves[1]})")
            moves = await play_through(app, pilot, random.Random(seed))
            assert moves > 0
            final = text_of(app, "#final")
            assert "winner" in final and "alice (you)" in final
            assert "game over" in text_of(app, "#status")
            shown.append(log_text(app))
            await pilot.press("q")

    asyncio.run(drive())
    return app, shown[0]


def check_finished(app: MatchApp, target: str, players: int) -> None:
    match = app.return_value
    assert match is not None and match.status == mpb.MATCH_STATUS_FINISHED
    assert len(match.outcome.results) == players
    # Every event arrived once, in order.
    assert [e.text for e in app.events_seen] == replay_texts(target, match.match_id)


def test_client_plays_grill_party_against_a_bot(platform: ServerThread) -> None:
    app, log = play_whole_game(platform.target, "grill_party", bots=1, seed=11)
    check_finished(app, platform.target, 2)
    assert "--- your turn" in log and "you choose: " in log and "medium bot: seat 1 " in log


def test_client_plays_the_card_game_against_two_bots(platform: ServerThread) -> None:
    app, _ = play_whole_game(platform.target, "a_la_carte_cards", bots=2, seed=5)
    check_finished(app, platform.target, 3)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["hibachi", "license_to_grill", "a_la_carte", "grill_party"])
def test_client_plays_every_game(platform: ServerThread, game_id: str) -> None:
    spec = registry.get_engine(game_id).spec
    bots = min(spec.max_players, 4) - 1
    app, _ = play_whole_game(platform.target, game_id, bots=bots, seed=3)
    check_finished(app, platform.target, bots + 1)


def test_client_pages_and_filters_many_actions(platform: ServerThread) -> None:
    seating = new_match(platform.target, "hibachi", name="alice", bots=3, seed=2)
    app = MatchApp(platform.target, seating.match_id, token=seating.seat_token, seat=seating.seat)

    async def drive() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.can_act, what="alice's turn")
            total = len(app.menu.actions)
            assert total > 35 and app.menu.pages > 1  # every throw of every chip: more than one page
            assert len(app.menu.shown()) == app.screen_layout.action_rows  # a page: as many as the screen shows
            first_page = [a.action_id for _, a in app.menu.shown()]
            await pilot.press("greater_than_sign")
            assert app.menu.page == 1 and [a.action_id for _, a in app.menu.shown()] != first_page
            assert "page 2/" in app.actions_title()
            await pilot.press("less_than_sign")
            assert app.menu.page == 0
            await pilot.press("slash", *"rice")
            assert 0 < len(app.menu.matching) < total
            assert all("rice" in a.description.lower() for a in app.menu.matching)
            assert f"of {total} match 'rice'" in app.actions_title()
            await pilot.press("enter")  # back to the list: keys choose again
            chosen = app.menu.pick("1")
            assert chosen is not None
            assert app.match is not None
            version = app.match.version
            await pilot.press("1")
            await wait_for(pilot, lambda: app.match is not None and app.match.version > version,
                           what="the action to be applied")
            assert f"you choose: {chosen.description}" in log_text(app)
            await pilot.press("ctrl+q")

    asyncio.run(drive())


def test_client_shows_the_turn_timer(platform: ServerThread) -> None:
    seating = new_match(platform.target, "grill_party", name="alice", bots=1, seed=4, turn_seconds=60)
    app = MatchApp(platform.target, seating.match_id, token=seating.seat_token, seat=seating.seat)

    async def drive() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.can_act, what="alice's turn")
            await pilot.pause(0.6)
            assert "your turn: 1:00 left" in text_of(app, "#status") or "your turn: 0:5" in text_of(app, "#status")
            await pilot.press("ctrl+q")

    asyncio.run(drive())


def test_a_friend_joins_from_another_terminal(platform: ServerThread) -> None:
    seating = new_match(platform.target, "a_la_carte_cards", name="alice", bots=0, humans=2, seed=9)
    assert seating.open_seats == 1
    invite = f"sizzle play a_la_carte_cards --join {seating.match_id}"
    app = MatchApp(platform.target, seating.match_id, token=seating.seat_token, seat=seating.seat, invite=invite)
    stop = threading.Event()

    def friend() -> None:  # bob, on his own connection as a second terminal would be, follows and plays
        bob = join_match(platform.target, seating.match_id, name="bob", accept_fixed_seed=True)  # alice chose the seed
        rng = random.Random(1)
        with grpc.insecure_channel(platform.target) as channel:
            stub = match_service_pb2_grpc.MatchServiceStub(channel)
            watch = mpb.WatchMatchRequest(match_id=seating.match_id, from_version=-1)
            for update in stub.WatchMatch(watch, metadata=auth(bob.seat_token), timeout=120):
                if stop.is_set():
                    return
                if update.legal_actions:
                    request = mpb.SubmitActionRequest(
                        match_id=seating.match_id, action_id=rng.choice(update.legal_actions).action_id,
                        expected_version=update.match.version, request_id=uuid.uuid4().hex)
                    stub.SubmitAction(request, metadata=auth(bob.seat_token), timeout=5)

    async def drive() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.match is not None, what="the first update")
            assert app.match is not None and app.match.status == mpb.MATCH_STATUS_WAITING
            assert "waiting for 1 more player" in text_of(app, "#status") and invite in text_of(app, "#status")
            thread.start()
            await play_through(app, pilot, random.Random(2))
            assert "bob" in text_of(app, "#final")
            await pilot.press("q")

    thread = threading.Thread(target=friend, daemon=True)
    try:
        asyncio.run(drive())
    finally:
        stop.set()
        thread.join(10)
    check_finished(app, platform.target, 2)


def test_client_reconnects_after_dropped_connections(platform: ServerThread) -> None:
    proxy = Proxy(platform.target)
    try:
        seating = new_match(proxy.target, "a_la_carte_cards", name="alice", bots=1, seed=13)
        app = MatchApp(proxy.target, seating.match_id, token=seating.seat_token, seat=seating.seat)

        async def drive() -> None:
            async with app.run_test(size=SIZE) as pilot:
                rng = random.Random(3)
                await play_through(app, pilot, rng, max_moves=4)
                for _ in range(3):  # drop the connection, and keep the network down a moment
                    proxy.cut(refuse_seconds=0.5)
                    await wait_for(pilot, lambda: "connection lost" in text_of(app, "#connection"),
                                   what="the client to notice")
                    await play_through(app, pilot, rng, max_moves=3)
                    # A submit gets through on its own retries; the watch stream comes back on its
                    # own backoff, which may be a moment later, and then the notice goes.
                    await wait_for(pilot, lambda: text_of(app, "#connection") == "",
                                   what="the client to reconnect and clear the notice")
                await play_through(app, pilot, rng)
                await pilot.press("q")

        asyncio.run(drive())
        assert app.link.reconnects >= 3
        check_finished(app, platform.target, 2)
    finally:
        proxy.close()


def test_submit_is_retried_with_the_same_request_id(platform: ServerThread) -> None:
    """A submit sent while the network is down keeps trying until it gets through, once."""
    proxy = Proxy(platform.target)
    seating = new_match(platform.target, "grill_party", name="alice", bots=1, seed=1)

    async def scenario() -> None:
        link = MatchLink(proxy.target, seating.match_id, seating.seat_token, first_delay=0.05, max_delay=0.2)
        current = await link.get()
        proxy.cut(refuse_seconds=1.0)
        started = time.monotonic()
        response = await link.submit(current.legal_actions[0].action_id, current.match.version, request_id="r-1")
        assert time.monotonic() - started >= 0.5, "it went through only once the network was back"
        assert response.match.version == current.match.version + 1
        # The same request again (a retry whose first answer was lost) is answered, not played twice.
        again = await link.submit(current.legal_actions[0].action_id, current.match.version, request_id="r-1")
        assert again.match.version >= response.match.version and list(again.events) == list(response.events)
        await link.close()

    try:
        asyncio.run(scenario())
    finally:
        proxy.close()


def test_a_refused_action_is_explained(platform: ServerThread) -> None:
    seating = new_match(platform.target, "grill_party", name="alice", bots=1, seed=6)

    async def scenario() -> None:
        link = MatchLink(platform.target, seating.match_id, seating.seat_token)
        current = await link.get()
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await link.submit(current.legal_actions[0].action_id, current.match.version + 5)
        assert caught.value.code() == grpc.StatusCode.ABORTED  # STALE_VERSION is not retried
        await link.close()

    asyncio.run(scenario())


def test_when_the_turn_timer_runs_out_a_bot_plays_on_and_the_screen_watches(platform: ServerThread) -> None:
    proxy = Proxy(platform.target)
    try:
        seating = new_match(proxy.target, "a_la_carte_cards", name="alice", bots=1, seed=14, turn_seconds=1)
        app = MatchApp(proxy.target, seating.match_id, token=seating.seat_token, seat=seating.seat)

        async def drive() -> None:
            async with app.run_test(size=SIZE) as pilot:
                await wait_for(pilot, lambda: app.can_act, what="alice's turn")
                # Alice's network goes down while she thinks: her time runs out, a bot takes her seat
                # over and plays on. Her seat token no longer shows the seat: back online, she watches.
                proxy.cut(refuse_seconds=2.5)
                await wait_for(pilot, lambda: app.finished, timeout=60, what="the end of the match")
                assert "you are watching" in text_of(app, "#status")
                assert "alice (bot plays on" in text_of(app, "#players")  # the panel may shorten it at 80 columns
                assert "alice (bot plays on) (you)" in text_of(app, "#final")
                assert not app.can_act and "your turn" not in text_of(app, "#status")
                await pilot.press("q")

        asyncio.run(drive())
        check_finished(app, platform.target, 2)
        assert app.turns_played == 0
    finally:
        proxy.close()
