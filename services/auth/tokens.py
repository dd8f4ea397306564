"""Signed tokens (JWT, HS256, PyJWT): player tokens for guests, seat tokens bound to a player, a match
and a seat, the bot credential, and the service credential other services use (matchmaking)."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import jwt

from services.kit.errors import GameError
from sizzle.common.v1 import common_pb2

Reason = common_pb2.ErrorReason
PLAYER, SEAT, BOT, SERVICE = "player", "seat", "bot", "service"
_ISSUER = "sizzle"


@dataclass(frozen=True)
class Identity:
    """Who a token says the caller is."""

    kind: str
    player_id: str = ""
    display_name: str = ""
    match_id: str = ""
    seat: int = -1
    sitting: int = 0  # a seat token's: the match version its holder sat down at (Seat.joined_version)


def key_id(key: str) -> str:
    """A key's public name in a token's header: 8 hex digits of its SHA-256 (tells nothing of the key)."""
    return hashlib.sha256(key.encode()).hexdigest()[:8]


class TokenSigner:
    VERIFIED_CACHE = 4096  # tokens whose signature was checked, kept until they expire

    def __init__(self, key: str, ttl_seconds: int, earlier_keys: Sequence[str] = ()) -> None:
        self._key = key
        self._ttl = ttl_seconds
        # Key rotation: tokens name the key that signed them (`kid`); the earlier keys still verify.
        self._keys = {key_id(k): k for k in (key, *earlier_keys)}
        self._kid = key_id(key)
        # A client sends the same token on every call: its signature is checked once (about 50 us),
        # then the identity is reused until the token's own expiry.
        self._verified: OrderedDict[str, tuple[Identity, float]] = OrderedDict()

    def _sign(self, claims: dict[str, Any], ttl: int | None = None) -> tuple[str, int]:
        now = int(time.time())
        expires = now + (ttl if ttl is not None else self._ttl)
        token = jwt.encode({**claims, "iss": _ISSUER, "iat": now, "exp": expires}, self._key, algorithm="HS256",
                           headers={"kid": self._kid})
        return token, expires * 1000

    @classmethod
    def from_config(cls, config: Any) -> TokenSigner:
        """The signer of a process: SIZZLE_TOKEN_KEY signs, SIZZLE_TOKEN_VERIFY_KEYS still verify."""
        return cls(config.token_key, config.token_ttl_seconds, config.verify_keys[1:])

    def new_player(self, display_name: str) -> tuple[str, str, int]:
        """A new guest: (player_id, token, expires_unix_ms)."""
        player_id = "p_" + secrets.token_hex(8)
        token, expires = self._sign({"kind": PLAYER, "sub": player_id, "name": display_name})
        return player_id, token, expires

    def player_token(self, player_id: str, display_name: str) -> str:
        return self.signed_player(player_id, display_name)[0]

    def signed_player(self, player_id: str, display_name: str) -> tuple[str, int]:
        """A player token for an existing player id (an account's): (token, expires_unix_ms)."""
        return self._sign({"kind": PLAYER, "sub": player_id, "name": display_name})

    def seat_token(self, player_id: str, display_name: str, match_id: str, seat: int, sitting: int = 0) -> str:
        """A seat token for one sitting: `sitting` is the version the player sat down at, so the token
        of a sitting that ended (a leave) is not the token of the next one."""
        claims = {"kind": SEAT, "sub": player_id, "name": display_name, "match": match_id, "seat": seat,
                  "sitting": sitting}
        return self._sign(claims)[0]

    def bot_token(self) -> str:
        return self._sign({"kind": BOT, "sub": "bot"})[0]

    def service_token(self, name: str) -> str:
        return self._sign({"kind": SERVICE, "sub": name})[0]

    def verify(self, token: str) -> Identity:
        cached = self._verified.get(token)
        if cached is not None and time.time() < cached[1]:
            return cached[0]
        identity, expires = self._decode(token)
        self._verified[token] = (identity, expires)
        while len(self._verified) > self.VERIFIED_CACHE:
            self._verified.popitem(last=False)
        return identity

    def _decode(self, token: str) -> tuple[Identity, float]:
        try:
            kid = jwt.get_unverified_header(token).get("kid")
            key = self._keys.get(kid) if isinstance(kid, str) else self._key  # no kid: signed before rotation
            if key is None:
                raise jwt.InvalidKeyError("the token names a key this server does not hold")
            claims = jwt.decode(token, key, algorithms=["HS256"], issuer=_ISSUER,
                                options={"require": ["exp", "iat", "sub"]})
        except jwt.ExpiredSignatureError as exc:
            raise GameError(Reason.ERROR_REASON_INVALID_TOKEN, "the token has expired") from exc
        except jwt.PyJWTError as exc:
            raise GameError(Reason.ERROR_REASON_INVALID_TOKEN, "the token is not valid") from exc
        kind = claims.get("kind")
        if kind not in (PLAYER, SEAT, BOT, SERVICE):
            raise GameError(Reason.ERROR_REASON_INVALID_TOKEN, "the token has no known kind")
        identity = Identity(
            kind=kind,
            player_id=str(claims["sub"]),
            display_name=str(claims.get("name", "")),
            match_id=str(claims.get("match", "")),
            seat=int(claims.get("seat", -1)),
            sitting=int(claims.get("sitting", 0)),
        )
        return identity, float(claims["exp"])


def player_identity(identity: Identity | None, call: str) -> Identity:
    """The caller of a call that acts for a player: no token is UNAUTHENTICATED (INVALID_TOKEN); a
    valid token of another kind (a seat token, the bot's) is PERMISSION_DENIED (WRONG_SEAT), as a
    player token is where a seat token is needed: the token is good, only not for this."""
    if identity is None:
        raise GameError(Reason.ERROR_REASON_INVALID_TOKEN,
                        f"{call} needs a player token (`authorization: Bearer <token>`)")
    if identity.kind != PLAYER:
        raise GameError(Reason.ERROR_REASON_WRONG_SEAT, f"{call} needs a player token, not a {identity.kind} token")
    return identity


def bearer(metadata: Any) -> str | None:
    """The token of an `authorization: Bearer <token>` metadata entry, if any."""
    for key, value in metadata or ():
        if key == "authorization":
            scheme, _, token = str(value).partition(" ")
            if scheme.lower() != "bearer" or not token:
                raise GameError(Reason.ERROR_REASON_INVALID_TOKEN, "authorization must be 'Bearer <token>'")
            return token.strip()
    return None
