"""Durable records: what must outlive the live store (accounts, finished matches with their logs,
ratings and their history), in a SQL database through SQLAlchemy, migrated by Alembic."""
