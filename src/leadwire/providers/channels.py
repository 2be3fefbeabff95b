"""The outreach channel port: deliver one message to one person through a connected account.

Adapters: sandbox outbox (offline default) and the real providers — SMTP for email
(`providers.smtp`), Unipile for LinkedIn, WhatsApp Cloud API. A delivery id travels with every message
so an upstream that supports it (SMTP's Message-ID) can recognise a repeat.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable
from urllib.parse import unquote, urlsplit

from leadwire.providers.errors import ProviderError

# What an adapter may raise; the outreach jobs fail with the same codes (`delivery_unknown` when the
# upstream may have acted: `ChannelError.sent_unknown`).
CHANNEL_ERROR_CODES = frozenset(
    {
        "account_disconnected",  # the account's credentials were refused: reconnect needed
        "recipient_not_found",  # the upstream does not know or refuses this recipient
        "provider_rate_limited",  # the upstream asks us to slow down; nothing was sent
        "provider_unavailable",  # could not reach the upstream; nothing was sent
        "provider_rejected",  # the upstream refused the message itself
        "whatsapp_reengagement_required",  # outside WhatsApp's 24-hour customer-service window
        "recipient_opted_out",  # the recipient stopped messages from this sender (WhatsApp 131050)
        "recipient_blocked",  # the recipient blocked the sending account (Unipile errors/blocked_recipient)
        "invitation_note_too_long",  # a LinkedIn invitation note over 300 characters
        "invitation_attachment_unsupported",  # a file to someone not yet connected on LinkedIn
        "provider_error",
    }
)


@dataclass(frozen=True)
class Attachment:
    filename: str
    content: bytes
    content_type: str = "application/octet-stream"


@dataclass(frozen=True)
class OutboundMessage:
    delivery_id: str
    recipient: dict[str, Any]
    subject: str | None = None
    text: str | None = None
    html: str | None = None
    attachments: list[Attachment] = field(default_factory=list)


@dataclass(frozen=True)
class DeliveryReceipt:
    kind: str  # message | connection_request
    provider: str
    provider_message_id: str
    delivered_at: datetime


@dataclass(frozen=True)
class LinkedInPost:
    """A recent post of a profile, for the engagement capability (choose one, then like it)."""

    post_id: str  # the post's social id (`urn:li:activity:…`), which a reaction takes
    url: str | None
    text: str
    published_at: datetime | None


# How long an account pauses, at least, when its provider says "slow down" (a rate or throughput limit);
# WhatsApp's spam limit (131048) asks for a day.
RATE_LIMIT_PAUSE_SECONDS = 15 * 60
SPAM_LIMIT_PAUSE_SECONDS = 24 * 3600


class ChannelError(ProviderError):
    """A failed delivery; `sent_unknown` is True when the upstream may have accepted it anyway.
    `pause_seconds`: the provider asked the account to slow down or stop for at least this long (the
    account is paused, `channels/pausing.py`)."""

    def __init__(
        self,
        code: str,
        detail: str | None = None,
        *,
        sent_unknown: bool = False,
        pause_seconds: float | None = None,
    ) -> None:
        super().__init__(code, detail)
        self.sent_unknown = sent_unknown
        self.pause_seconds = pause_seconds


# A provider asking for more than this is taken at this: a pause past a week is a broken header.
LONGEST_RETRY_AFTER_SECONDS = 7 * 24 * 3600


def retry_after_seconds(value: str | None) -> float:
    """An HTTP `Retry-After` in seconds, at most a week (0 when absent, a date or not a finite number:
    the pause's own floor applies)."""
    try:
        seconds = float(value) if value else 0.0
    except ValueError:
        return 0.0
    if not math.isfinite(seconds):
        return 0.0
    return min(max(0.0, seconds), LONGEST_RETRY_AFTER_SECONDS)


@runtime_checkable
class Channel(Protocol):
    async def send(self, message: OutboundMessage) -> DeliveryReceipt: ...


def linkedin_profile_url(url: str) -> str:
    """`https://www.linkedin.com/in/<slug>` for a LinkedIn profile URL in any usual spelling (scheme or
    none, any linkedin.com host, trailing slash, query); ValueError for anything else."""
    value = url.strip()
    if "://" not in value:
        value = "https://" + value
    parts = urlsplit(value)
    host = (parts.hostname or "").lower()
    if parts.scheme.lower() not in ("http", "https") or not (
        host == "linkedin.com" or host.endswith(".linkedin.com")
    ):
        raise ValueError("not a linkedin.com URL")
    segments = [s for s in parts.path.split("/") if s]
    if len(segments) != 2 or segments[0].lower() != "in":
        raise ValueError("not a linkedin.com/in/<profile> URL")
    slug = unquote(segments[1]).strip()
    if not slug or any(c.isspace() or not c.isprintable() or c in "/?#%\\" for c in slug):
        raise ValueError("not a profile identifier")
    if not slug.strip("."):
        # "." and ".." are path segments, not names: a client library collapses them, and the call
        # would reach the provider's parent path (its API root) instead of this profile.
        raise ValueError("a dot segment is not a profile identifier")
    return f"https://www.linkedin.com/in/{slug.lower()}"
