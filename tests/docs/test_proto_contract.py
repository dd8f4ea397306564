"""The contract only grows: `buf breaking` holds protos/ to the newest release image in protos/releases/
(scripts/buf_breaking.sh, also run by make lint), with buf.yaml's FILE rules, under which a field added
passes and a field renamed fails."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUF = ROOT / "scripts" / "buf.sh"
MATCH_SERVICE = Path("protos/sizzle/match/v1/match_service.proto")


def buf(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BUF), *map(str, args)], capture_output=True, text=True, timeout=300)


def test_the_protos_keep_the_last_releases_contract() -> None:
    assert sorted((ROOT / "protos" / "releases").glob("v*.binpb")), "no release image in protos/releases/"
    done = subprocess.run([str(ROOT / "scripts" / "buf_breaking.sh")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"a breaking change against the last release:\n{done.stdout}{done.stderr}"


def test_an_added_field_passes_and_a_renamed_field_breaks(tmp_path: Path) -> None:
    before, after = tmp_path / "before", tmp_path / "after"
    for copy in (before, after):
        shutil.copytree(ROOT / "protos", copy / "protos", ignore=shutil.ignore_patterns("releases"))
        shutil.copy2(ROOT / "buf.yaml", copy / "buf.yaml")
    proto = after / MATCH_SERVICE
    text = proto.read_text()
    added = text.replace("message GetReplayRequest {\n", "message GetReplayRequest {\n"
                         "  // A field added after the release.\n  string added_later = 99;\n", 1)
    assert added != text
    proto.write_text(added)
    grown = buf("breaking", after, "--against", before)
    assert grown.returncode == 0, grown.stdout + grown.stderr

    renamed_text = re.sub(r"(message Match \{\n(?:  //.*\n)*  string )match_id( = 1;)", r"\1match_key\2", text, count=1)
    assert renamed_text != text
    proto.write_text(renamed_text)
    renamed = buf("breaking", after, "--against", before)
    assert renamed.returncode != 0
    assert 'changed name from "match_id" to "match_key"' in renamed.stdout + renamed.stderr
