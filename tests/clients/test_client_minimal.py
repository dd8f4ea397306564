"""The minimal client of docs/clients.md plays a whole game against a real server, and uses nothing
but grpc and generated stubs."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from clients import minimal_client
from tests.servers import ServerThread

SOURCE = Path(minimal_client.__file__)
GUIDE = SOURCE.parents[1] / "docs" / "clients.md"


def test_the_guide_shows_the_tested_client_in_full() -> None:
    listing = GUIDE.read_text().split("```python\n", 1)[1].split("\n```", 1)[0]
    assert listing + "\n" == SOURCE.read_text()


def test_minimal_client_imports_only_grpc_and_generated_stubs() -> None:
    tree = ast.parse(SOURCE.read_text())
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module.split(".")[0])
    assert modules <= {"__future__", "argparse", "random", "sys", "time", "uuid", "grpc", "google", "sizzle"}, modules


@pytest.mark.parametrize("game_id, bots", [("grill_party", 1), ("hibachi", 2)])
def test_minimal_client_plays_to_the_final_table(platform: ServerThread, game_id: str, bots: int) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "clients.minimal_client", "--server", platform.target, "--game", game_id,
         "--bots", str(bots), "--seed", "5"],
        capture_output=True, text=True, timeout=180, cwd=SOURCE.parent.parent,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "final table:" in out and "winner" in out and "minimal client" in out
    assert out.count("  -> ") > 3, "it played actions itself"


def test_minimal_client_reports_a_refusal(platform: ServerThread, capsys: pytest.CaptureFixture[str]) -> None:
    assert minimal_client.main(["--server", platform.target, "--game", "no_such_game"]) == 1
    assert "UNKNOWN_GAME" in capsys.readouterr().err
