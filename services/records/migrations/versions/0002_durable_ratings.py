"""Durable ratings: a rating per player and game, its history, and the rated flag of each match.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("ordinal", sa.Double(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_unix_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "player_id", name="pk_ratings"),
    )
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("match_id", sa.String(64), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("unix_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "player_id", "match_id", name="pk_rating_changes"),
    )
    op.create_index("ix_rating_changes_history", "rating_changes", ["game_id", "player_id", "unix_ms"])
    op.create_table(
        "rated_matches",
        sa.Column("match_id", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("unix_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("match_id", name="pk_rated_matches"),
    )


def downgrade() -> None:
    op.drop_table("rated_matches")
    op.drop_index("ix_rating_changes_history", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
