"""Accounts, finished matches and the index of who played them.

Revision ID: 0001
Revises:
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("username", sa.String(128), nullable=False),
        sa.Column("username_key", sa.String(256), nullable=False),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("created_unix_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("player_id", name="pk_accounts"),
        sa.UniqueConstraint("username_key", name="uq_accounts_username_key"),
    )
    op.create_table(
        "finished_matches",
        sa.Column("match_id", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("rules_version", sa.String(128), nullable=False),
        sa.Column("seed", sa.String(24), nullable=False),
        sa.Column("seed_fixed", sa.Boolean(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("num_players", sa.Integer(), nullable=False),
        sa.Column("creator_player_id", sa.String(64), nullable=False),
        sa.Column("created_unix_ms", sa.BigInteger(), nullable=False),
        sa.Column("finished_unix_ms", sa.BigInteger(), nullable=False),
        sa.Column("match", sa.LargeBinary(), nullable=False),
        sa.Column("state", sa.LargeBinary(), nullable=False),
        sa.Column("log", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("match_id", name="pk_finished_matches"),
    )
    op.create_table(
        "match_players",
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("match_id", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("finished_unix_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("player_id", "match_id", name="pk_match_players"),
    )
    op.create_index("ix_match_players_history", "match_players", ["player_id", "finished_unix_ms", "match_id", "seat"])
    op.create_index("ix_match_players_game_history", "match_players",
                    ["player_id", "game_id", "finished_unix_ms", "match_id", "seat"])


def downgrade() -> None:
    op.drop_index("ix_match_players_game_history", table_name="match_players")
    op.drop_index("ix_match_players_history", table_name="match_players")
    op.drop_table("match_players")
    op.drop_table("finished_matches")
    op.drop_table("accounts")
