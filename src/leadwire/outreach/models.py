"""Tables of outreach: the account's suppression list (`suppressions.py`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, Text, UniqueConstraint
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
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(32), ForeignKey("users.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(16))  # email | linkedin | whatsapp | any
    kind: Mapped[str] = mapped_column(String(16))  # address | domain | phone | profile_url
    value: Mapped[str] = mapped_column(String(320))  # normalised: what a recipient is compared with
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    source: Mapped[str] = mapped_column(String(16))  # manual | import | bounce | opt_out | blocked
    created_at: Mapped[datetime] = mapped_column(UtcDateTime())
