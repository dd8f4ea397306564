"""`sizzle watch`: a spectator's screen follows a live match's public view to the final table."""

from __future__ import annotations

import asyncio
import random
import threading
import time
import uuid

import grpc

from clients.connection import new_match
from clients.tui.match_app import MatchApp
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc
from tests.clients.driving import SIZE, log_text, text_of, wait_for
from tests.clients.snapshots import screen_text
from tests.match.players import auth
from tests.servers import ServerThread


def play_slowly(target: str, match_id: str, seat_token: str, started: threading.Event) -> None:
    """A person playing random actions with a little thought, so the spectator sees it live."""
    rng = random.Random(4)
    started.wait(30)
    with grpc.insecure_channel(target) as channel:
        stub = match_service_pb2_grpc.MatchServiceStub(channel)
        watch = mpb.WatchMatchRequest(match_id=match_id, from_version=-1)
        for update in stub.WatchMatch(watch, metadata=auth(seat_token), timeout=120):
            if update.legal_actions:
                time.sleep(0.02)
                choice = rng.choice(update.legal_actions)
                request = mpb.SubmitActionRequest(match_id=match_id, action_id=choice.action_id,
                                                  expected_version=update.match.version, request_id=uuid.uuid4().hex)
                stub.SubmitAction(request, metadata=auth(seat_token), timeout=5)


def footer(app: MatchApp) -> str:
    """The keys the footer offers, as the bottom line of the screen shows them."""
    return screen_text(app).splitlines()[-1].strip()


def test_spectator_follows_a_match_live(platform: ServerThread) -> None:
    seating = new_match(platform.target, "a_la_carte_cards", name="carol", bots=2, seed=21)
    started = threading.Event()
    player = threading.Thread(target=play_slowly, args=(platform.target, seating.match_id, seating.seat_token,
                                                        started), daemon=True)
    player.start()
    app = MatchApp(platform.target, seating.match_id)  # no token: the public view

    async def drive() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.match is not None, what="the first update")
            assert app.spectating and "spectating" in text_of(app, "#topbar")
            await pilot.pause()
            assert footer(app) == "^q quit"  # no leave, no filter, no pages
            assert "(you)" not in text_of(app, "#players") and "carol" in text_of(app, "#players")
            before = text_of(app, "#board")
            started.set()
            await wait_for(pilot, lambda: app.finished, timeout=120, what="the end of the match")
            assert app.updates_seen > 5, "it followed the match move by move"
            assert text_of(app, "#board") != before
            assert "winner" in text_of(app, "#final") and "carol" in text_of(app, "#final")
            assert "carol: seat 0 " in log_text(app)
            # A spectator never gets actions, and keys do nothing; the footer offers only what a spectator can do.
            assert not app.menu.actions and not app.can_act
            await pilot.pause()
            assert footer(app) == "q quit"
            await pilot.press("1")
            await pilot.press("q")

    asyncio.run(drive())
    player.join(10)
    match = app.return_value
    assert match is not None and match.status == mpb.MATCH_STATUS_FINISHED
    with grpc.insecure_channel(platform.target) as channel:
        stub = match_service_pb2_grpc.MatchServiceStub(channel)
        replay = stub.GetReplay(mpb.GetReplayRequest(match_id=seating.match_id), timeout=5)
        public = stub.GetMatch(mpb.GetMatchRequest(match_id=seating.match_id), timeout=5)
    assert [e.text for e in app.events_seen] == [e.text for s in replay.steps for e in s.events]
    assert all(not e.secret_text for e in app.events_seen), "a spectator reads no secrets"
    assert public.seat == -1


def test_spectator_of_a_finished_match_sees_the_final_table(platform: ServerThread) -> None:
    seating = new_match(platform.target, "a_la_carte_cards", name="dave", bots=1, seed=8)
    with grpc.insecure_channel(platform.target) as channel:
        stub = match_service_pb2_grpc.MatchServiceStub(channel)
        stub.LeaveMatch(mpb.LeaveMatchRequest(match_id=seating.match_id), metadata=auth(seating.seat_token),
                        timeout=5)  # a bot plays dave's seat to the end
    app = MatchApp(platform.target, seating.match_id)

    async def drive() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.finished, timeout=60, what="the end of the match")
            assert "bot plays on" in text_of(app, "#final")
            await pilot.press("q")

    asyncio.run(drive())
