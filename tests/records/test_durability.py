"""What a player builds up outlives Redis: a match is played to the end through matchmaking, the
platform's Redis keys are flushed, and its replay, its players' history and their ratings (with their
history) are still read from the records; the leaderboard is rebuilt from them, by `sizzle ratings
rebuild` and by the rating keeper on its own once it finds the cache gone."""

from __future__ import annotations

import os
import subprocess
import sys

import grpc
import redis

from services.rules import registry
from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.matchmaking.v1 import matchmaking_service_pb2 as mmpb
from tests.match.players import Player, play_out
from tests.matchmaking.clients import FAST, Client
from tests.records.databases import RecordsDatabase
from tests.records.platforms import KEY, history, records_platform, register
from tests.waiting import eventually

GAME = "a_la_carte_cards"


def flush(redis_url: str, prefix: str) -> int:
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
    if keys:
        client.delete(*keys)
    return len(keys)


def leaderboard(client: Client) -> mmpb.ListLeaderboardResponse:
    return client.mm.ListLeaderboard(mmpb.ListLeaderboardRequest(game_id=GAME), timeout=5)


def rating(client: Client, player_id: str = "") -> mmpb.GetRatingResponse:
    return client.mm.GetRating(mmpb.GetRatingRequest(game_id=GAME, player_id=player_id), timeout=5)


def test_a_finished_match_its_history_and_ratings_outlive_redis(postgres_db: RecordsDatabase, redis_url: str,
                                                                redis_prefix: str) -> None:
    postgres_db.migrate()
    server = records_platform(postgres_db, (redis_url, redis_prefix), **FAST)
    channel = grpc.insecure_channel(server.target)
    try:
        made = [register(channel, name, "a long password") for name in ("alice", "bob")]
        alice, bob = (Client(channel, m.username, m.player_id, m.token) for m in made)
        tickets = [alice.ticket(GAME), bob.ticket(GAME)]
        assigned = [client.final(t.ticket_id) for client, t in zip((alice, bob), tickets, strict=True)]
        match_id = assigned[0].assignment.match_id
        assert assigned[1].assignment.match_id == match_id
        players = [Player(channel, c.name, c.token, seat_token=t.assignment.seat_token, seat=t.assignment.seat,
                          match_id=match_id) for c, t in zip((alice, bob), assigned, strict=True)]
        finished = play_out(players)
        live_replay = alice.matches.GetReplay(mpb.GetReplayRequest(match_id=match_id), timeout=5)
        # The records writer and the rating keeper work in the background: wait for both.
        eventually(lambda: history(channel, player_id=alice.player_id).entries, timeout=20)
        eventually(lambda: all(rating(c, c.player_id).rating.matches_played == 1 for c in (alice, bob)), timeout=20)
        before = {c.player_id: rating(c, c.player_id) for c in (alice, bob)}
        board_before = leaderboard(alice)
        assert board_before.total == 2

        assert flush(redis_url, redis_prefix) > 0  # Redis loses everything of this platform

        replay = alice.matches.GetReplay(mpb.GetReplayRequest(match_id=match_id), timeout=5)
        assert replay == live_replay and replay.complete and replay.match.outcome == finished.outcome
        engine = registry.get_engine(GAME)
        state = engine.new_game(replay.num_players, dict(replay.match.options), replay.seed, keyed=replay.keyed_draws)
        for step in replay.steps:  # the recorded log plays the same game again
            if step.action.type_url:
                action = engine.Action()
                step.action.Unpack(action)
                engine.apply(state, step.seat, action)
        assert engine.outcome(state) == finished.outcome
        for client in (alice, bob):
            entries = history(channel, client.token, game_id=GAME).entries
            assert [(e.match.match_id, e.match.status) for e in entries] == [(match_id, mpb.MATCH_STATUS_FINISHED)]
            assert entries[0].match.seats[entries[0].seat].player_id == client.player_id
            now = rating(client, client.player_id)
            assert now.rating.mu == before[client.player_id].rating.mu and now.rating.matches_played == 1
            assert [(c.match_id, c.matches_played) for c in now.history] == [(match_id, 1)]
            assert now.history[0].mu == now.rating.mu
        # The leaderboard's cache went with Redis: the rating keeper finds it gone and rebuilds it.
        again = eventually(lambda: (b := leaderboard(alice)).total == 2 and b, timeout=30)
        assert [(e.player_id, e.ordinal, e.rank) for e in again.entries] == [
            (e.player_id, e.ordinal, e.rank) for e in board_before.entries]

        flush(redis_url, redis_prefix)  # lost again: an operator rebuilds it at once
        rebuilt = subprocess.run(
            [sys.executable, "-m", "apps.cli", "ratings", "rebuild"], capture_output=True, text=True, timeout=60,
            env={**os.environ, **postgres_db.env(), "SIZZLE_REDIS_URL": redis_url, "SIZZLE_REDIS_PREFIX": redis_prefix,
                 "SIZZLE_TOKEN_KEY": KEY})
        assert rebuilt.returncode == 0 and "2 ratings" in rebuilt.stdout, rebuilt.stderr
        board = leaderboard(alice)
        assert [(e.player_id, e.ordinal) for e in board.entries] == [
            (e.player_id, e.ordinal) for e in board_before.entries]
    finally:
        channel.close()
        server.stop()
