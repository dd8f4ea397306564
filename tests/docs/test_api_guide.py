"""Runs the grpcurl walk-through of docs/api.md as a reader would, every line exactly as printed, with
the real grpcurl binary and jq against a real server (tests/docs/grpcurl_walkthrough.py), so the guide
cannot drift from the API nor from what grpcurl prints."""

from __future__ import annotations

from tests.docs import grpcurl_walkthrough
from tests.servers import ServerThread


def test_api_guide_walkthrough_runs_with_the_real_grpcurl(platform: ServerThread) -> None:
    assert grpcurl_walkthrough.grpcurl_version().startswith("grpcurl ")
    lines = grpcurl_walkthrough.commands("api.md", "## A whole game with grpcurl")
    steps, variables = grpcurl_walkthrough.run(lines, platform.target)

    assert len(steps) >= 15
    assert variables["MATCH"].startswith("m_") and variables["VERSION"].isdigit() and variables["ACTION"].isdigit()
    assert variables["SEAT_A"] != variables["SEAT_B"]
    printed = [step for step in steps if not step.variable]
    seat_view, first_submit, repeated_submit, spectator, running, watched, left, replay = \
        (step.answers() for step in printed)
    assert seat_view[0]["match"]["matchId"] == variables["MATCH"] and seat_view[0]["legalActions"]
    # The same request id answers the same and applies nothing twice.
    assert first_submit == repeated_submit
    assert first_submit[0]["match"]["version"] == str(int(variables["VERSION"]) + 1)
    assert "legalActions" not in spectator[0] and spectator[0]["match"]["matchId"] == variables["MATCH"]
    assert variables["MATCH"] in [match["matchId"] for match in running[0]["matches"]]
    assert watched and watched[0]["match"]["matchId"] == variables["MATCH"] and watched[0]["events"]
    assert left[0]["match"]["seats"][1]["takenOver"]
    assert replay[0]["steps"] and replay[0]["match"]["matchId"] == variables["MATCH"]
