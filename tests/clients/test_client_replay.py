"""`sizzle replay`: steps through a finished match's log, the board rebuilt at every step."""

from __future__ import annotations

import asyncio

import grpc

from clients.tui.replay_app import ReplayApp, build_frames
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc
from tests.clients.driving import SIZE, board_of, text_of, wait_for
from tests.match.players import BOT, HUMAN, Player, play_out
from tests.servers import ServerThread


def finished_match(target: str, game_id: str, seats: int) -> str:
    with grpc.insecure_channel(target) as channel:
        player = Player.guest(channel, "erin", seed=3)
        match = player.create(game_id, [HUMAN] + [BOT] * (seats - 1), seed=17)
        player.join(match.match_id)
        assert play_out([player]).status == mpb.MATCH_STATUS_FINISHED
        return match.match_id


def test_replay_steps_through_a_finished_match(platform: ServerThread) -> None:
    match_id = finished_match(platform.target, "grill_party", 2)
    with grpc.insecure_channel(platform.target) as channel:
        stub = match_service_pb2_grpc.MatchServiceStub(channel)
        final_public = stub.GetMatch(mpb.GetMatchRequest(match_id=match_id), timeout=5)
    app = ReplayApp(platform.target, match_id)

    async def drive() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.loaded, what="the replay")
            steps = len(app.frames)
            assert steps > 10 and app.position == 0
            assert f"step 1 of {steps}" in text_of(app, "#position")
            first = board_of(app)
            for _ in range(5):
                await pilot.press("right")
            assert app.position == 5 and f"step 6 of {steps}" in text_of(app, "#position")
            assert board_of(app) != first
            fifth = board_of(app)
            await pilot.press("left")
            assert app.position == 4
            await pilot.press("n")
            assert board_of(app) == fifth, "stepping back and forth shows the same board"
            step = app.frames[app.position].step
            assert all(e.text in text_of(app, "#events") for e in step.events)
            await pilot.press("end")
            assert app.position == steps - 1 and app.has_class("at-end")
            assert "winner" in text_of(app, "#final") and "erin" in text_of(app, "#final")
            # The rebuilt board at the end is the board the server shows a spectator.
            assert board_of(app) == final_public.rendering
            await pilot.press("right")
            assert app.position == steps - 1
            await pilot.press("home")
            assert app.position == 0 and board_of(app) == first and not app.has_class("at-end")
            await pilot.press("q")

    asyncio.run(drive())


def test_replay_of_a_running_match_shows_its_events(platform: ServerThread) -> None:
    with grpc.insecure_channel(platform.target) as channel:
        player = Player.guest(channel, "fay")
        match = player.create("grill_party", [HUMAN, BOT], seed=2)
        player.join(match.match_id)
        replay = player.stub.GetReplay(mpb.GetReplayRequest(match_id=match.match_id), timeout=5)
    frames, note = build_frames(replay)
    assert not replay.complete and "not over" in note
    assert len(frames) == len(replay.steps) and all(f.view is None for f in frames)
    assert any("fay takes seat 0" in line for f in frames for _, line in f.lines)


def test_replay_of_an_unknown_match_says_so(platform: ServerThread) -> None:
    app = ReplayApp(platform.target, "m_nope")

    async def drive() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: "cannot load" in board_of(app), what="the refusal")
            assert "UNKNOWN_MATCH" in text_of(app, "#board")
            await pilot.press("q")

    asyncio.run(drive())
