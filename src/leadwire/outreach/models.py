"""Tables of outreach: the account's suppression list (`suppressions.py`) and its CSV imports
(`suppression_import.py`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from leadwire.platform.db import Base, UtcDateTime


class Suppression(Base):
    """A recipient (an address, a whole email domain, a phone, a LinkedIn profile) no dispatch of the
    account may reach, on one channel or on `any`."""

    __tablename__ = "outreach_suppressions"
    __table_args__ = (
        UniqueConstraint("user_id", "channel", "value", name="uq_outreach_suppressions_value"),
        # The dispatch check: is any of the recipient's values listed for this account?
        Index("ix_outreach_suppressions_lookup", "user_id", "value"),
        # An import's entries, found to be deleted when it did not complete.
        Index("ix_outreach_suppressions_import", "import_id"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(16))  # email | linkedin | whatsapp | any
    kind: Mapped[str] = mapped_column(String(16))  # address | domain | phone | profile_url
    value: Mapped[str] = mapped_column(String(320))  # normalised: what a recipient is compared with
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    source: Mapped[str] = mapped_column(String(16))  # manual | import | bounce | opt_out | blocked
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    # The CSV import that wrote it: the entry counts only once that import completed (its record gone);
    # none for an entry added by hand or learned from a delivery.
    import_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class SuppressionImport(Base):
    """A suppression CSV being written in batches (`importing`) or given up (`failed`: its entries are
    being deleted, then the record). Its entries count once it completes, which deletes the record: the
    table holds only unfinished imports."""

    __tablename__ = "outreach_suppression_imports"
    __table_args__ = (Index("ix_outreach_suppression_imports_user", "user_id", "status"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(16))  # importing | failed
    entries: Mapped[int] = mapped_column(Integer)  # the lines it writes: room held while it imports
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
    # Written by every batch: an import untouched for `STALE` was cut off (its process ended).
    touched_at: Mapped[datetime] = mapped_column(UtcDateTime())
