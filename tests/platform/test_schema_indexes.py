"""Every foreign key leads an index (or the primary key, or a unique constraint).

A foreign key with ON DELETE CASCADE makes the database look up the referring rows whenever a referred
row goes (an account, a connected account, a list); without an index leading with the key's columns,
PostgreSQL scans the referring table for each one. The models are the schema (test_migrations.py holds
the migrations to them), so checking the models checks both databases.
"""

from __future__ import annotations

from sqlalchemy import ForeignKeyConstraint, Table, UniqueConstraint

import leadwire.models as models


def _leading_column_sets(table: Table) -> list[list[str]]:
    found = [[c.name for c in table.primary_key.columns]]
    found += [[c.name for c in index.columns] for index in table.indexes]
    found += [[c.name for c in u.columns] for u in table.constraints if isinstance(u, UniqueConstraint)]
    return found


def _led(foreign_key: ForeignKeyConstraint, table: Table) -> bool:
    columns = sorted(c.name for c in foreign_key.columns)
    return any(sorted(lead[: len(columns)]) == columns for lead in _leading_column_sets(table))


def test_every_foreign_key_leads_an_index() -> None:
    unindexed = [
        f"{table.name}({', '.join(c.name for c in fk.columns)}) -> {fk.referred_table.name}"
        for table in models.Base.metadata.sorted_tables
        for fk in table.foreign_key_constraints
        if not _led(fk, table)
    ]
    assert unindexed == []


def test_the_check_sees_a_foreign_key_without_its_index() -> None:
    from sqlalchemy import Column, ForeignKey, Index, MetaData, String

    metadata = MetaData()
    Table("parents", metadata, Column("id", String, primary_key=True))
    child = Table(
        "children",
        metadata,
        Column("id", String, primary_key=True),
        Column("parent_id", String, ForeignKey("parents.id")),
        Column("other_id", String, ForeignKey("parents.id")),
        Index("ix_children_other", "other_id", "id"),
    )
    led = {next(iter(fk.columns)).name: _led(fk, child) for fk in child.foreign_key_constraints}
    assert led == {"parent_id": False, "other_id": True}
