"""`scripts/deploy_check.sh` (what `make deploy-check` runs) passes on the shipped deployment files.

It installs the tools it lacks (kubectl, promtool, kubernetes-validate), so this test never skips.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_deploy_check_passes() -> None:
    result = subprocess.run(
        ["bash", "scripts/deploy_check.sh"], cwd=ROOT, capture_output=True, text=True, timeout=1800, check=False
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    assert "deploy-check: all" in result.stdout
    for step in ("overlays/prod", "overlays/dev", "jobs/loadtest", "promtool test rules", "Dockerfile", "hadolint",
                 "image build"):
        assert step in result.stdout, f"deploy-check did not run {step!r}:\n{result.stdout[-3000:]}"
