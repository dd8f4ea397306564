"""Runs the grpcurl walk-through of docs/matchmaking.md, command by command, against a real server (the
same translation of grpcurl lines into calls as tests/docs/test_api_guide.py), so the guide cannot
drift from the API."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from services.rules import registry
from tests.docs.test_api_guide import grpcurl, jq
from tests.matchmaking.clients import start_platform
from tests.servers import ServerThread

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "matchmaking.md"


def walkthrough() -> list[str]:
    block = GUIDE.read_text().split("## A queue with grpcurl", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


@pytest.fixture()
def server() -> Iterator[ServerThread]:
    running = start_platform("memory", "", "unused")
    yield running
    running.stop()


def test_matchmaking_guide_walkthrough_runs(server: ServerThread) -> None:
    registry.engines()
    variables: dict[str, str] = {"A": server.target}
    answers: dict[str, list[dict]] = {}  # type: ignore[type-arg]
    with grpc.insecure_channel(server.target) as channel:
        for line in walkthrough():
            if line.startswith("A="):
                continue
            assignment = re.match(r"^(\w+)=\$\((.*) \| jq -r (\S+)\)$", line)
            command, target, path = (assignment.group(2), assignment.group(1), assignment.group(3)) if assignment \
                else (line, None, None)
            for name, value in sorted(variables.items(), key=lambda kv: -len(kv[0])):
                command = command.replace(f"${name}", value)
            args = shlex.split(command)
            assert args[0] == "grpcurl", line
            responses = grpcurl(channel, args[1:])
            assert responses, f"no answer to: {line}"
            answers[line.rsplit("/", 1)[-1]] = responses
            if target:
                variables[target] = jq(responses[-1], path or "")
    watched = answers["WatchTicket"]
    assert watched[0]["ticket"]["status"] == "TICKET_STATUS_WAITING" or len(watched) == 1
    assert watched[-1]["ticket"]["status"] == "TICKET_STATUS_ASSIGNED"
    assert watched[-1]["ticket"]["assignment"]["matchId"] == variables["MATCH"]
    assert answers["CancelTicket"][0]["ticket"]["status"] == "TICKET_STATUS_CANCELLED"
    assert answers["GetMatch"][0]["match"]["matchId"] == variables["MATCH"]
    assert answers["GetRating"][0]["rating"]["playerId"] == "bot-hard"
