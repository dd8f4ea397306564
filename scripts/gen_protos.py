"""Regenerates the Python code of every proto under protos/ into gen/ (run by `make gen`).

gen/ mirrors the proto packages (gen/sizzle/common/v1/common_pb2.py for sizzle.common.v1), is never
edited by hand, is not committed and is excluded from the linters.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import grpc_tools
from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTOS = ROOT / "protos"
OUT = ROOT / "gen"


def main() -> int:
    files = sorted(str(p.relative_to(PROTOS)) for p in PROTOS.rglob("*.proto"))
    shutil.rmtree(OUT / "sizzle", ignore_errors=True)
    (OUT / "sizzle").mkdir(parents=True, exist_ok=True)
    well_known = Path(grpc_tools.__file__).parent / "_proto"
    args = ["protoc", f"-I{PROTOS}", f"-I{well_known}", f"--python_out={OUT}", f"--pyi_out={OUT}",
            f"--grpc_python_out={OUT}", *files]
    if protoc.main(args) != 0:
        print("protoc failed", file=sys.stderr)
        return 1
    for directory in [OUT / "sizzle", *(p for p in (OUT / "sizzle").rglob("*") if p.is_dir())]:
        (directory / "__init__.py").touch()
    (OUT / ".stamp").touch()
    print(f"generated {len(files)} proto files into {OUT.relative_to(ROOT)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
