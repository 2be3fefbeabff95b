"""Email through an SMTP server (aiosmtplib): STARTTLS, implicit TLS or plain, with optional AUTH.

The delivery id becomes the Message-ID, so the message is recognisable downstream. Only failures before
the server accepted DATA are certain not to have sent; a failure after that is reported `sent_unknown`.
"""

from __future__ import annotations

import ssl
from email.message import EmailMessage
from email.utils import formataddr, make_msgid

import aiosmtplib

from leadwire.platform.time import utcnow
from leadwire.providers.channels import ChannelError, DeliveryReceipt, OutboundMessage


class SmtpEmailChannel:
    def __init__(
        self,
        *,
        host: str,
        port: int,
        from_address: str,
        from_name: str | None = None,
        username: str | None = None,
        password: str | None = None,
        tls: str = "starttls",
        timeout: float = 30.0,
        tls_context: ssl.SSLContext | None = None,
    ) -> None:
        if tls not in ("starttls", "tls", "none"):
            raise ValueError("tls must be starttls, tls or none")
        self._host, self._port = host, port
        self._from = formataddr((from_name, from_address)) if from_name else from_address
        self._from_domain = from_address.rpartition("@")[2] or "localhost"
        self._username, self._password = username, password
        self._tls, self._timeout, self._context = tls, timeout, tls_context

    def build(self, message: OutboundMessage) -> EmailMessage:
        email = EmailMessage()
        email["From"] = self._from
        address = str(message.recipient["address"])
        name = message.recipient.get("name")
        email["To"] = formataddr((str(name), address)) if name else address
        email["Subject"] = message.subject or ""
        email["Message-ID"] = make_msgid(idstring=message.delivery_id, domain=self._from_domain)
        email.set_content(message.text or "")
        if message.html:
            email.add_alternative(message.html, subtype="html")
        for attachment in message.attachments:
            maintype, _, subtype = attachment.content_type.partition("/")
            email.add_attachment(
                attachment.content,
                maintype=maintype or "application",
                subtype=subtype or "octet-stream",
                filename=attachment.filename,
            )
        return email

    async def send(self, message: OutboundMessage) -> DeliveryReceipt:
        email = self.build(message)
        try:
            await aiosmtplib.send(
                email,
                hostname=self._host,
                port=self._port,
                username=self._username,
                password=self._password,
                use_tls=self._tls == "tls",
                start_tls=self._tls == "starttls",
                timeout=self._timeout,
                tls_context=self._context,
            )
        except aiosmtplib.SMTPAuthenticationError as exc:
            raise ChannelError("account_disconnected", exc.message) from None
        except aiosmtplib.SMTPRecipientsRefused as exc:
            raise ChannelError("recipient_not_found", str(exc)) from None
        except aiosmtplib.SMTPDataError as exc:
            raise ChannelError("provider_rejected", exc.message) from None
        except (aiosmtplib.SMTPConnectError, aiosmtplib.SMTPConnectTimeoutError, OSError) as exc:
            raise ChannelError("provider_unavailable", type(exc).__name__) from None
        except aiosmtplib.SMTPServerDisconnected as exc:
            # The connection dropped mid-conversation: the server may already have queued the message.
            raise ChannelError("provider_error", str(exc), sent_unknown=True) from None
        except aiosmtplib.SMTPException as exc:
            raise ChannelError("provider_error", str(exc)) from None
        return DeliveryReceipt(
            kind="message",
            provider="smtp",
            provider_message_id=str(email["Message-ID"]),
            delivered_at=utcnow(),
        )
