"""The records store's interface and the plain types it speaks.

Redis keeps what is live (matches being played, tickets, queues); the records store keeps what must
outlive it: accounts, every finished match (its resource, final state and action log) with an index
of its players, and ratings with one row per rated match. services/records/sql_store.py implements it
on PostgreSQL (deployments, tests) and SQLite (the embedded default of `make run`); both pass one
test suite (tests/records/store_suite.py).

Writes are idempotent where a retry can happen: a finished match is inserted once by its id, and a
match's rating changes are written in one transaction with its rated flag.
"""

from __future__ import annotations

import struct
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.match.v1 import match_store_pb2 as spb

# apply_ratings' answers (the same words as the matchmaking store's).
APPLIED, CONFLICT, DONE = "applied", "conflict", "done"
# create_account's answers.
CREATED, USERNAME_TAKEN, PLAYER_TAKEN = "created", "username_taken", "player_taken"

_LENGTH = struct.Struct(">I")


def encode_log(entries: Sequence[spb.LogEntry]) -> bytes:
    """A match's log as one value: each entry's bytes after its length (4 bytes, big-endian)."""
    parts = []
    for entry in entries:
        data = entry.SerializeToString()
        parts.append(_LENGTH.pack(len(data)))
        parts.append(data)
    return b"".join(parts)


def decode_log(data: bytes) -> list[spb.LogEntry]:
    entries, at = [], 0
    while at < len(data):
        (size,) = _LENGTH.unpack_from(data, at)
        at += _LENGTH.size
        entries.append(spb.LogEntry.FromString(data[at:at + size]))
        at += size
    return entries


@dataclass(frozen=True)
class FinishedMatch:
    """A finished match as recorded: enough to replay it (seed in the state, the log) and to list it."""

    match: mpb.Match  # the resource as it finished: seats, options, outcome, rules version
    state: bytes  # the game's final State message, serialized (its core holds the seed)
    log: list[spb.LogEntry]
    creator_player_id: str
    finished_unix_ms: int
    seed: int  # the seed it was dealt from (also in the state's core), kept readable beside it

    @staticmethod
    def of(record: spb.StoredMatch, log: list[spb.LogEntry], seed: int) -> FinishedMatch:
        finished = max((entry.unix_ms for entry in log), default=record.match.created_unix_ms)
        return FinishedMatch(record.match, record.state, log, record.creator_player_id, finished, seed)

    def players(self) -> list[tuple[int, str]]:
        """(seat, player id) of every seat a person held (also one a bot finished for them)."""
        return [(seat.seat, seat.player_id) for seat in self.match.seats if seat.player_id]


@dataclass(frozen=True)
class HistoryEntry:
    match: mpb.Match
    seat: int
    finished_unix_ms: int


@dataclass(frozen=True)
class HistoryPage:
    entries: list[HistoryEntry]
    next_cursor: str = ""  # where the next page starts ("" on the last); the caller seals it


@dataclass(frozen=True)
class Account:
    player_id: str
    username: str  # as registered (the display name)
    username_key: str  # what makes it unique: NFKC, case-folded (services/auth/accounts.py)
    password_hash: str
    created_unix_ms: int
    # What it looks like (a TR39 skeleton, services/auth/accounts.py), unique too; "" for an account
    # registered before skeletons were kept whose skeleton another account had first.
    username_skeleton: str = ""


@dataclass(frozen=True)
class StoredRating:
    """A rating at one game as the records hold it; `version` counts its writes (compare-and-set)."""

    player_id: str
    mu: float
    sigma: float
    matches: int
    name: str
    version: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class RatingUpdate:
    """One rating's new value, written only if its version is still `expected_version` (0: no row yet)."""

    player_id: str
    expected_version: int
    mu: float
    sigma: float
    matches: int
    name: str


@dataclass(frozen=True)
class RatingPoint:
    """A rating right after one rated match."""

    match_id: str
    mu: float
    sigma: float
    matches: int
    unix_ms: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class RecordsStore(ABC):
    kind: str = "abstract"

    async def open(self) -> None:
        """Makes the store ready at start (creates or checks its schema); raises when it cannot be."""
        return None

    # ---------------------------------------------------------------- finished matches
    @abstractmethod
    async def put_match(self, finished: FinishedMatch) -> bool:
        """Records a finished match once: True when this call wrote it, False when it was there
        already (another replica, or an earlier try whose answer was lost)."""

    @abstractmethod
    async def get_match(self, match_id: str) -> FinishedMatch | None: ...

    @abstractmethod
    async def history(self, player_id: str, game_id: str, cursor: str, limit: int) -> HistoryPage:
        """A player's finished matches (of one game, or any with ''), newest first, from `cursor`."""

    # ---------------------------------------------------------------- accounts
    @abstractmethod
    async def create_account(self, account: Account) -> str:
        """CREATED, or USERNAME_TAKEN / PLAYER_TAKEN when another account has its key or skeleton, or
        its player id."""

    @abstractmethod
    async def account_by_key(self, username_key: str) -> Account | None: ...

    @abstractmethod
    async def account_like(self, username_key: str, username_skeleton: str) -> Account | None:
        """An account with this key, or one that looks alike (this skeleton), if any."""

    @abstractmethod
    async def account_of(self, player_id: str) -> Account | None: ...

    # ---------------------------------------------------------------- ratings
    @abstractmethod
    async def get_ratings(self, game_id: str, player_ids: Sequence[str]) -> dict[str, StoredRating]:
        """The ratings of those that have one."""

    @abstractmethod
    async def apply_ratings(self, game_id: str, match_id: str, updates: Sequence[RatingUpdate], unix_ms: int) -> str:
        """In one transaction: marks the match rated and writes every update with its history row.
        DONE when the match was rated already; CONFLICT (nothing written) when a rating's version
        moved since it was read; else APPLIED."""

    @abstractmethod
    async def rating_history(self, game_id: str, player_id: str, limit: int) -> list[RatingPoint]:
        """The player's latest rating changes at the game, newest first."""

    @abstractmethod
    async def ratings_page(self, game_id: str, after_player_id: str, limit: int) -> list[StoredRating]:
        """Every rating of a game in player-id order, a page at a time (rebuilding a cache)."""

    @abstractmethod
    async def import_ratings(self, game_id: str, ratings: Sequence[StoredRating], unix_ms: int) -> int:
        """Adds ratings kept elsewhere before the records kept them (a deployment's Redis), each unless
        the player has one here already; returns how many it added."""

    async def close(self) -> None:
        return None
