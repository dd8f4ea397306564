"""Loads a game's content (cards, tracks, boards, distributions) from a text proto file checked
against the game's Content message. Rule code reads numbers from here, never from literals."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from google.protobuf import text_format

M = TypeVar("M")


@cache
def _load(path: str, message_type: Any) -> Any:
    message = message_type()
    text_format.Parse(Path(path).read_text(encoding="utf-8"), message)
    return message


def load_content(package_file: str, message_type: type[M], filename: str = "content.txtpb") -> M:
    """Parses `filename` beside `package_file` (a module's __file__) as `message_type`, once."""
    loaded: M = _load(str(Path(package_file).resolve().parent / filename), message_type)  # type: ignore[arg-type]
    return loaded
