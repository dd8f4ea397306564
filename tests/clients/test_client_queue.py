"""`sizzle play --queue`: a seat through matchmaking, then the same screen to the final table."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from apps.cli import build_parser
from apps.platform import Deps, create_server
from clients.cli import seat_for
from clients.connection import ClientError
from clients.queue import queue_for_match
from clients.tui.match_app import MatchApp
from services.kit.config import Config
from sizzle.match.v1 import match_service_pb2 as mpb
from tests.clients.driving import SIZE, play_through, text_of
from tests.conftest import random_bot_factory
from tests.servers import ServerThread


@pytest.fixture(scope="module")
def with_matchmaking() -> Iterator[ServerThread]:
    config = Config(addr="127.0.0.1:0", matchmaking_interval_ms=30, matchmaking_lease_ms=1000)
    deps = Deps(services=("rules", "match", "matchmaking"), bot_factory=random_bot_factory)
    server = ServerThread(lambda: create_server(config, deps))
    yield server
    server.stop()


def test_queue_then_play_against_the_bots_that_fill_the_table(with_matchmaking: ServerThread) -> None:
    target = with_matchmaking.target
    said: list[str] = []
    args = build_parser().parse_args(["play", "a_la_carte_cards", "--queue", "--players", "2", "--max-wait", "1",
                                      "--name", "gus", "--server", target])
    assert args.queue and args.max_wait == 1 and args.players == 2
    seating = queue_for_match(target, args.game, name=args.name, players=args.players,
                              max_wait_seconds=args.max_wait, on_wait=said.append)
    assert "bots fill the table after 1s" in said[0] and "seated at match" in said[-1]
    assert seating.match.status == mpb.MATCH_STATUS_RUNNING and len(seating.match.seats) == 2
    assert seating.match.seats[seating.seat].display_name == "gus"
    app = MatchApp(target, seating.match_id, token=seating.seat_token, seat=seating.seat)

    async def drive() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await play_through(app, pilot, random.Random(8))
            assert "gus (you)" in text_of(app, "#final")
            await pilot.press("q")

    asyncio.run(drive())
    assert app.return_value is not None and app.return_value.status == mpb.MATCH_STATUS_FINISHED


def test_two_people_in_the_queue_meet(with_matchmaking: ServerThread) -> None:
    target = with_matchmaking.target
    with ThreadPoolExecutor(2) as pool:
        futures = [pool.submit(queue_for_match, target, "grill_party", name=name, players=2, max_wait_seconds=20,
                               allow_bots=False) for name in ("hal", "ida")]
        seatings = [f.result(timeout=30) for f in futures]
    assert seatings[0].match_id == seatings[1].match_id
    assert {s.seat for s in seatings} == {0, 1}
    assert all(seat.kind == mpb.SEAT_KIND_HUMAN for seat in seatings[0].match.seats)


def test_queue_for_an_unknown_game_is_refused(with_matchmaking: ServerThread) -> None:
    args = build_parser().parse_args(["play", "no_such_game", "--queue", "--server", with_matchmaking.target])
    with pytest.raises(ClientError, match="UNKNOWN_GAME|unknown game"):
        seat_for(args, with_matchmaking.target)


def test_queue_without_matchmaking_says_how_to_serve_it() -> None:
    config = Config(addr="127.0.0.1:0")
    server = ServerThread(lambda: create_server(config, Deps(services=("rules", "match"),
                                                             bot_factory=random_bot_factory)))
    try:
        with pytest.raises(ClientError, match="runs no matchmaking"):
            queue_for_match(server.target, "grill_party", name="jo")
    finally:
        server.stop()
