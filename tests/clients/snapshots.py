"""Text snapshots of the terminal client's screens, kept as golden files under
`tests/clients/snapshots/`: every screen of every game (a seat's turn, a spectator, the final table,
the replay) and the screens of no game in particular (waiting for a friend, a lost connection, the
lobby with its live matches and a player's past ones), each at 80x24 (the common default terminal)
and 160x50. Each golden is the screen as plain text, exactly as Textual's pilot draws it at that size.

The matches are real: a platform server on loopback whose bots, like the person, choose by a seed
and the move number, so the same screens come back at every run. Match ids and the server's port
change from run to run and are replaced by fixed ones.

`test_client_snapshots.py` compares today's screens with the goldens. When a screen changes on
purpose (the client's layout, or a game's rules or rendering), regenerate them and review the diff:

    make snapshots [GAME=hibachi]        # or: .venv/bin/python -m tests.clients.snapshots [--game G]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from rich.console import Console
from textual.app import App

from apps.platform import Deps, create_server
from clients.cli import invite_line, server_flag
from clients.connection import new_match
from clients.tui.lobby_app import LobbyApp
from clients.tui.match_app import MatchApp
from clients.tui.replay_app import ReplayApp
from services.kit.config import Config
from services.rules import registry
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_service_pb2_grpc
from tests.clients.driving import Proxy, text_of, wait_for
from tests.match.players import auth
from tests.records.databases import sqlite_database
from tests.servers import ServerThread

GOLDEN_DIR = Path(__file__).resolve().parent / "snapshots"
SIZES = ((80, 24), (160, 50))
GAME_SCREENS = ("turn", "watch", "over", "replay")
OTHER_SCREENS = ("waiting", "lost", "lobby", "history")
TURN_AT = 8  # the person's turn shown: the first at or after this many moves
REPLAY_STEPS = 2  # pages (of ten steps) into the replay
SEED = 7
MASKED_MATCH = "m_{:016d}"


class SeededBot:
    """Chooses by the seed of the match and the move number: the same game at every run."""

    def step(self, view: Any, legal_actions: list[int]) -> int:
        return random.Random(f"bot:{view.core.move_number}").choice(list(legal_actions))


def seeded_bot_factory(game_id: str, difficulty: str, rng: random.Random) -> SeededBot:
    return SeededBot()


def start_server(records_folder: Path | None = None) -> ServerThread:
    """The platform with seeded bots; with durable records (match history) in an SQLite file in `records_folder`."""
    records = None
    if records_folder is not None:
        database = sqlite_database(records_folder)
        database.migrate()
        records = database.store()
    config = Config(addr="127.0.0.1:0", records_interval_ms=50)
    return ServerThread(lambda: create_server(config, Deps(bot_factory=seeded_bot_factory, records=records)))


def screen_text(app: App[Any]) -> str:
    """The screen as plain text, as the terminal shows it (trailing blanks trimmed)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True, color_system=None,
                      record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"


@dataclass
class Masks:
    """What changes from run to run (match ids, the server's port), replaced by fixed text of the same length."""

    pairs: dict[str, str] = field(default_factory=dict)

    def match(self, match_id: str) -> None:
        self.pairs.setdefault(match_id, MASKED_MATCH.format(len(self.pairs) + 1)[:len(match_id)])

    def target(self, target: str) -> None:
        host, port = target.rsplit(":", 1)
        self.pairs[target] = f"{host}:{'5' * len(port)}"

    def apply(self, text: str) -> str:
        for real, fixed in self.pairs.items():
            text = text.replace(real, fixed)
        return text


def players_for(game_id: str) -> int:
    spec = registry.get_engine(game_id).spec
    return max(spec.min_players, min(3, spec.max_players))


class Seat:
    """The person's seat, played through the API by seed and move number."""

    def __init__(self, target: str, game_id: str) -> None:
        self.target = target
        self.seating = new_match(target, game_id, name="alice", bots=players_for(game_id) - 1, seed=SEED)

    @property
    def match_id(self) -> str:
        return self.seating.match_id

    def play(self, until: Callable[[mpb.WatchMatchResponse], bool]) -> mpb.WatchMatchResponse:
        """Plays alice's turns until `until(update)` holds at one of her turns, or the match ends."""
        with grpc.insecure_channel(self.target) as channel:
            stub = match_service_pb2_grpc.MatchServiceStub(channel)
            token = auth(self.seating.seat_token)
            watch = stub.WatchMatch(mpb.WatchMatchRequest(match_id=self.match_id, from_version=-1), metadata=token,
                                    timeout=120)
            try:
                for update in watch:
                    if update.match.status == mpb.MATCH_STATUS_FINISHED or (update.legal_actions and until(update)):
                        return update
                    if update.legal_actions:
                        version = update.match.version
                        choice = random.Random(f"alice:{version}").choice(list(update.legal_actions))
                        request = mpb.SubmitActionRequest(match_id=self.match_id, action_id=choice.action_id,
                                                          expected_version=version, request_id=uuid.uuid4().hex)
                        stub.SubmitAction(request, metadata=token, timeout=5)
            finally:
                watch.cancel()
        raise AssertionError("the watch ended before the match")


async def capture(app: App[Any], size: tuple[int, int], ready: Callable[[], bool], what: str,
                  keys: tuple[str, ...] = ()) -> str:
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: ready() or not app.is_running, what=what)
        for key in keys:
            await pilot.press(key)
        return await settled_text(app, pilot)


async def settled_text(app: App[Any], pilot: Any, timeout: float = 15.0) -> str:
    """The screen once it has settled: its key line drawn (every screen ends with one; under load
    the footer was once caught before it was composed) and the same text over two pauses."""
    deadline = time.monotonic() + timeout
    previous = ""
    while True:
        await pilot.pause()
        await pilot.pause()
        if not app.is_running:  # it failed: run_test raises its error on the way out
            return ""
        text = screen_text(app)
        if (text == previous and text.rstrip("\n").rsplit("\n", 1)[-1].strip()) or time.monotonic() > deadline:
            return text
        previous = text
        await pilot.pause(0.05)


def game_screens(target: str, game_id: str) -> dict[str, str]:
    """Every screen of one game at every size: name -> text (unmasked)."""
    seat = Seat(target, game_id)
    seat.play(until=lambda update: update.match.version >= TURN_AT)
    shots: dict[str, str] = {}
    for size in SIZES:
        app = MatchApp(target, seat.match_id, token=seat.seating.seat_token, seat=seat.seating.seat)
        shots[name("turn", size)] = asyncio.run(capture(app, size, lambda a=app: a.can_act and a.idle, "her turn"))
        app = MatchApp(target, seat.match_id)
        shots[name("watch", size)] = asyncio.run(capture(app, size, lambda a=app: a.match is not None and a.idle,
                                                         "the spectator's first update"))
    seat.play(until=lambda update: False)
    for size in SIZES:
        app = MatchApp(target, seat.match_id, token=seat.seating.seat_token, seat=seat.seating.seat)
        shots[name("over", size)] = asyncio.run(capture(app, size, lambda a=app: a.finished and a.idle, "the end"))
        replay = ReplayApp(target, seat.match_id)
        shots[name("replay", size)] = asyncio.run(capture(replay, size, lambda r=replay: r.loaded, "the replay",
                                                          keys=("pagedown",) * REPLAY_STEPS))
    return {key: mask_for(target, [seat.match_id]).apply(text) for key, text in shots.items()}


def mask_for(target: str, match_ids: list[str]) -> Masks:
    masks = Masks()
    for match_id in match_ids:
        masks.match(match_id)
    masks.target(target)
    return masks


def other_screens() -> dict[str, str]:
    """The waiting table, the lost connection and the lobby (its live matches, and a player's past
    ones), at every size (masked), on a server of their own: the lobby lists every match it has."""
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder))
        try:
            return _other_screens(server.target)
        finally:
            server.stop()


def _other_screens(target: str) -> dict[str, str]:
    shots: dict[str, str] = {}
    past = Seat(target, "a_la_carte_cards")
    past.play(until=lambda update: False)  # alice's finished match: her history
    waiting = new_match(target, "grill_party", name="kim", bots=1, humans=2, seed=SEED)
    time.sleep(0.02)  # the lobby lists newest first: distinct creation times
    playing = Seat(target, "hibachi")
    playing.play(until=lambda update: True)  # alice thinks: the match stays at her turn
    ids = [past.match_id, waiting.match_id, playing.match_id]
    with grpc.insecure_channel(target) as channel:
        stub = match_service_pb2_grpc.MatchServiceStub(channel)
        matches = [stub.GetMatch(mpb.GetMatchRequest(match_id=i), timeout=5).match for i in ids]
        player_id = matches[0].seats[past.seating.seat].player_id
        request = mpb.ListMatchHistoryRequest(player_id=player_id)
        deadline = time.monotonic() + 30
        while not (entries := stub.ListMatchHistory(request, timeout=5).entries):  # written in the background
            assert time.monotonic() < deadline, "the finished match never reached the records"
            time.sleep(0.05)
    # Hours later, so that every age reads the same at every run.
    now = max(*(m.created_unix_ms for m in matches), entries[0].finished_unix_ms) + 3 * 3600_000 + 1800_000
    for size in SIZES:
        app = MatchApp(target, waiting.match_id, token=waiting.seat_token, seat=waiting.seat,
                       invite=invite_line(waiting))
        shots[name("waiting", size)] = asyncio.run(capture(app, size, lambda a=app: a.match is not None and a.idle,
                                                           "the waiting table"))
        with cut_connection(target) as (proxy, cut):
            app = MatchApp(proxy.target, playing.match_id, token=playing.seating.seat_token,
                           seat=playing.seating.seat)
            shots[name("lost", size)] = asyncio.run(capture_lost(app, size, cut))
        for screen, keys in (("lobby", ()), ("history", ("tab",))):
            lobby = LobbyApp(target, clock=lambda: now, refresh_seconds=0, target_flags=server_flag(target),
                             player_id=player_id)
            shots[name(screen, size)] = asyncio.run(capture(lobby, size, lambda a=lobby: a.loaded and bool(a.history),
                                                            "the lobby", keys=keys))
    masks = mask_for(target, ids)
    masks.pairs[player_id] = "p_" + "0" * (len(player_id) - 2)
    return {key: masks.apply(text) for key, text in shots.items()}


@contextmanager
def cut_connection(target: str) -> Iterator[tuple[Proxy, Callable[[], None]]]:
    proxy = Proxy(target)
    try:
        yield proxy, lambda: proxy.cut(refuse_seconds=60)
    finally:
        proxy.close()


async def capture_lost(app: MatchApp, size: tuple[int, int], cut: Callable[[], None]) -> str:
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: app.can_act and app.idle, what="her turn")
        cut()
        await wait_for(pilot, lambda: "connection lost" in text_of(app, "#connection"), what="the lost connection")
        return await settled_text(app, pilot)


def name(screen: str, size: tuple[int, int]) -> str:
    return f"{screen}-{size[0]}x{size[1]}"


def golden_path(folder: str, shot: str) -> Path:
    return GOLDEN_DIR / folder / f"{shot}.txt"


def write(folder: str, shots: dict[str, str]) -> None:
    for shot, text in shots.items():
        path = golden_path(folder, shot)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        print(f"wrote {path.relative_to(GOLDEN_DIR.parent.parent.parent)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate the terminal client's golden screens")
    parser.add_argument("--game", help="only this game's screens (default: every game and the other screens)")
    args = parser.parse_args(argv)
    server = start_server()
    try:
        for game_id in [args.game] if args.game else registry.game_ids():
            write(game_id, game_screens(server.target, game_id))
        if not args.game:
            write("screens", other_screens())
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
