"""Alembic migrations: one linear history for SQLite and PostgreSQL (`env.py`, `versions/`)."""
