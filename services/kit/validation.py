"""Checks every servicer applies to client input before anything else: ids and strings bounded in
length and alphabet, enum fields within their declared values, numbers within their range. A refusal
is INVALID_REQUEST and echoes at most a short prefix of what the client sent (an echo of a 20 KB id
would overflow the client's metadata limit)."""

from __future__ import annotations

from typing import Any

from services.kit.errors import GameError
from sizzle.common.v1 import common_pb2

Reason = common_pb2.ErrorReason
MAX_ID_CHARS = 64  # match, ticket, player and game ids the server makes are far shorter
ECHO_CHARS = 24  # the most of a client's string an error message repeats


def shown(value: Any, limit: int = ECHO_CHARS) -> str:
    """A client value as an error message may show it: its repr, cut to `limit` characters."""
    text = str(value)
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def check_id(name: str, value: str, required: bool = True) -> str:
    """An id: 1..64 printable ASCII characters (or empty when not required)."""
    if not value:
        if required:
            raise GameError(Reason.ERROR_REASON_INVALID_REQUEST, f"{name} is required", {"field": name})
        return value
    if len(value) > MAX_ID_CHARS or not value.isascii() or not value.isprintable():
        raise GameError(Reason.ERROR_REASON_INVALID_REQUEST,
                        f"{name} {shown(value)} is not an id (1 to {MAX_ID_CHARS} printable ASCII characters)",
                        {"field": name})
    return value


def check_text(name: str, value: str, max_chars: int) -> str:
    """A free text field: at most `max_chars` printable characters."""
    if len(value) > max_chars or not value.isprintable():
        raise GameError(Reason.ERROR_REASON_INVALID_REQUEST,
                        f"{name} must be at most {max_chars} printable characters", {"field": name})
    return value


def check_enum(name: str, value: int, enum_type: Any, allowed: tuple[int, ...] | None = None) -> int:
    """An enum field: one of the enum's declared values (and of `allowed`, when given). Protobuf keeps
    unknown enum numbers in proto3, so a client can send any int32."""
    known = allowed if allowed is not None else tuple(enum_type.values())
    if value not in known:
        names = ", ".join(enum_type.Name(v) for v in known)
        raise GameError(Reason.ERROR_REASON_INVALID_REQUEST, f"{name} {value} is not one of {names}", {"field": name})
    return value


def check_range(name: str, value: int | float, low: int | float, high: int | float) -> int | float:
    """A number within [low, high]."""
    if not low <= value <= high:
        raise GameError(Reason.ERROR_REASON_INVALID_REQUEST, f"{name} must be {low} to {high}, not {shown(value)}",
                        {"field": name})
    return value
