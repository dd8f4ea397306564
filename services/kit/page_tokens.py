"""Opaque page tokens: a list's position is handed to the client sealed (encoded and signed), so a
token the server did not issue (`nan`, `1_0`, 5,000 digits) or one issued for another query is
refused as INVALID_REQUEST instead of reaching the store. The key is derived from the token key,
so every replica reads every replica's tokens."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

from services.kit.errors import GameError
from sizzle.common.v1 import common_pb2

Reason = common_pb2.ErrorReason
MAX_TOKEN_CHARS = 512
_MAC_BYTES = 12


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PageTokens:
    """Issues and reads the page tokens of one list (`purpose`, e.g. "matches")."""

    def __init__(self, key: str, purpose: str) -> None:
        self._key = hashlib.sha256(f"sizzle page tokens|{purpose}|{key}".encode()).digest()

    def _mac(self, payload: bytes) -> bytes:
        return hmac.new(self._key, payload, hashlib.sha256).digest()[:_MAC_BYTES]

    def issue(self, position: str, query: str) -> str:
        """The token of the page that starts after `position` of the list `query` names ("" when
        there is no next page)."""
        if not position:
            return ""
        payload = json.dumps([position, query], separators=(",", ":")).encode()
        return f"{_b64(payload)}.{_b64(self._mac(payload))}"

    def read(self, token: str, query: str) -> str:
        """The position a token names; INVALID_REQUEST unless this service issued it for `query`."""
        if not token:
            return ""
        refused = GameError(Reason.ERROR_REASON_INVALID_REQUEST,
                            "page_token is not one this service gave for this query", {"field": "page_token"})
        if len(token) > MAX_TOKEN_CHARS or not token.isascii():
            raise refused
        payload_text, _, mac_text = token.partition(".")
        try:
            payload, mac = _unb64(payload_text), _unb64(mac_text)
        except (ValueError, TypeError) as exc:
            raise refused from exc
        if not hmac.compare_digest(mac, self._mac(payload)):
            raise refused
        position, issued_for = json.loads(payload)
        if issued_for != query:
            raise refused
        return str(position)
