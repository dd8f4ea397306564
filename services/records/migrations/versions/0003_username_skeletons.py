"""Usernames that look alike: each account's skeleton (Unicode TR39), unique.

Existing accounts get theirs in the order they registered; one whose skeleton an older account has
keeps NULL (NULLs never collide), so both keep their names and logins, and no new name can look like
either. The skeleton is services/auth/accounts.py's `username_skeleton` as this revision ships it: a
later change to that function needs a revision that recomputes the column.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from services.auth.accounts import username_skeleton

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:  # SQLite adds a unique column by copying the table
        batch.add_column(sa.Column("username_skeleton", sa.String(1024), nullable=True))
        batch.create_unique_constraint("uq_accounts_username_skeleton", ["username_skeleton"])
    accounts = sa.table("accounts", sa.column("player_id", sa.String), sa.column("username", sa.String),
                        sa.column("created_unix_ms", sa.BigInteger), sa.column("username_skeleton", sa.String))
    connection = op.get_bind()
    seen: set[str] = set()
    rows = connection.execute(sa.select(accounts.c.player_id, accounts.c.username)
                              .order_by(accounts.c.created_unix_ms, accounts.c.player_id)).all()
    for player_id, username in rows:
        skeleton = username_skeleton(username)
        if skeleton in seen:
            continue
        seen.add(skeleton)
        connection.execute(accounts.update().where(accounts.c.player_id == player_id)
                           .values(username_skeleton=skeleton))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("uq_accounts_username_skeleton", type_="unique")
        batch.drop_column("username_skeleton")
