"""The SMTP email adapter against a real SMTP server (aiosmtpd) on loopback."""

from __future__ import annotations

from email.utils import getaddresses
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from leadwire.providers.channels import Attachment, ChannelError, OutboundMessage
from leadwire.providers.smtp import SmtpEmailChannel
from tests.support.processes import free_port
from tests.support.smtp import Inbox


def _channel(port: int, **overrides: Any) -> SmtpEmailChannel:
    options: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": port,
        "from_address": "sales@leadwire.example",
        "from_name": "Leadwire Sales",
        "username": "sender",
        "password": "right",
        "tls": "none",
        "timeout": 5,
    }
    return SmtpEmailChannel(**{**options, **overrides})


async def test_delivers_text_html_and_attachment(smtp_server: tuple[Inbox, int]) -> None:
    inbox, port = smtp_server
    message = OutboundMessage(
        delivery_id="dlv_123",
        recipient={"address": "jane@acme.example", "name": "Jane Doe"},
        subject="Hello Jane",
        text="Plain body",
        html="<p>HTML body</p>",
        attachments=[Attachment("deck.pdf", b"%PDF-1.4 bytes", "application/pdf")],
    )
    receipt = await _channel(port).send(message)
    assert (
        receipt.kind == "message" and receipt.provider == "smtp" and "dlv_123" in receipt.provider_message_id
    )
    [(envelope, received)] = inbox.messages
    assert envelope.mail_from == "sales@leadwire.example" and envelope.rcpt_tos == ["jane@acme.example"]
    assert received["Subject"] == "Hello Jane" and received["To"] == "Jane Doe <jane@acme.example>"
    assert received["Message-ID"] == receipt.provider_message_id
    parts = {part.get_content_type(): part for part in received.walk()}
    assert parts["text/plain"].get_payload(decode=True).strip() == b"Plain body"
    assert parts["text/html"].get_payload(decode=True).strip() == b"<p>HTML body</p>"
    assert parts["application/pdf"].get_filename() == "deck.pdf"
    assert parts["application/pdf"].get_payload(decode=True) == b"%PDF-1.4 bytes"


async def test_refused_recipient_is_recipient_not_found(smtp_server: tuple[Inbox, int]) -> None:
    inbox, port = smtp_server
    with pytest.raises(ChannelError) as caught:
        await _channel(port).send(OutboundMessage("dlv_1", {"address": "nobody@acme.example"}, "s", "t"))
    assert caught.value.code == "recipient_not_found" and not caught.value.sent_unknown
    assert inbox.messages == []


async def test_wrong_password_is_account_disconnected(smtp_server: tuple[Inbox, int]) -> None:
    inbox, port = smtp_server
    with pytest.raises(ChannelError) as caught:
        await _channel(port, password="wrong").send(
            OutboundMessage("dlv_2", {"address": "a@b.example"}, "s", "t")
        )
    assert caught.value.code == "account_disconnected"
    assert inbox.messages == []


async def test_unreachable_server_is_provider_unavailable() -> None:
    with pytest.raises(ChannelError) as caught:
        await _channel(free_port()).send(OutboundMessage("dlv_3", {"address": "a@b.example"}, "s", "t"))
    assert caught.value.code == "provider_unavailable" and not caught.value.sent_unknown


class DropsDuringData:
    """Accepts the envelope, then cuts the connection while the message is being handed over."""

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        server.transport.close()
        return "250 OK"


async def test_a_connection_cut_during_data_is_sent_unknown() -> None:
    port = free_port()
    controller = Controller(DropsDuringData(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        with pytest.raises(ChannelError) as caught:
            channel = _channel(port, username=None, password=None)
            await channel.send(OutboundMessage("dlv_cut", {"address": "jane@acme.example"}, "s", "t"))
    finally:
        controller.stop()
    # The server may have queued it: the job must fail delivery_unknown rather than let a retry resend.
    assert caught.value.code == "provider_error" and caught.value.sent_unknown is True


async def test_a_display_name_cannot_add_a_recipient(smtp_server: tuple[Inbox, int]) -> None:
    inbox, port = smtp_server
    name = "Ünïcode, evil@x.example <evil@x.example>"
    await _channel(port).send(
        OutboundMessage("dlv_n", {"address": "jane@acme.example", "name": name}, "s", "t")
    )
    [(envelope, received)] = inbox.messages
    assert envelope.rcpt_tos == ["jane@acme.example"]
    assert [address for _, address in getaddresses(received.get_all("To", []))] == ["jane@acme.example"]
