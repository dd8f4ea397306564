"""Runs the grpcurl walk-through of docs/matchmaking.md as a reader would, every line exactly as
printed, with the real grpcurl binary and jq against a real server (the runner of
tests/docs/grpcurl_walkthrough.py, as for docs/api.md), so the guide cannot drift from the API."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.matchmaking.ratings import MODEL, bot_start
from sizzle.match.v1 import match_service_pb2 as mpb
from tests.docs import grpcurl_walkthrough
from tests.matchmaking.clients import start_platform
from tests.servers import ServerThread


@pytest.fixture()
def server() -> Iterator[ServerThread]:
    running = start_platform("memory", "", "unused")
    yield running
    running.stop()


def test_matchmaking_guide_walkthrough_runs_with_the_real_grpcurl(server: ServerThread) -> None:
    lines = grpcurl_walkthrough.commands("matchmaking.md", "## A queue with grpcurl")
    steps, variables = grpcurl_walkthrough.run(lines, server.target)
    answers = {step.method: step.answers() for step in steps if not step.variable}
    watched = answers["WatchTicket"]
    assert watched[0]["ticket"]["status"] == "TICKET_STATUS_WAITING" or len(watched) == 1
    assert watched[-1]["ticket"]["status"] == "TICKET_STATUS_ASSIGNED"
    assert watched[-1]["ticket"]["assignment"]["matchId"] == variables["MATCH"]
    assert answers["CancelTicket"][0]["ticket"]["status"] == "TICKET_STATUS_CANCELLED"
    assert answers["GetMatch"][0]["match"]["matchId"] == variables["MATCH"]
    hard = answers["GetRating"][-1]["rating"]
    assert hard["playerId"] == "bot-hard"
    # An unrated bot starts where the ladder measured its difficulty (services/matchmaking/bot_ratings.json).
    assert hard["mu"] == pytest.approx(bot_start("hibachi", mpb.DIFFICULTY_HARD).mu)
    assert hard["mu"] > MODEL.mu
