"""Credit ledger tables: an append-only entry log and one materialised balance row per user."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from leadwire.platform.db import Base, UtcDateTime


class CreditBalance(Base):
    __tablename__ = "credit_balances"

    user_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    granted: Mapped[int] = mapped_column(BigInteger, default=0)
    charged: Mapped[int] = mapped_column(BigInteger, default=0)
    reserved: Mapped[int] = mapped_column(BigInteger, default=0)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime())


class CreditEntry(Base):
    __tablename__ = "credit_entries"
    # One reserve, one charge and one release per job at most: the database refuses a double settlement.
    # The account's ledger is read newest first a page at a time (`ledger.list_entries`): the index
    # holds that order, and serves every other lookup by account too.
    __table_args__ = (
        UniqueConstraint("job_id", "kind", name="uq_credit_entries_job_kind"),
        Index("ix_credit_entries_user_created", "user_id", "created_at", "id"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    job_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    kind: Mapped[str] = mapped_column(String(16))
    amount: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
