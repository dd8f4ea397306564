"""The Python client package a third party installs (`make client-package`, docs/clients.md): its wheel,
built from this checkout, installs into a fresh virtual environment with the dependencies it declares,
and a client there creates a guest, lists the games and plays a whole game against a real server,
importing nothing from the checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from tests.servers import ServerThread

ROOT = Path(__file__).resolve().parents[2]

CLIENT = """
import sys
import sizzle, sizzle_client
from sizzle.auth.v1 import auth_service_pb2, auth_service_pb2_grpc
from sizzle.rules.v1 import rules_service_pb2, rules_service_pb2_grpc
from sizzle_client import open_channel

assert sizzle.__file__.startswith(sys.prefix) and sizzle_client.__file__.startswith(sys.prefix), sizzle.__file__
with open_channel(sys.argv[1]) as channel:
    guest = auth_service_pb2_grpc.AuthServiceStub(channel).CreateGuest(
        auth_service_pb2.CreateGuestRequest(display_name="ada"), timeout=5)
    games = rules_service_pb2_grpc.RulesServiceStub(channel).ListGames(rules_service_pb2.ListGamesRequest(), timeout=5)
print(guest.player_id, " ".join(game.game_id for game in games.games))
"""


def run(*args: str | Path, cwd: Path, timeout: float = 300) -> str:
    done = subprocess.run([str(arg) for arg in args], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{args}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_client_wheel_installs_alone_and_plays(platform: ServerThread, tmp_path: Path) -> None:
    run(sys.executable, ROOT / "scripts" / "build_client_package.py", "--out", tmp_path / "dist", cwd=ROOT)
    wheel = next((tmp_path / "dist").glob("sizzle_client-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"sizzle/match/v1/match_service_pb2_grpc.py", "sizzle/games/hibachi/v1/hibachi_pb2.py",
            "sizzle_client/minimal_client.py"} <= names
    assert "sizzle/match/v1/match_store_pb2.py" not in names  # the store's records stay on the server
    assert not any(name.startswith(("services/", "workers/", "clients/")) for name in names)

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel, cwd=tmp_path)
    (tmp_path / "client.py").write_text(CLIENT)
    player_id, games = run(venv / "bin" / "python", "client.py", platform.target, cwd=tmp_path).split(maxsplit=1)
    assert player_id.startswith("p_") and "grill_party" in games.split()

    table = run(venv / "bin" / "sizzle-minimal-client", "--server", platform.target, "--game", "grill_party",
                "--bots", "1", "--seed", "3", cwd=tmp_path, timeout=120)
    assert "final table:" in table and "winner" in table
