"""The cluster's load test in small: locust runs deploy/load/locustfile.py (the shared scenario,
apps/loadtest/scenario.py) headless for a few seconds against the platform on 127.0.0.1, and
stops by itself."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from tests.servers import ServerThread

ROOT = Path(__file__).resolve().parents[2]
RUN_SECONDS = 5


def test_the_locust_user_plays_the_shared_scenario_and_stops_by_itself(platform: ServerThread) -> None:
    assert platform.target.startswith("127.0.0.1:")
    env = {name: value for name, value in os.environ.items()
           if name != "SIZZLE_MATCH_ADDR" and not name.startswith("SIZZLE_LOAD_")}
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "locust", "-f", "deploy/load/locustfile.py", "--headless", "--users", "4",
         "--spawn-rate", "4", "--run-time", f"{RUN_SECONDS}s", "--stop-timeout", "5", "--host", platform.target,
         "--only-summary"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert time.monotonic() - started < RUN_SECONDS + 30, out  # its --run-time, then a short stop
    # Players of the shared scenario: a guest each, games found by hand and through matchmaking, watched
    # over WatchMatch (never polled with GetMatch) and played with SubmitAction.
    called = set(re.findall(r"^grpc\s+(\w+)\s", out, re.MULTILINE))
    assert {"CreateGuest", "CreateTicket", "CreateMatch", "WatchMatch", "SubmitAction", "LeaveMatch"} <= called, out
    assert "GetMatch" not in called, out
