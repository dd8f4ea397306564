"""Alembic's environment for the records database: always run from code (services/records/migrate.py)
with an open connection in `config.attributes["connection"]`."""

from __future__ import annotations

from alembic import context

from services.records.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the records migrations with `sizzle records migrate` (services/records/migrate.py)")
context.configure(connection=connection, target_metadata=Base.metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
