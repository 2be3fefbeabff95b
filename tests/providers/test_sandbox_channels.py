"""The offline channels: outbox records, phone validation, LinkedIn over the sandbox world."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from leadwire.providers.channels import Attachment, ChannelError, OutboundMessage
from leadwire.providers.sandbox_channels import (
    Outbox,
    SandboxEmailChannel,
    SandboxLinkedIn,
    SandboxWhatsAppChannel,
    normalise_profile_url,
)


async def test_email_goes_to_the_outbox_without_attachment_content(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path)
    message = OutboundMessage(
        "dlv_1",
        {"address": "a@x.example"},
        "Hi",
        "Body",
        attachments=[Attachment("deck.pdf", b"12345", "application/pdf")],
    )
    receipt = await SandboxEmailChannel(outbox, "acct_1").send(message)
    [record] = outbox.read("email")
    assert (
        receipt.provider == "sandbox"
        and receipt.kind == "message"
        and receipt.provider_message_id == "sbx_dlv_1"
    )
    assert record["subject"] == "Hi" and record["attachments"] == [
        {"filename": "deck.pdf", "content_type": "application/pdf", "bytes": 5}
    ]


@pytest.mark.parametrize(
    ("phone", "ok"), [("+4915123456789", True), ("0049 151 23456789", False), ("12", False)]
)
async def test_whatsapp_needs_an_international_number(tmp_path: Path, phone: str, ok: bool) -> None:
    channel = SandboxWhatsAppChannel(Outbox(tmp_path), "acct_1")
    if ok:
        await channel.send(OutboundMessage("dlv_2", {"phone": phone}, text="hi"))
        assert Outbox(tmp_path).read("whatsapp")[0]["to"] == "+4915123456789"
    else:
        with pytest.raises(ChannelError) as caught:
            await channel.send(OutboundMessage("dlv_2", {"phone": phone}, text="hi"))
        assert caught.value.code == "recipient_not_found"


def _people_with_posts(world: Path, n: int) -> list[str]:
    con = sqlite3.connect(world / "world.db")
    try:
        rows = con.execute(
            "SELECT p.linkedin_url FROM people p WHERE EXISTS (SELECT 1 FROM posts WHERE author_id = p.id) "
            "ORDER BY p.id LIMIT ?",
            (n,),
        ).fetchall()
    finally:
        con.close()
    return [r[0] for r in rows]


async def test_linkedin_messages_connections_and_invites_others(indexed_world: Path, tmp_path: Path) -> None:
    outbox = Outbox(tmp_path)
    linkedin = SandboxLinkedIn(indexed_world, outbox, "acct_li")
    profiles = _people_with_posts(indexed_world, 40)
    kinds = set()
    for i, url in enumerate(profiles):
        receipt = await linkedin.send(
            OutboundMessage(f"dlv_{i}", {"profile_url": url + "/?trk=x"}, text="x" * 300)
        )
        kinds.add(receipt.kind)
        assert receipt.kind == ("message" if linkedin.connected(url) else "connection_request")
    assert kinds == {"message", "connection_request"}
    invites = [r for r in outbox.read("linkedin") if r["kind"] == "connection_request"]
    assert invites and all(r["note"] == "x" * 300 for r in invites)


async def test_linkedin_invitation_note_over_300_characters_is_refused(
    indexed_world: Path, tmp_path: Path
) -> None:
    outbox = Outbox(tmp_path)
    linkedin = SandboxLinkedIn(indexed_world, outbox, "acct_li")
    stranger = next(url for url in _people_with_posts(indexed_world, 40) if not linkedin.connected(url))
    with pytest.raises(ChannelError) as caught:
        await linkedin.send(OutboundMessage("dlv_long", {"profile_url": stranger}, text="x" * 301))
    assert caught.value.code == "invitation_note_too_long"
    assert outbox.read("linkedin") == []


async def test_linkedin_recent_posts_newest_first_and_like(indexed_world: Path, tmp_path: Path) -> None:
    linkedin = SandboxLinkedIn(indexed_world, Outbox(tmp_path), "acct_li")
    url = _people_with_posts(indexed_world, 1)[0]
    posts = await linkedin.recent_posts(url, limit=5)
    assert posts and all(p.post_id.startswith("urn:li:activity:") for p in posts)
    assert [p.published_at for p in posts] == sorted((p.published_at for p in posts), reverse=True)
    await linkedin.like(posts[0].post_id)
    assert Outbox(tmp_path).read("linkedin_likes")[0]["post_id"] == posts[0].post_id


async def test_unknown_profile_is_recipient_not_found(indexed_world: Path, tmp_path: Path) -> None:
    linkedin = SandboxLinkedIn(indexed_world, Outbox(tmp_path), "acct_li")
    with pytest.raises(ChannelError) as caught:
        await linkedin.send(
            OutboundMessage("dlv_x", {"profile_url": "https://www.linkedin.com/in/nobody-here"}, text="hi")
        )
    assert caught.value.code == "recipient_not_found"


def test_profile_url_normalisation() -> None:
    assert (
        normalise_profile_url("https://linkedin.com/in/Jane-Doe/?trk=a#x")
        == "https://www.linkedin.com/in/jane-doe"
    )
