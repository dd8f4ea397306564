"""The layers, as the import statements say them (lazy imports inside functions included):

    apps  ->  clients, workers, services      (the composition root and the entry points)
    clients, workers  ->  services            (services/ imports neither, nor apps/)

and no cycle between the top-level packages. Outside services/, a game is used only through its public
surface (`services/rules/games/<game>/public.py`) or the registry. Read with `ast` from the source,
not by importing it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("apps", "services", "workers", "clients")
ALLOWED = {
    "apps": {"services", "workers", "clients"},
    "clients": {"services"},
    "workers": {"services"},
    "services": set(),
}


def modules_imported(path: Path) -> set[str]:
    """Every module a file imports from, by its full name."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def imports_of(path: Path) -> set[str]:
    """The top-level packages of ours that a file imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found.update(name.split(".")[0] for name in names if name.split(".")[0] in PACKAGES)
    return found


def edges() -> dict[tuple[str, str], list[str]]:
    """(importer package, imported package) -> the files that make that edge."""
    found: dict[tuple[str, str], list[str]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "clients/python" in path.as_posix() or "node_modules" in path.parts:
                continue  # sizzle-client's own package: built from gen/ and the example client
            for imported in imports_of(path) - {package}:
                found.setdefault((package, imported), []).append(str(path.relative_to(ROOT)))
    return found


def test_every_import_follows_the_layers() -> None:
    wrong = {f"{a} -> {b}": files for (a, b), files in edges().items() if b not in ALLOWED[a]}
    assert not wrong, wrong


def test_no_cycle_between_top_level_packages() -> None:
    graph: dict[str, set[str]] = {p: set() for p in PACKAGES}
    for a, b in edges():
        graph[a].add(b)

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in graph[start])

    assert not [p for p in PACKAGES if reaches(p, p, set())], graph


def test_the_checker_sees_a_lazy_import(tmp_path: Path) -> None:
    source = tmp_path / "module.py"
    source.write_text("def f():\n    from workers.bots.policy import make_bot\n    import clients.cli\n")
    assert imports_of(source) == {"workers", "clients"}


def test_outside_services_a_game_is_used_only_through_its_public_surface() -> None:
    reached_past = {}
    for package in ("apps", "workers", "clients"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "clients/python" in path.as_posix() or "node_modules" in path.parts:
                continue
            inside = [m for m in modules_imported(path)
                      if m.startswith("services.rules.games.") and m.count(".") >= 4 and not m.endswith(".public")]
            if inside:
                reached_past[str(path.relative_to(ROOT))] = inside
    assert not reached_past, reached_past


TRAINING_ONLY = ("torch", "onnx", "threadpoolctl")  # the `train` extra (onnxruntime is the runtime's)


def test_the_training_extra_is_imported_only_by_training() -> None:
    """`make test` installs torch for the training tests, so a stray import would no longer fail
    there: the source must say it. Only workers/training imports the `train` extra."""
    stray = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "node_modules" in path.parts or path.is_relative_to(ROOT / "workers" / "training"):
                continue
            found = [m for m in modules_imported(path) if m.split(".")[0] in TRAINING_ONLY]
            if found:
                stray[str(path.relative_to(ROOT))] = found
    assert not stray, stray


def test_the_runtime_loads_neither_torch_nor_the_training_package() -> None:
    """The serving process, the Celery worker and every game's bots, imported and built in a fresh
    interpreter: no torch, and not workers.training (which pins the float kernels of its process)."""
    import subprocess
    import sys

    probe = """
import random, sys
import apps.cli, workers.bots.tasks
from workers.bots.heuristic import heuristic_bot
from workers.bots.policy import Difficulty, make_bot
from services.rules.registry import game_ids
for game in game_ids():
    heuristic_bot(game, random.Random(1))
    make_bot(game, Difficulty.HARD, random.Random(1))
print(sorted(m for m in sys.modules if m.split(".")[0] == "torch" or m.startswith("workers.training")))
"""
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    assert loaded.stdout.strip() == "[]", loaded.stdout
