"""Email through an SMTP server (aiosmtplib): STARTTLS, implicit TLS or plain, with optional AUTH.

The delivery id becomes the Message-ID, so the message is recognisable downstream. A failure while
connecting, negotiating TLS or authenticating is certain not to have sent; once the transaction has
begun, only the server's own refusal (recipient, sender, data) is certain, and a dropped connection or
a timeout is reported `sent_unknown` — the server may already have queued the message.
"""

from __future__ import annotations

import re
import ssl
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import make_msgid

import aiosmtplib

from leadwire.platform.time import utcnow
from leadwire.providers.channels import (
    RATE_LIMIT_PAUSE_SECONDS,
    ChannelError,
    DeliveryReceipt,
    OutboundMessage,
)


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
        self._from = Address(display_name=from_name or "", addr_spec=from_address)
        self._from_domain = from_address.rpartition("@")[2] or "localhost"
        self._username, self._password = username, password
        self._tls, self._timeout, self._context = tls, timeout, tls_context

    def build(self, message: OutboundMessage) -> EmailMessage:
        email = EmailMessage()
        email["From"] = self._from
        address = str(message.recipient["address"])
        name = message.recipient.get("name")
        # Address encodes any display name as one encoded word: a name holding a comma, `@` or `<>` can
        # never read as a second recipient (formataddr loses its quotes once the name is non-ASCII).
        email["To"] = Address(display_name=str(name or ""), addr_spec=address)
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
        client = aiosmtplib.SMTP(
            hostname=self._host,
            port=self._port,
            username=self._username,
            password=self._password,
            use_tls=self._tls == "tls",
            start_tls=self._tls == "starttls",
            timeout=self._timeout,
            tls_context=self._context,
        )
        try:
            await client.connect()  # connect, TLS and AUTH: nothing can have been sent yet
        except aiosmtplib.SMTPAuthenticationError as exc:
            raise ChannelError("account_disconnected", exc.message) from None
        except aiosmtplib.SMTPResponseException as exc:
            raise _throttled(exc.code, exc.message) or ChannelError(
                "provider_unavailable", type(exc).__name__
            ) from None
        except (aiosmtplib.SMTPException, OSError) as exc:
            raise ChannelError("provider_unavailable", type(exc).__name__) from None
        try:
            await client.send_message(email)
        except aiosmtplib.SMTPRecipientsRefused as exc:
            # The server's reply, e.g. `550 5.1.1 no such user` (the job's `error.detail`).
            refusals = "; ".join(f"{r.code} {r.message}" for r in exc.recipients)
            throttled = [t for r in exc.recipients if (t := _throttled(r.code, r.message))]
            if throttled and len(throttled) == len(exc.recipients):  # every refusal says "slow down"
                raise throttled[0] from None
            raise ChannelError("recipient_not_found", refusals or None) from None
        except (aiosmtplib.SMTPSenderRefused, aiosmtplib.SMTPDataError) as exc:
            throttle = _throttled(exc.code, exc.message)
            raise throttle or ChannelError("provider_rejected", f"{exc.code} {exc.message}") from None
        except (aiosmtplib.SMTPException, OSError) as exc:
            # Cut or timed out mid-transaction: the server may have queued the message already.
            raise ChannelError("provider_error", type(exc).__name__, sent_unknown=True) from None
        finally:
            client.close()
        return DeliveryReceipt(
            kind="message",
            provider="smtp",
            provider_message_id=str(email["Message-ID"]),
            delivered_at=utcnow(),
        )


# RFC 3463 class 4, subject 7 (security or policy status): "4.7.0 try again later", Gmail's "4.7.28 our
# system has detected an unusual rate of unsolicited mail".
_POLICY_DEFERRAL = re.compile(r"^\s*4\.7\.\d{1,3}\b")


def _throttled(code: int, message: str) -> ChannelError | None:
    """The server asking the sender to slow down (reply 421, or an enhanced status 4.7.x), as a pause."""
    if code == 421 or _POLICY_DEFERRAL.match(message or ""):
        return ChannelError(
            "provider_rate_limited", f"{code} {message}", pause_seconds=RATE_LIMIT_PAUSE_SECONDS
        )
    return None
