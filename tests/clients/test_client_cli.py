"""The `play`, `watch` and `replay` commands (up to the screen), the action menu and the words the
screens use."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from apps.cli import build_parser, main
from apps.platform import Deps, create_server
from clients.cli import bot_pause, default_bots, invite_line, seat_for
from clients.connection import DEFAULT_ADDR, ClientError, new_match
from clients.tui.menu import KEYS, ActionMenu
from clients.tui.table import clock_text, final_table, seat_name, standings, status_line, timer_text
from services.kit.config import Config
from services.rules import registry
from sizzle.common.v1 import common_pb2
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.rules.v1 import rules_service_pb2 as rpb
from tests.servers import ServerThread


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))


def test_the_commands_are_part_of_sizzle() -> None:
    args = parse("play", "hibachi", "--bots", "3", "--difficulty", "hard", "--turn-seconds", "30")
    assert (args.game, args.bots, args.difficulty, args.turn_seconds, args.humans) == ("hibachi", 3, "hard", 30, 1)
    assert parse("watch", "m_1").match_id == "m_1" and parse("replay", "m_2").match_id == "m_2"
    assert parse("play", "--join", "m_3").join == "m_3"
    with pytest.raises(SystemExit):
        parse("play", "hibachi", "--difficulty", "godlike")


def test_default_bots_fill_the_smallest_table() -> None:
    assert default_bots("license_to_grill", 1) == 2
    assert default_bots("grill_party", 1) == 1
    assert default_bots("grill_party", 2) == 0


def test_friends_get_an_invitation_and_join(platform: ServerThread) -> None:
    target = platform.target
    args = parse("play", "grill_party", "--humans", "2", "--bots", "1", "--name", "kim", "--server", target)
    seating = seat_for(args, target)
    assert seating.open_seats == 1 and seating.match.status == mpb.MATCH_STATUS_WAITING
    assert f"sizzle play grill_party --join {seating.match_id} --server {target}" in invite_line(seating)
    with pytest.raises(ClientError, match="plays grill_party, not hibachi"):
        seat_for(parse("play", "hibachi", "--join", seating.match_id, "--server", target), target)
    friend = seat_for(parse("play", "grill_party", "--join", seating.match_id, "--name", "lee"), target)
    assert friend.seat == 1 and friend.match.status == mpb.MATCH_STATUS_RUNNING and friend.open_seats == 0
    with pytest.raises(ClientError, match="SEAT_UNAVAILABLE"):
        seat_for(parse("play", "--join", seating.match_id, "--name", "max"), target)


def test_refusals_are_said_in_words(platform: ServerThread, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "grill_party", "--bots", "9", "--server", platform.target]) == 2
    assert "INVALID_PLAYER_COUNT" in capsys.readouterr().err
    assert main(["play", "no_such_game", "--server", platform.target]) == 2
    assert "UNKNOWN_GAME" in capsys.readouterr().err
    assert main(["watch", "m_missing", "--server", platform.target]) == 2
    assert "UNKNOWN_MATCH" in capsys.readouterr().err
    assert main(["replay", "m_missing", "--server", platform.target]) == 2
    assert main(["play", "grill_party", "--server", "127.0.0.1:1"]) == 2
    assert "cannot reach the server" in capsys.readouterr().err
    with pytest.raises(ClientError, match="at least your own seat"):
        new_match(platform.target, "grill_party", name="x", bots=1, humans=0)


def actions(*descriptions: str) -> list[rpb.LegalAction]:
    return [rpb.LegalAction(action_id=i, description=d) for i, d in enumerate(descriptions)]


def key_id(menu: ActionMenu, key: str) -> int:
    action = menu.pick(key)
    assert action is not None
    return action.action_id


def test_menu_keys_pages_and_filter() -> None:
    menu = ActionMenu()
    menu.offer(actions(*[f"throw chip {i} at {'Rice' if i % 10 == 0 else 'Egg'}" for i in range(80)]))
    assert menu.pages == 3 and len(menu.shown()) == len(KEYS) == 35
    assert key_id(menu, "1") == 0 and key_id(menu, "z") == 34
    menu.turn_page(1)
    assert key_id(menu, "1") == 35
    menu.turn_page(2)
    assert menu.page == 0  # wraps around
    menu.turn_page(-1)
    assert menu.page == 2 and len(menu.shown()) == 10 and menu.pick("b") is None
    menu.set_filter("RICE chip")
    assert menu.page == 0 and [a.action_id for a in menu.matching] == [0, 10, 20, 30, 40, 50, 60, 70]
    assert key_id(menu, "2") == 10 and menu.pages == 1
    menu.set_filter("rice")
    menu.offer(actions("take Rice", "pass"))
    assert [a.description for a in menu.matching] == ["take Rice"]  # the filter stays for the next turn
    menu.offer(actions("pass", "stop"))
    assert menu.words == "" and len(menu.matching) == 2  # ... unless nothing matches it any more
    menu.clear()
    assert menu.shown() == [] and menu.pages == 1


def match_of(**fields: object) -> mpb.Match:
    match = mpb.Match(match_id="m_x", game_id="grill_party", **fields)  # type: ignore[arg-type]
    match.seats.add(seat=0, kind=mpb.SEAT_KIND_HUMAN, player_id="p_a", display_name="ann")
    match.seats.add(seat=1, kind=mpb.SEAT_KIND_BOT, display_name="easy bot", difficulty=mpb.DIFFICULTY_EASY)
    match.seats.add(seat=2, kind=mpb.SEAT_KIND_HUMAN)
    return match


def test_words_of_the_table() -> None:
    waiting = match_of(status=mpb.MATCH_STATUS_WAITING)
    assert status_line(waiting, 0) == "waiting for 1 more player to join"
    assert seat_name(waiting, 2) == "seat 2 (open)" and seat_name(waiting, -1) == "the game"
    running = match_of(status=mpb.MATCH_STATUS_RUNNING, seat_to_move=0, turn_seconds=30,
                       turn_deadline_unix_ms=100_000, clock_deadline_unix_ms=400_000)
    assert status_line(running, 0) == "your turn: choose an action"
    assert status_line(running, 1) == "ann (seat 0) is playing"
    assert timer_text(running, 0, 75_500) == "your turn: 0:25 left  |  game clock: 5:25 left"
    assert timer_text(running, 1, 75_500).startswith("ann (seat 0)'s turn: 0:25 left")
    assert clock_text(0) == "0:00" and clock_text(61.2) == "1:02"
    running.seat_to_move = 1  # a bot's turn has no timer on screen
    assert timer_text(running, 0, 75_500) == "game clock: 5:25 left"
    done = match_of(status=mpb.MATCH_STATUS_FINISHED, outcome=common_pb2.Outcome(reason="all cards played", results=[
        common_pb2.SeatResult(seat=0, score=3, rank=2), common_pb2.SeatResult(seat=1, score=7, rank=1, winner=True),
        common_pb2.SeatResult(seat=2, score=1, rank=3)]))
    table = final_table(done, viewer=0).splitlines()
    assert table[1].split()[:4] == ["1", "1", "easy", "bot"] and table[1].endswith("winner")
    assert "ann (you)" in table[2] and table[-1] == "(all cards played)"
    assert status_line(done, 0) == "game over: easy bot (seat 1) wins"


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_every_game_has_standings(game_id: str) -> None:
    engine = registry.get_engine(game_id)
    state = engine.new_game(engine.spec.min_players, {}, 1)
    labels, values = standings(game_id, engine.view(state, 0))
    assert labels and len(values) == engine.spec.min_players
    assert all(len(row) == len(labels) and "?" not in row for row in values.values())


def test_the_invitation_names_every_server_but_the_built_in_default(platform: ServerThread,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIZZLE_ADDR", platform.target)  # the friend's terminal may not have it
    seating = seat_for(parse("play", "grill_party", "--humans", "2", "--name", "kim"), platform.target)
    assert invite_line(seating).endswith(f"--join {seating.match_id} --server {platform.target}")
    default = dataclasses.replace(seating, target=DEFAULT_ADDR)
    assert "--server" not in invite_line(default) and "--ca x.pem" in invite_line(default, " --ca x.pem")


def test_the_bot_pause_comes_from_the_flag_or_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SIZZLE_BOT_PAUSE_MS", raising=False)
    assert bot_pause(parse("play", "hibachi")) == 0.7
    assert bot_pause(parse("watch", "m_1", "--bot-pause", "250")) == 0.25
    monkeypatch.setenv("SIZZLE_BOT_PAUSE_MS", "0")
    assert bot_pause(parse("lobby")) == 0 and bot_pause(parse("play", "hibachi", "--bot-pause", "100")) == 0.1
    assert parse("lobby", "--game", "hibachi", "--server", "h:1").game == "hibachi"


def test_games_with_a_server_asks_the_server(platform: ServerThread, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--server", platform.target]) == 0
    listed = capsys.readouterr().out
    assert listed.startswith(f"games played at {platform.target}:")
    for game_id in registry.game_ids():
        assert f"\n{game_id} " in listed
    assert main(["games"]) == 0
    local = capsys.readouterr().out
    assert local.splitlines()[0] == listed.splitlines()[1]  # the same columns either way
    assert main(["games", "--server", "127.0.0.1:1"]) == 2
    assert "cannot reach the server at 127.0.0.1:1" in capsys.readouterr().err


def test_games_of_a_server_that_keeps_its_rules_internal(capsys: pytest.CaptureFixture[str]) -> None:
    server = ServerThread(lambda: create_server(Config(addr="127.0.0.1:0"), Deps(services=("match",))))
    try:
        assert main(["games", "--server", server.target]) == 2
        assert "does not list its games" in capsys.readouterr().err
    finally:
        server.stop()
