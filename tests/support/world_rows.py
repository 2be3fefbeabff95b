"""Rows of the session's small sandbox world that tests ask for by what they need."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def company_with_people(world: Path, *, at_least: int = 5) -> sqlite3.Row:
    """The first company (by id) with `at_least` people: one whose contacts search finds a hierarchy."""
    connection = sqlite3.connect(f"file:{world / 'world.db'}?mode=ro", uri=True)
    connection.row_factory = sqlite3.Row
    try:
        row: sqlite3.Row = connection.execute(
            "SELECT c.* FROM companies c "
            "WHERE (SELECT count(*) FROM people p WHERE p.company_id = c.id) >= ? ORDER BY c.id LIMIT 1",
            (at_least,),
        ).fetchone()
        return row
    finally:
        connection.close()
