"""The likes each connected account has given: so a post is never liked twice by the same account."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from leadwire.platform.db import Base, UtcDateTime


class EngagementLike(Base):
    """Written before the provider is asked to like (see `service.like_best`); removed again only when
    the provider certainly did not act, so a failed attempt does not hide the post from a later job."""

    __tablename__ = "engagement_likes"

    # One row per (account, post): the key itself is the "liked at most once" rule.
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("connect_accounts.id", ondelete="CASCADE"), primary_key=True
    )
    post_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    post_url: Mapped[str | None] = mapped_column(String(1000), nullable=True)
    job_id: Mapped[str] = mapped_column(String(32), index=True)
    liked_at: Mapped[datetime] = mapped_column(UtcDateTime())
