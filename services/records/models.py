"""The records' tables as SQLAlchemy models. The migrations (services/records/migrations/versions/)
create exactly these; tests/records/test_migrations.py checks that the two agree.

Finished matches keep their proto messages as bytes (the Match resource, the final state, the log)
beside the columns that are queried or read by people (game, rules version, seed, options, times);
`match_players` is the index of who played what, keyed for a player's history newest first.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Double, Index, Integer, LargeBinary, MetaData, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "pk": "pk_%(table_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
}
ID = String(64)  # match, player and game ids are bounded well below this (services/kit/validation.py)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class AccountRow(Base):
    """A registered player. The player id is the one its tokens name (a guest's own when it upgraded)."""

    __tablename__ = "accounts"
    player_id: Mapped[str] = mapped_column(ID, primary_key=True)
    username: Mapped[str] = mapped_column(String(128))
    username_key: Mapped[str] = mapped_column(String(256), unique=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    created_unix_ms: Mapped[int] = mapped_column(BigInteger)
    # What the name looks like (services/auth/accounts.py, username_skeleton); NULL for an account of
    # before revision 0003 whose skeleton an older account had (NULLs never collide).
    username_skeleton: Mapped[str | None] = mapped_column(String(1024), unique=True, nullable=True)


class FinishedMatchRow(Base):
    """One finished match, written once by its id."""

    __tablename__ = "finished_matches"
    match_id: Mapped[str] = mapped_column(ID, primary_key=True)
    game_id: Mapped[str] = mapped_column(ID)
    rules_version: Mapped[str] = mapped_column(String(128))
    seed: Mapped[str] = mapped_column(String(24))  # a uint64, as decimal text (no signed overflow)
    seed_fixed: Mapped[bool] = mapped_column(Boolean)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    num_players: Mapped[int] = mapped_column(Integer)
    creator_player_id: Mapped[str] = mapped_column(ID)
    created_unix_ms: Mapped[int] = mapped_column(BigInteger)
    finished_unix_ms: Mapped[int] = mapped_column(BigInteger)
    match: Mapped[bytes] = mapped_column(LargeBinary)  # sizzle.match.v1.Match: seats, outcome
    state: Mapped[bytes] = mapped_column(LargeBinary)  # the game's final State
    log: Mapped[bytes] = mapped_column(LargeBinary)  # LogEntry messages (services/records/store.py encode_log)


class MatchPlayerRow(Base):
    """A person's seat in a finished match: the index of a player's history."""

    __tablename__ = "match_players"
    player_id: Mapped[str] = mapped_column(ID, primary_key=True)
    match_id: Mapped[str] = mapped_column(ID, primary_key=True)
    game_id: Mapped[str] = mapped_column(ID)
    seat: Mapped[int] = mapped_column(Integer)
    finished_unix_ms: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (
        # A page of history is one range of one of these, newest first: an index read, never a scan
        # (the seat rides along, so the rows themselves are not read: an index-only scan).
        Index("ix_match_players_history", "player_id", "finished_unix_ms", "match_id", "seat"),
        Index("ix_match_players_game_history", "player_id", "game_id", "finished_unix_ms", "match_id", "seat"),
    )


class RatingRow(Base):
    """A player's (or a bot difficulty's) rating at a game; `version` counts its writes."""

    __tablename__ = "ratings"
    game_id: Mapped[str] = mapped_column(ID, primary_key=True)
    player_id: Mapped[str] = mapped_column(ID, primary_key=True)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    ordinal: Mapped[float] = mapped_column(Double)
    matches: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(128))
    version: Mapped[int] = mapped_column(Integer)
    updated_unix_ms: Mapped[int] = mapped_column(BigInteger)


class RatingChangeRow(Base):
    """A rating right after a rated match: the rating's history."""

    __tablename__ = "rating_changes"
    game_id: Mapped[str] = mapped_column(ID, primary_key=True)
    player_id: Mapped[str] = mapped_column(ID, primary_key=True)
    match_id: Mapped[str] = mapped_column(ID, primary_key=True)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    matches: Mapped[int] = mapped_column(Integer)
    unix_ms: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (Index("ix_rating_changes_history", "game_id", "player_id", "unix_ms"),)


class RatedMatchRow(Base):
    """The rated flag of a match, written in the transaction of its rating changes: once per match."""

    __tablename__ = "rated_matches"
    match_id: Mapped[str] = mapped_column(ID, primary_key=True)
    game_id: Mapped[str] = mapped_column(ID)
    unix_ms: Mapped[int] = mapped_column(BigInteger)
