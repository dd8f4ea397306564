"""The embedded default (`make run`: no Redis, no database server) keeps its records in an SQLite file
under SIZZLE_DATA_DIR, created and migrated at start: an account, a finished match (its replay and
history) and a rating survive a restart of the whole platform."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import grpc

from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb
from tests.kit.test_graceful_shutdown import free_port
from tests.match.players import Player, play_out
from tests.matchmaking.clients import Client
from tests.records.platforms import history, login, register
from tests.waiting import eventually

GAME = "a_la_carte_cards"


class Platform:
    """`sizzle serve` as `make run` starts it, in `folder`, with only its address set."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("SIZZLE_")}
        env.update(SIZZLE_ADDR=f"127.0.0.1:{self.port}", SIZZLE_GRACE_SECONDS="0.5")
        self.proc = subprocess.Popen([sys.executable, "-m", "apps.cli", "serve"], cwd=folder, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.channel = grpc.insecure_channel(f"127.0.0.1:{self.port}")
        grpc.channel_ready_future(self.channel).result(timeout=60)

    def stop(self) -> str:
        self.channel.close()
        self.proc.send_signal(signal.SIGTERM)
        out, _ = self.proc.communicate(timeout=30)
        assert self.proc.returncode == 0, out
        return out


def test_records_of_the_embedded_default_survive_a_restart(tmp_path: Path) -> None:
    first = Platform(tmp_path)
    try:
        made = register(first.channel, "jane", "a long password")
        client = Client(first.channel, "jane", made.player_id, made.token)
        ticket = client.final(client.ticket(GAME, bots=True, wait=1).ticket_id)
        assert ticket.assignment.bot_seats == 1
        player = Player(first.channel, "jane", made.token, seat_token=ticket.assignment.seat_token,
                        seat=ticket.assignment.seat, match_id=ticket.assignment.match_id)
        finished = play_out([player])
        eventually(lambda: history(first.channel, made.token).entries, timeout=20)
        rated = eventually(lambda: (r := client.rating(GAME)).matches_played and r, timeout=20)
    finally:
        printed = first.stop()
    assert (tmp_path / "data" / "records.sqlite3").is_file()
    assert "records.sqlite3" in printed  # the start-up lines say where the records are

    second = Platform(tmp_path)  # a new process: the in-process live store starts empty
    try:
        again = login(second.channel, "JANE", "a long password")
        assert again.player_id == made.player_id
        entries = history(second.channel, again.token).entries
        assert [e.match.match_id for e in entries] == [finished.match_id]
        replay = Player(second.channel, "jane", again.token).stub.GetReplay(
            mpb.GetReplayRequest(match_id=finished.match_id), timeout=5)
        assert replay.complete and replay.match.outcome == finished.outcome
        client = Client(second.channel, "jane", again.player_id, again.token)
        assert client.rating(GAME).mu == rated.mu
        board = eventually(lambda: (b := client.mm.ListLeaderboard(mmpb.ListLeaderboardRequest(game_id=GAME),
                                                                   timeout=5)).total and b, timeout=20)
        assert [e.player_id for e in board.entries] == [made.player_id]
    finally:
        second.stop()
