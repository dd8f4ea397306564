"""Alembic's scripts of the records database (run through services/records/migrate.py)."""
