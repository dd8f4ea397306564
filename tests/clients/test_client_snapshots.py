"""Every screen of the terminal client, at 80x24 and 160x50, against its golden text file
(tests/clients/snapshots.py says how they are made; `make snapshots` regenerates them)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

import pytest

from services.rules import registry
from tests.clients.snapshots import (
    GAME_SCREENS,
    OTHER_SCREENS,
    SIZES,
    game_screens,
    golden_path,
    name,
    other_screens,
    start_server,
)
from tests.servers import ServerThread


@pytest.fixture(scope="module")
def seeded_platform() -> Iterator[ServerThread]:
    """The platform with bots that play by the seed and the move number."""
    server = start_server()
    yield server
    server.stop()


def differences(folder: str, shots: dict[str, str], screens: tuple[str, ...]) -> list[str]:
    assert sorted(shots) == sorted(name(screen, size) for screen in screens for size in SIZES)
    found = []
    for shot, text in sorted(shots.items()):
        path = golden_path(folder, shot)
        golden = path.read_text() if path.exists() else ""
        if text != golden:
            diff = difflib.unified_diff(golden.splitlines(), text.splitlines(), f"{path.name} (golden)",
                                        f"{path.name} (now)", lineterm="", n=1)
            found.append("\n".join(diff))
    return found


def explain(found: list[str]) -> str:
    return ("screens differ from their goldens; if the change is meant, run `make snapshots` and review the "
            "diff:\n" + "\n".join(found))


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_every_screen_of_every_game_matches_its_golden(seeded_platform: ServerThread, game_id: str) -> None:
    found = differences(game_id, game_screens(seeded_platform.target, game_id), GAME_SCREENS)
    assert not found, explain(found)


def test_the_waiting_lost_connection_and_lobby_screens_match_their_goldens() -> None:
    found = differences("screens", other_screens(), OTHER_SCREENS)
    assert not found, explain(found)


def test_goldens_are_small_text_files() -> None:
    for folder in [*registry.game_ids(), "screens"]:
        screens = GAME_SCREENS if folder != "screens" else OTHER_SCREENS
        for screen in screens:
            for width, height in SIZES:
                lines = golden_path(folder, name(screen, (width, height))).read_text().splitlines()
                assert len(lines) == height and all(len(line) <= width for line in lines)
