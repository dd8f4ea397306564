"""Bot moves at a person's pace: split into moves, spaced `bot_pause` apart on screen when a person
is at the table, shown as they come at a table of bots only (and with a pause of 0, as in tests)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator

import grpc
import pytest

from apps.platform import Deps, create_server
from clients.connection import new_match
from clients.tui.match_app import MatchApp
from clients.tui.pacing import Pacer, is_bot_move, moves_of, people_at
from services.kit.config import Config
from sizzle.common.v1 import common_pb2
from sizzle.match.v1 import match_service_pb2 as mpb
from tests.clients.driving import SIZE, log_text, wait_for
from tests.conftest import random_bot_factory
from tests.match.players import BOT, Player
from tests.servers import ServerThread

PAUSE = 0.15


def event(seat: int, text: str = "x") -> common_pb2.Event:
    return common_pb2.Event(seat=seat, text=text)


def test_events_split_into_moves_by_the_seat_that_acts() -> None:
    events = [event(-1, "created"), event(0, "takes seat"), event(-1, "starts"), event(1, "a"), event(1, "b"),
              event(-1, "round ends"), event(2, "c"), event(0, "d")]
    moves = moves_of(events)
    assert [[e.text for e in move] for move in moves] == [
        ["created"], ["takes seat", "starts"], ["a", "b", "round ends"], ["c"], ["d"]]
    assert moves_of([]) == []


def table(*kinds: int, taken_over: int = -1) -> mpb.Match:
    match = mpb.Match()
    for seat, kind in enumerate(kinds):
        match.seats.add(seat=seat, kind=kind, taken_over=seat == taken_over)
    return match


def test_only_bot_moves_at_a_table_with_people_are_paced() -> None:
    people = table(mpb.SEAT_KIND_HUMAN, mpb.SEAT_KIND_BOT)
    bots_only = table(mpb.SEAT_KIND_BOT, mpb.SEAT_KIND_BOT)
    left = table(mpb.SEAT_KIND_BOT, mpb.SEAT_KIND_BOT, taken_over=0)  # a person left: a bot plays on
    assert people_at(people) and not people_at(bots_only) and people_at(left)
    assert is_bot_move(people, [event(1)]) and not is_bot_move(people, [event(0)])
    assert not is_bot_move(people, [event(-1)])
    pacer = Pacer(PAUSE)
    assert pacer.applies(people, [event(1)]) and not pacer.applies(bots_only, [event(1)])
    assert not Pacer(0).applies(people, [event(1)])


def test_the_pacer_waits_out_the_pause_from_the_move_shown_before() -> None:
    now = [100.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    async def scenario() -> None:
        pacer = Pacer(0.5, clock=lambda: now[0], sleep=sleep)
        match = table(mpb.SEAT_KIND_HUMAN, mpb.SEAT_KIND_BOT, mpb.SEAT_KIND_BOT)
        await pacer.before(match, [event(0)])  # the person's own move: no wait
        pacer.shown()
        await pacer.before(match, [event(1)])
        pacer.shown()
        now[0] += 0.2
        await pacer.before(match, [event(2)])
        pacer.shown()
        now[0] += 2.0  # a long think: the next bot move is shown at once
        await pacer.before(match, [event(1)])
        assert slept == pytest.approx([0.5, 0.3]) and pacer.waited == pytest.approx(0.8)
        assert len(pacer.bot_moves_shown) == 3

    asyncio.run(scenario())


def test_bot_moves_reach_the_screen_a_pause_apart(platform: ServerThread) -> None:
    seating = new_match(platform.target, "a_la_carte_cards", name="alice", bots=3, seed=3)
    app = MatchApp(platform.target, seating.match_id, token=seating.seat_token, seat=seating.seat,
                   bot_pause=PAUSE)

    async def drive() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.can_act and app.idle, what="alice's turn")
            first_choice = time.monotonic()
            rng = random.Random(2)
            while len(app.pacer.bot_moves_shown) < 6 and not app.finished:
                if app.can_act:
                    await pilot.press(rng.choice([key for key, _ in app.menu.shown()]))
                await pilot.pause(0.01)
            shown = app.pacer.bot_moves_shown
            assert len(shown) >= 6 and shown[0] - first_choice >= PAUSE * 0.9
            gaps = [later - earlier for earlier, later in zip(shown, shown[1:], strict=False)]
            assert min(gaps) >= PAUSE * 0.9, gaps  # every bot move on screen a pause after the one before
            assert app.pacer.waited > 0
            assert "medium bot: seat 3 " in log_text(app)
            await pilot.press("ctrl+q")

    asyncio.run(drive())


@pytest.fixture()
def thinking_bots() -> Iterator[ServerThread]:
    """Bots that take a little time, so a spectator sees a bots-only match move by move."""
    config = Config(addr="127.0.0.1:0", bot_think_seconds=0.01)
    server = ServerThread(lambda: create_server(config, Deps(bot_factory=random_bot_factory)))
    yield server
    server.stop()


def test_a_table_of_bots_only_is_shown_as_it_goes(thinking_bots: ServerThread) -> None:
    with grpc.insecure_channel(thinking_bots.target) as channel:
        creator = Player.guest(channel, "organiser")
        match = creator.create("a_la_carte_cards", [BOT, BOT])
    app = MatchApp(thinking_bots.target, match.match_id, bot_pause=5.0)  # a spectator, a long pause

    async def drive() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.finished, timeout=60, what="the end of the bots' match")
            await pilot.press("q")

    asyncio.run(drive())
    assert app.updates_seen > 3, "it followed the match move by move"
    assert app.pacer.waited == 0 and not app.pacer.bot_moves_shown
