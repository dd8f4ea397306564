"""`make loadtest` in small: the local topology (two match replicas, two matchmaking replicas, a bot
worker, Redis) under simulated players who queue and play; it stops by itself and loses no action."""

from __future__ import annotations

import os
import re
import subprocess
import sys


def test_loadtest_runs_the_topology_and_loses_no_action(redis_url: str) -> None:
    env = {**os.environ, "SIZZLE_LOADTEST_REDIS_URL": redis_url}
    run = subprocess.run(
        [sys.executable, "-m", "apps.loadtest", "--players", "8", "--seconds", "15", "--drain", "60",
         "--workers", "1", "--game", "a_la_carte_cards", "--game", "grill_party"],
        env=env, capture_output=True, text=True, timeout=240,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert "lost actions: 0" in out, out
    acked = int(re.search(r"actions acknowledged\s+(\d+)", out).group(1))  # type: ignore[union-attr]
    finished = int(re.search(r"matches finished\s+(\d+)", out).group(1))  # type: ignore[union-attr]
    seated = int(re.search(r"seated (\d+)", out).group(1))  # type: ignore[union-attr]
    assert acked > 0 and finished > 0 and seated > 0, out
    assert "SubmitAction" in out and "CreateTicket" in out, out
