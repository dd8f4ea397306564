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


def test_the_error_tables_name_every_reason_the_server_sends() -> None:
    """A black-box audit: FIXED_SEED, QUOTA_EXCEEDED, USERNAME_TAKEN, INVALID_CREDENTIALS,
    ALREADY_REGISTERED, RULES_VERSION and INTERNAL were in neither table a client is told to branch
    on, and both said RESOURCE_EXHAUSTED was only a message over the size limit."""
    import re
    from pathlib import Path

    from services.kit.errors import GameError
    from sizzle.common.v1 import common_pb2

    docs = Path(__file__).resolve().parents[2] / "docs"
    api = docs.joinpath("api.md").read_text().split("## Errors", 1)[1].split("\n## ", 1)[0]
    clients = docs.joinpath("clients.md").read_text().split("## 6. Errors", 1)[1].split("\n## ", 1)[0]
    rows = {line.split("|")[1]: line for line in api.splitlines() if line.startswith("| `")}
    for value in common_pb2.ErrorReason.values():
        if value == common_pb2.ERROR_REASON_UNSPECIFIED:
            continue
        reason = common_pb2.ErrorReason.Name(value).removeprefix("ERROR_REASON_")
        row = next((line for names, line in rows.items() if re.search(rf"`{reason}`", names)), None)
        assert row is not None, f"docs/api.md's error table lacks {reason}"
        code = GameError(value, "").code.name
        assert code in row, f"docs/api.md gives {reason} another code than {code}"
        assert f"`{reason}`" in clients, f"docs/clients.md's error table lacks {reason}"
