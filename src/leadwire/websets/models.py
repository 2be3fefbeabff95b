"""Tables of prospect lists: the list, its discovery runs, and its items.

A webset's changes are also appended to the event log (topic `webset:<id>`), in the same transaction
as the rows they describe; `items_revision` counts the item changes a snapshot reflects.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from leadwire.platform.db import Base, JsonType, UtcDateTime


class Webset(Base):
    __tablename__ = "websets"
    __table_args__ = (Index("ix_websets_user_created", "user_id", "created_at", "id"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    query: Mapped[str] = mapped_column(Text)
    target_kind: Mapped[str] = mapped_column(String(16))
    locale: Mapped[str] = mapped_column(String(8))
    count: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(32))
    criteria: Mapped[list[dict[str, Any]]] = mapped_column(JsonType, default=list)
    criteria_updated_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    strategy: Mapped[dict[str, Any] | None] = mapped_column(JsonType, nullable=True)
    strategy_available_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    strategy_updated_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    failure_code: Mapped[str | None] = mapped_column(String(64), nullable=True)
    failure_detail: Mapped[str | None] = mapped_column(String(500), nullable=True)
    preparation_job_id: Mapped[str] = mapped_column(String(32))
    # Sources whose prospects every run leaves out: `[{source, id}]`, creation's and Find More's.
    exclude: Mapped[list[dict[str, Any]]] = mapped_column(JsonType, default=list)
    # Where candidates come from instead of a search: `{type: "import", id}`, or None.
    seed: Mapped[dict[str, Any] | None] = mapped_column(JsonType, nullable=True)
    # The run in progress or the last one (1 = the creation's run, then one per Find More).
    run_number: Mapped[int] = mapped_column(Integer, default=1)
    items_revision: Mapped[int] = mapped_column(Integer, default=0)
    # Progress of the current run (the `progress` object of docs/api.md, Prospect lists (websets));
    # `stage` and `status` are written together by `states.move`.
    stage: Mapped[str] = mapped_column(String(32))
    goal: Mapped[int] = mapped_column(Integer)  # the current run's (the creation's count, or Find More's)
    verified: Mapped[int] = mapped_column(Integer, default=0)
    qualified: Mapped[int] = mapped_column(Integer, default=0)
    full: Mapped[int] = mapped_column(Integer, default=0)
    stop_reason: Mapped[str | None] = mapped_column(String(32), nullable=True)
    progress_updated_at: Mapped[datetime] = mapped_column(UtcDateTime())
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    started_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())

    @property
    def verify_cap(self) -> int:
        return verify_cap_of(self.goal)


def verify_cap_of(goal: int) -> int:
    """How many candidates a run for `goal` items may verify: enough to find its goal when a quarter of
    them qualify."""
    return min(max(goal * 4, 100), 4000)


class WebsetRun(Base):
    """One discovery run: the creation's, or a Find More. Its checkpoint lets a rescued job resume."""

    __tablename__ = "webset_runs"
    __table_args__ = (UniqueConstraint("webset_id", "number", name="uq_webset_runs_number"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    webset_id: Mapped[str] = mapped_column(String(32), ForeignKey("websets.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    # The job that runs discovery (create: made by the preparation job; Find More: its own job).
    job_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    status: Mapped[str] = mapped_column(String(16))  # pending, running, completed, failed, cancelled
    released: Mapped[int] = mapped_column(Integer, default=0)
    # Which planned query to ask next: where a resumed run continues.
    query_index: Mapped[int] = mapped_column(Integer, default=0)
    rounds: Mapped[list[dict[str, Any]]] = mapped_column(JsonType, default=list)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class WebsetItem(Base):
    __tablename__ = "webset_items"
    __table_args__ = (
        # A prospect is in a list once, whichever run found it again: the no-duplicates rule.
        UniqueConstraint("webset_id", "entity_key", name="uq_webset_items_entity"),
        Index("ix_webset_items_position", "webset_id", "position"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    webset_id: Mapped[str] = mapped_column(String(32), ForeignKey("websets.id", ondelete="CASCADE"))
    entity_key: Mapped[str] = mapped_column(String(300))
    position: Mapped[int] = mapped_column(Integer)
    run_number: Mapped[int] = mapped_column(Integer)
    target_kind: Mapped[str] = mapped_column(String(16))
    entity: Mapped[dict[str, Any]] = mapped_column(JsonType)
    match_status: Mapped[str] = mapped_column(String(16))  # full, partial, rejected
    score: Mapped[float] = mapped_column(Float)
    evaluations: Mapped[list[dict[str, Any]]] = mapped_column(JsonType)
    # A qualified item beyond the run's goal is kept (it counts in `qualified`) but not shown or billed.
    released: Mapped[bool] = mapped_column(Boolean)
    # The refresh job that last re-verified it (`websets/refresh.py`): its checkpoint and its charge.
    refreshed_job_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())


class WebsetEnrichment(Base):
    """A column asked of every qualified item of a list (`websets/enrichments.py`)."""

    __tablename__ = "webset_enrichments"
    __table_args__ = (Index("ix_webset_enrichments_webset", "webset_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    webset_id: Mapped[str] = mapped_column(String(32), ForeignKey("websets.id", ondelete="CASCADE"))
    description: Mapped[str] = mapped_column(String(1000))
    format: Mapped[str] = mapped_column(String(16))
    options: Mapped[list[str]] = mapped_column(JsonType, default=list)
    metadata_: Mapped[dict[str, Any]] = mapped_column("metadata", JsonType, default=dict)
    status: Mapped[str] = mapped_column(String(16))  # pending, running, completed, cancelled
    # The job filling its cells now (None when none is): a Find More starts another one.
    job_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # The refresh job that last emptied and refilled it: a rescued attempt of that job refills it no more.
    refilled_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # The trade fact a trade-seeded list writes in it as it adds each item (`trade_seed.FACTS`); None for
    # a column a job fills.
    seed_fact: Mapped[str | None] = mapped_column(String(32), nullable=True)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())


class EnrichmentCell(Base):
    """One item's answer to one enrichment; `job_id` is the job that found it (and is charged for it)."""

    __tablename__ = "enrichment_cells"
    __table_args__ = (Index("ix_enrichment_cells_job", "job_id"),)

    enrichment_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("webset_enrichments.id", ondelete="CASCADE"), primary_key=True
    )
    item_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("webset_items.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    job_id: Mapped[str] = mapped_column(String(32))
    # A value was found (`result` is not null): what is charged, counted without reading the JSON.
    filled: Mapped[bool] = mapped_column(Boolean)
    result: Mapped[list[str] | None] = mapped_column(JsonType, nullable=True)
    reasoning: Mapped[str] = mapped_column(Text)
    references: Mapped[list[dict[str, Any]]] = mapped_column(JsonType, default=list)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class Monitor(Base):
    """A list kept fresh on a schedule (`websets/monitors.py`): each due slot of its cron starts a run."""

    __tablename__ = "webset_monitors"
    __table_args__ = (
        Index("ix_webset_monitors_due", "status", "next_run_at"),
        Index("ix_webset_monitors_user", "user_id", "id"),
        Index("ix_webset_monitors_webset", "webset_id"),
        Index("ix_webset_monitors_api_key", "api_key_id"),  # a revoked key's monitors, paused with it
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    # The key that created it: the runs' jobs are created in its name (as a request of it would be).
    api_key_id: Mapped[str] = mapped_column(String(32))
    webset_id: Mapped[str] = mapped_column(String(32), ForeignKey("websets.id", ondelete="CASCADE"))
    cron: Mapped[str] = mapped_column(String(100))
    timezone: Mapped[str] = mapped_column(String(64))
    behavior: Mapped[str] = mapped_column(String(16))  # search
    count: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))  # active, paused
    # Why it is paused when its owner did not pause it: `key_revoked` (its key was revoked or expired).
    pause_reason: Mapped[str | None] = mapped_column(String(32), nullable=True)
    metadata_: Mapped[dict[str, Any]] = mapped_column("metadata", JsonType, default=dict)
    next_run_at: Mapped[datetime] = mapped_column(UtcDateTime())
    last_run_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())


class MonitorRun(Base):
    """One slot of a monitor: the job it started, or why it started none. A slot is a row once."""

    __tablename__ = "webset_monitor_runs"
    __table_args__ = (
        UniqueConstraint("monitor_id", "slot_at", name="uq_webset_monitor_runs_slot"),
        Index("ix_webset_monitor_runs_monitor", "monitor_id", "id"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    monitor_id: Mapped[str] = mapped_column(String(32), ForeignKey("webset_monitors.id", ondelete="CASCADE"))
    slot_at: Mapped[datetime] = mapped_column(UtcDateTime())
    job_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    skipped_code: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())


class Import(Base):
    """A list a user brought: companies (name, domain, country) a list can leave out (`exclude`)."""

    __tablename__ = "imports"
    __table_args__ = (Index("ix_imports_user", "user_id", "id"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    title: Mapped[str | None] = mapped_column(String(200), nullable=True)
    source_format: Mapped[str] = mapped_column(String(8))  # csv or json
    # importing (its rows written in batches; read by nothing yet) | completed | failed (being deleted)
    status: Mapped[str] = mapped_column(String(16))
    rows: Mapped[int] = mapped_column(Integer)
    accepted: Mapped[int] = mapped_column(Integer)
    rejected: Mapped[int] = mapped_column(Integer)
    # The first `MAX_ERRORS` rejected lines' `{line, field, code}`; `rejected` counts them all.
    errors: Mapped[list[dict[str, Any]]] = mapped_column(JsonType, default=list)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    # Written by every batch while importing: one untouched for a minute was cut off (its process ended).
    touched_at: Mapped[datetime | None] = mapped_column(UtcDateTime(), nullable=True)


class ImportRow(Base):
    """An accepted row of an import: a company by domain, else by name (and country)."""

    __tablename__ = "import_rows"

    import_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("imports.id", ondelete="CASCADE"), primary_key=True
    )
    line: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(300), nullable=True)
    domain: Mapped[str | None] = mapped_column(String(253), nullable=True)
    country: Mapped[str | None] = mapped_column(String(2), nullable=True)
