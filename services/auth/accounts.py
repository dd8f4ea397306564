"""Accounts: Register, Login and UpgradeGuest, as plain functions over the records store.

- A username is also the name other players see, under the display-name rules of guests (1 to 32
  printable characters, spaces at the ends dropped). It is unique regardless of case and of Unicode
  compatibility forms: its key is NFKC, case-folded, NFKC again ("Ａｌｉｃｅ", "ALICE" and "alice" are
  one name); the records store's unique index on the key settles two registrations racing. Nor may
  it look like another: its skeleton (Unicode TR39, by ICU's spoof checker) is unique too, so a
  Cyrillic "Сhef" (U+0421) or "ChefI" (a capital I) cannot register beside "Chef" or "Chefl". A login
  still names its account by the key: a look-alike name is just a wrong username.
- Passwords are hashed with Argon2id (argon2-cffi's defaults, RFC 9106's second recommended
  profile), in worker threads, at most two at a time: a hash takes tens of milliseconds of CPU.
- Failed logins are limited per username from one address, and per address whatever the usernames,
  within a window (services/kit/quotas.py's count_in_window, kept in the shared store across
  replicas): an attempt takes a slot before the password is checked and a success gives it back, so
  only failures count. A limit per username alone let anyone lock the owner out with ten wrong
  passwords. A username that has no account costs the same hash as one that has (no timing tells
  which usernames exist).
- Register charges the address's account quota before it looks the username up, and a taken name
  keeps the charge: otherwise "taken" against "over the quota" told which usernames exist, without
  limit.
- An upgraded guest keeps its player id, so its ratings and match history stay its own.
- A guest may not take an account's username (in any case, compatibility form or look-alike) as its
  display name, or it would play as that account. Such a name costs one of the address's accounts
  an hour, as Register of a taken name does, and an address that has spent them gets no guest until
  they come back: so the check tells no more usernames than Register does.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from services.auth.tokens import Identity, TokenSigner, player_identity
from services.kit.config import Config
from services.kit.errors import GameError
from services.kit.quotas import Quotas, refused, subject_of, wall_ms
from services.records.store import CREATED, PLAYER_TAKEN, Account, RecordsStore
from sizzle.common.v1 import common_pb2

Reason = common_pb2.ErrorReason
MAX_NAME_CHARS = 32
# A username's key and skeleton, as the records' columns hold them (a name's NFKC form can be many
# times its length: one U+FDFA is 18 letters).
MAX_KEY_CHARS, MAX_SKELETON_CHARS = 256, 1024
MIN_PASSWORD_CHARS, MAX_PASSWORD_CHARS = 8, 128
FAILED_LOGINS = "failed_logins"
HASHING_AT_ONCE = 2
log = logging.getLogger("sizzle.auth")


# Printable characters that show as nothing (fillers and blanks of some scripts): a name of them is
# blank, and one padded with them looks like another ("alice" + U+3164).
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
MAX_MARKS_IN_A_ROW = 3  # combining marks on one character (a letter under 31 accents is a smear)


def check_display_name(name: str, field: str = "display_name") -> str:
    """A name other players see, stripped: 1 to 32 printable characters (guests and accounts alike),
    none of them a blank, starting with a visible character, at most three marks on a character."""
    name = name.strip()
    refusal = GameError(Reason.ERROR_REASON_INVALID_REQUEST,
                        f"{field} must be 1 to {MAX_NAME_CHARS} printable, visible characters", {"field": field})
    if not 1 <= len(name) <= MAX_NAME_CHARS or not name.isprintable() or BLANKS.intersection(name):
        raise refusal
    marks = 0
    for index, char in enumerate(name):
        marks = marks + 1 if unicodedata.category(char).startswith("M") else 0
        if marks > MAX_MARKS_IN_A_ROW or (marks and index == 0):
            raise refusal
    return name


def username_key(username: str) -> str:
    """What makes a username unique: NFKC, case-folded, NFKC again (case folding can leave a form
    that NFKC changes)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", username.strip()).casefold())


@functools.cache
def _spoof_checker() -> Any:
    import icu  # PyICU (pyicu-wheels): ICU's data tables, loaded once a process

    return icu.SpoofChecker()


def username_skeleton(username: str) -> str:
    """What a username looks like: two names with one skeleton are confusable (Unicode TR39). The
    skeleton of the name as shown (never its NFKC form: NFKC makes the long s "ſ", which looks like
    an f, an s, and "Ϲ", which looks like a C, a sigma), case-folded, then skeleton again: the first
    pass maps look-alikes that differ in case ("I" and "l"), the second those that case folding made
    ("Ѕ" to "ѕ" to "s")."""
    checker = _spoof_checker()
    looks = checker.getSkeleton(0, username.strip())
    return str(checker.getSkeleton(0, looks.casefold()))


class _Unchecked(Exception):
    """The records database could not be asked about a name (it is down)."""


async def _account_named(records: RecordsStore, name: str) -> Account | None:
    """The account whose username is `name`, in any case or compatibility form, or looks like it;
    _Unchecked when the records database is down (logged: the callers let the name go unchecked)."""
    try:
        return await records.account_like(username_key(name), username_skeleton(name))
    except Exception as error:
        log.warning("could not check a name against the accounts", exc_info=True)
        raise _Unchecked from error


async def name_is_still_theirs(records: RecordsStore | None, identity: Identity) -> None:
    """Refuses a player whose token names it by an account's name (or one like it) that is not its own
    account's: a guest that took a name before someone registered it would sit down under it for
    as long as its token lasts (a week). Checked where a name goes onto a table (JoinMatch,
    CreateTicket); with no records, or the records database down, the name goes unchecked."""
    if records is None or not identity.display_name:
        return
    try:
        owner = await _account_named(records, identity.display_name)
    except _Unchecked:
        return
    if owner is not None and owner.player_id != identity.player_id:
        raise GameError(Reason.ERROR_REASON_USERNAME_TAKEN,
                        f"{identity.display_name!r} is now an account's name: make a new guest under another name, "
                        "or log in", {"field": "display_name"})


def check_password(password: str) -> str:
    if not MIN_PASSWORD_CHARS <= len(password) <= MAX_PASSWORD_CHARS:
        raise GameError(Reason.ERROR_REASON_INVALID_REQUEST,
                        f"password must be {MIN_PASSWORD_CHARS} to {MAX_PASSWORD_CHARS} characters",
                        {"field": "password"})
    return password


@dataclass(frozen=True)
class SignedIn:
    player_id: str
    token: str
    expires_unix_ms: int
    username: str


class Accounts:
    def __init__(self, config: Config, records: RecordsStore | None, signer: TokenSigner, quotas: Quotas,
                 clock: Callable[[], int] = wall_ms) -> None:
        self.config = config
        self.records = records
        self.signer = signer
        self.quotas = quotas
        self.clock = clock
        self.hasher = PasswordHasher()
        self._hashing: asyncio.Semaphore | None = None
        self._unknown_hash = ""  # a hash that no password matches: what an unknown username costs

    # ---------------------------------------------------------------- the calls
    async def register(self, username: str, password: str, peer: str) -> SignedIn:
        return await self._create("p_" + _new_hex(), username, password, peer)

    async def guest_name(self, display_name: str, peer: str) -> str:
        """A new guest's display name: checked, charged to the address's guests an hour, and no
        account's username (nor like one). A name that is an account's costs one of the address's
        accounts an hour, as Register of a taken name does, and an address that has spent those
        gets no guest at all until they come back: otherwise CreateGuest told which usernames exist
        twenty times as fast as Register (a black-box audit)."""
        name = check_display_name(display_name)
        subject = subject_of(None, "", peer)
        await self.quotas.created(subject, "guests", self.config.quota_guests_per_hour)
        if self.records is None:
            return name
        per_hour = self.config.quota_accounts_per_hour
        await self.quotas.created(subject, "accounts", per_hour)  # given back below unless the name is taken
        try:
            taken = await _account_named(self.records, name) is not None
        except _Unchecked:  # the records database is down: guests still play (the name is unchecked)
            taken = False
        if not taken:
            await self.quotas.uncreated(subject, "accounts", per_hour)
            return name
        raise GameError(Reason.ERROR_REASON_USERNAME_TAKEN,
                        f"{name!r} is, or looks like, an account's name: log in to play as it",
                        {"field": "display_name"})

    async def upgrade(self, identity: Identity | None, username: str, password: str, peer: str) -> SignedIn:
        guest = player_identity(identity, "UpgradeGuest")
        return await self._create(guest.player_id, username, password, peer)

    async def login(self, username: str, password: str, peer: str) -> SignedIn:
        records = self._records()
        key = username_key(username)
        if not key or len(password) > MAX_PASSWORD_CHARS or len(username) > 4 * MAX_NAME_CHARS:
            raise _invalid_credentials()
        taken = await self._take_attempt(key, peer)
        account = await records.account_by_key(key)
        good = await self._verify(account.password_hash if account else await self._unknown(), password)
        if account is None or not good:
            raise _invalid_credentials()
        for subject in taken:  # a success gives its slot back: only failures count
            await self.quotas.store.uncount(subject, FAILED_LOGINS)
        return self._signed_in(account.player_id, account.username)

    # ---------------------------------------------------------------- helpers
    def _records(self) -> RecordsStore:
        if self.records is None:
            raise GameError(Reason.ERROR_REASON_STORE_UNAVAILABLE,
                            "this server keeps no accounts (it has no records database: SIZZLE_RECORDS_URL)")
        return self.records

    async def _create(self, player_id: str, username: str, password: str, peer: str) -> SignedIn:
        name = check_display_name(username, "username")
        check_password(password)
        records = self._records()
        key, skeleton = username_key(name), username_skeleton(name)
        if len(key) > MAX_KEY_CHARS or len(skeleton) > MAX_SKELETON_CHARS:  # "ﷺ" is 18 letters in NFKC
            raise GameError(Reason.ERROR_REASON_INVALID_REQUEST,
                            "username is too long once its compatibility characters are spelled out",
                            {"field": "username"})
        if await records.account_of(player_id) is not None:
            raise _registered()
        subject = subject_of(None, "", peer)
        per_hour = self.config.quota_accounts_per_hour
        await self.quotas.created(subject, "accounts", per_hour)  # before the lookup: a taken name costs too
        if await records.account_like(key, skeleton) is not None:
            raise _taken(name)
        try:
            hashed = await self._hash(password)
            result = await records.create_account(Account(player_id, name, key, hashed, self.clock(), skeleton))
        except BaseException:
            await self.quotas.uncreated(subject, "accounts", per_hour)
            raise
        if result == PLAYER_TAKEN:
            await self.quotas.uncreated(subject, "accounts", per_hour)
            raise _registered()
        if result != CREATED:
            raise _taken(name)
        return self._signed_in(player_id, name)

    def _signed_in(self, player_id: str, username: str) -> SignedIn:
        token, expires = self.signer.signed_player(player_id, username)
        return SignedIn(player_id, token, expires, username)

    async def _take_attempt(self, key: str, peer: str) -> list[str]:
        """Takes a failed-login slot of the username from this address and of the address (refused
        when either is used up); returns the subjects taken, to be given back on success."""
        window_ms = self.config.failed_login_window_seconds * 1000
        address = subject_of(None, "", peer) or ""
        pair = hashlib.sha256(f"{key}\0{address}".encode()).hexdigest()[:24]
        limits = [(f"login:{pair}", self.config.quota_failed_logins),
                  (address, self.config.quota_failed_logins_per_address)]
        taken: list[str] = []
        for subject, limit in limits:
            if limit <= 0 or not subject:
                continue
            wait = await self.quotas.store.count_in_window(subject, FAILED_LOGINS, limit, window_ms, self.clock())
            if wait:
                for earlier in taken:
                    await self.quotas.store.uncount(earlier, FAILED_LOGINS)
                raise refused(FAILED_LOGINS, "too many failed logins; try again later", wait)
            taken.append(subject)
        return taken

    def _semaphore(self) -> asyncio.Semaphore:
        if self._hashing is None:
            self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        return self._hashing

    async def _hash(self, password: str) -> str:
        async with self._semaphore():
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, hashed: str, password: str) -> bool:
        def verify() -> bool:
            try:
                return bool(self.hasher.verify(hashed, password))
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False

        async with self._semaphore():
            return await asyncio.to_thread(verify)

    async def _unknown(self) -> str:
        if not self._unknown_hash:
            self._unknown_hash = await self._hash(_new_hex(16))
        return self._unknown_hash


def _new_hex(size: int = 8) -> str:
    return secrets.token_hex(size)


def _taken(name: str) -> GameError:
    return GameError(Reason.ERROR_REASON_USERNAME_TAKEN, f"the username {name!r} is taken, or looks like one that is")


def _registered() -> GameError:
    return GameError(Reason.ERROR_REASON_ALREADY_REGISTERED, "this player already has an account: log in instead")


def _invalid_credentials() -> GameError:
    return GameError(Reason.ERROR_REASON_INVALID_CREDENTIALS, "no account has this username and password")
