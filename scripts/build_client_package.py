"""Builds sizzle-client, the Python package a third-party client installs (`make client-package`).

It stages clients/python/ (pyproject, README, the `sizzle_client` package) with, beside it, the
generated code of every public proto from gen/ (each `_pb2.py` and `.pyi`, and the `_pb2_grpc.py` of
the files that define services; not the store's own records) and clients/minimal_client.py as
`sizzle_client.minimal_client`. The wheel's dependencies are the runtimes the stubs were generated
for: the grpcio and protobuf versions that gen/ names, up to their next major version. The wheel goes
into dist/ (or --out).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTOS = ROOT / "protos"
GEN = ROOT / "gen"
PACKAGE = ROOT / "clients" / "python"
EXAMPLE_CLIENT = ROOT / "clients" / "minimal_client.py"
# Protos of the server's own records, never sent to a client.
INTERNAL = {"sizzle/match/v1/match_store.proto"}
# Error details (google.rpc.Status, ErrorInfo) come from googleapis' own package.
GOOGLEAPIS = "googleapis-common-protos>=1.63,<2"


def public_protos() -> list[str]:
    names = sorted(str(p.relative_to(PROTOS)) for p in PROTOS.rglob("*.proto"))
    return [name for name in names if name not in INTERNAL]


def generated_files(proto: str) -> list[Path]:
    """The files of gen/ that `proto` became, relative to gen/."""
    stem = proto.removesuffix(".proto")
    files = [Path(f"{stem}_pb2.py"), Path(f"{stem}_pb2.pyi")]
    if re.search(r"^service \w+", (PROTOS / proto).read_text(), re.MULTILINE):
        files.append(Path(f"{stem}_pb2_grpc.py"))
    for file in files:
        if not (GEN / file).exists():
            raise SystemExit(f"gen/{file} is missing: run `make gen`")
    return files


def requirements(staged: Path) -> list[str]:
    """The runtimes the stubs need: the grpcio and protobuf versions their generator wrote into them."""
    grpc_text = next(staged.rglob("*_pb2_grpc.py")).read_text()
    grpc_version = re.search(r"GRPC_GENERATED_VERSION = '([\d.]+)'", grpc_text)
    pb2_text = next(staged.rglob("*_pb2.py")).read_text()
    protobuf_version = re.search(r"ValidateProtobufRuntimeVersion\(\s*\S+,\s*(\d+),\s*(\d+),\s*(\d+),", pb2_text)
    if not grpc_version or not protobuf_version:
        raise SystemExit("cannot read the generator's versions from gen/: run `make gen`")
    major, minor, patch = (int(part) for part in protobuf_version.groups())
    # protobuf's runtime of the next major version still reads this major's generated code.
    return [f"grpcio>={grpc_version.group(1)},<2", f"protobuf>={major}.{minor}.{patch},<{major + 2}", GOOGLEAPIS]


def stage(into: Path) -> None:
    shutil.copytree(PACKAGE, into, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "build", "*.egg-info"))
    shutil.copy2(EXAMPLE_CLIENT, into / "sizzle_client" / "minimal_client.py")
    (into / "sizzle_client" / "py.typed").touch()
    for proto in public_protos():
        for file in generated_files(proto):
            (into / file).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(GEN / file, into / file)
    for directory in [into / "sizzle", *(p for p in (into / "sizzle").rglob("*") if p.is_dir())]:
        (directory / "__init__.py").touch()
    (into / "sizzle" / "py.typed").touch()
    (into / "requirements.txt").write_text("\n".join(requirements(into)) + "\n")


def build(out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="sizzle-client-") as tmp:
        staged = Path(tmp) / "sizzle-client"
        stage(staged)
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                        "--wheel-dir", str(out), str(staged)], check=True)
    version = tomllib.loads((PACKAGE / "pyproject.toml").read_text())["project"]["version"]
    return out / f"sizzle_client-{version}-py3-none-any.whl"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="where the wheel goes (default dist/)")
    wheel = build(parser.parse_args(argv).out)
    print(f"built {wheel.relative_to(ROOT) if wheel.is_relative_to(ROOT) else wheel}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
