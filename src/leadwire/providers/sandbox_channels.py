"""Offline outreach channels: messages go to an outbox you can read, LinkedIn answers from the world.

Outbox: one JSON line per message in `<data_dir>/outbox/<channel>.jsonl` (attachments recorded by
name, type and size, not content), so `tail -f var/outbox/email.jsonl` shows what would have been sent.
LinkedIn profiles and posts come from the sandbox world; whether the sending account is connected to a
profile is a fixed function of the pair, so the same dispatch always takes the same path.
"""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import sqlite3
from contextlib import closing
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
import phonenumbers

from leadwire.platform.time import iso, utcnow
from leadwire.providers.channels import (
    ChannelError,
    DeliveryReceipt,
    LinkedInPost,
    OutboundMessage,
    linkedin_profile_url,
)

CONNECTED_SHARE = 0.4  # of (account, profile) pairs that are first-degree connections
NOTE_LIMIT = 300


class Outbox:
    def __init__(self, data_dir: Path) -> None:
        self.dir = Path(data_dir) / "outbox"

    def _append(self, channel: str, record: dict[str, Any]) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        with (self.dir / f"{channel}.jsonl").open("ab") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)  # several workers may write at once
            handle.write(orjson.dumps(record) + b"\n")

    async def append(self, channel: str, record: dict[str, Any]) -> None:
        await asyncio.to_thread(self._append, channel, record)

    def read(self, channel: str) -> list[dict[str, Any]]:
        path = self.dir / f"{channel}.jsonl"
        if not path.exists():
            return []
        return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def _record(message: OutboundMessage, account: str, **extra: Any) -> dict[str, Any]:
    return {
        "delivery_id": message.delivery_id,
        "account": account,
        "recipient": message.recipient,
        "subject": message.subject,
        "text": message.text,
        "html": message.html,
        "attachments": [
            {"filename": a.filename, "content_type": a.content_type, "bytes": len(a.content)}
            for a in message.attachments
        ],
        "sent_at": iso(utcnow()),
        **extra,
    }


def _receipt(kind: str, message: OutboundMessage) -> DeliveryReceipt:
    return DeliveryReceipt(
        kind=kind, provider="sandbox", provider_message_id=f"sbx_{message.delivery_id}", delivered_at=utcnow()
    )


class SandboxEmailChannel:
    def __init__(self, outbox: Outbox, account: str) -> None:
        self.outbox, self.account = outbox, account

    async def send(self, message: OutboundMessage) -> DeliveryReceipt:
        await self.outbox.append("email", _record(message, self.account))
        return _receipt("message", message)


class SandboxWhatsAppChannel:
    def __init__(self, outbox: Outbox, account: str) -> None:
        self.outbox, self.account = outbox, account

    async def send(self, message: OutboundMessage) -> DeliveryReceipt:
        try:
            number = phonenumbers.parse(str(message.recipient.get("phone", "")), None)
        except phonenumbers.NumberParseException:
            raise ChannelError("recipient_not_found", "not an international phone number") from None
        if not phonenumbers.is_valid_number(number):
            raise ChannelError("recipient_not_found", "not a valid phone number")
        e164 = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
        await self.outbox.append("whatsapp", _record(message, self.account, to=e164))
        return _receipt("message", message)


class SandboxLinkedIn:
    """LinkedIn over the world's people and posts; messages, invitations and likes go to the outbox."""

    def __init__(self, world_dir: Path, outbox: Outbox, account: str) -> None:
        self.world_dir, self.outbox, self.account = Path(world_dir), outbox, account

    def _query(self, sql: str, *params: Any) -> list[sqlite3.Row]:
        with closing(sqlite3.connect(f"file:{self.world_dir / 'world.db'}?mode=ro", uri=True)) as con:
            con.row_factory = sqlite3.Row
            return con.execute(sql, params).fetchall()

    async def _profile(self, profile_url: str) -> sqlite3.Row:
        url = normalise_profile_url(profile_url)
        rows = await asyncio.to_thread(self._query, "SELECT * FROM people WHERE linkedin_url = ?", url)
        if not rows:
            raise ChannelError("recipient_not_found", "no such LinkedIn profile")
        return rows[0]

    def connected(self, profile_url: str) -> bool:
        digest = hashlib.sha256(f"{self.account}|{normalise_profile_url(profile_url)}".encode()).digest()
        return int.from_bytes(digest[:4], "big") / 2**32 < CONNECTED_SHARE

    async def send(self, message: OutboundMessage) -> DeliveryReceipt:
        profile_url = str(message.recipient.get("profile_url", ""))
        person = await self._profile(profile_url)
        if self.connected(profile_url):
            await self.outbox.append(
                "linkedin", _record(message, self.account, kind="message", to=person["id"])
            )
            return _receipt("message", message)
        note = (message.text or "").strip()
        if message.attachments:  # as LinkedIn: an invitation carries a note only
            raise ChannelError("invitation_attachment_unsupported", "a connection request cannot carry files")
        if len(note) > NOTE_LIMIT:  # as LinkedIn: a note is refused, not cut short
            raise ChannelError("invitation_note_too_long", f"invitation note over {NOTE_LIMIT} chars")
        await self.outbox.append(
            "linkedin", _record(message, self.account, kind="connection_request", to=person["id"], note=note)
        )
        return _receipt("connection_request", message)

    async def recent_posts(self, profile_url: str, limit: int = 20) -> list[LinkedInPost]:
        person = await self._profile(profile_url)
        rows = await asyncio.to_thread(
            self._query,
            "SELECT urn, url, text, published_at FROM posts WHERE author_id = ? "
            "ORDER BY published_at DESC LIMIT ?",
            person["id"],
            max(1, min(limit, 100)),
        )
        return [
            LinkedInPost(
                post_id=r["urn"],
                url=r["url"],
                text=r["text"],
                published_at=datetime.fromisoformat(str(r["published_at"]).replace("Z", "+00:00")),
            )
            for r in rows
        ]

    async def like(self, post_id: str) -> None:
        await self.outbox.append(
            "linkedin_likes", {"account": self.account, "post_id": post_id, "liked_at": iso(utcnow())}
        )


def normalise_profile_url(url: str) -> str:
    """`https://www.linkedin.com/in/<slug>` form of a profile URL, as the world stores it; anything that
    is not a profile URL is kept as given (and matches no profile)."""
    try:
        return linkedin_profile_url(url)
    except ValueError:
        return url.strip()
