"""A real SMTP server on loopback (aiosmtpd) that keeps what it accepts, for the email tests."""

from __future__ import annotations

import email
from collections.abc import Iterator
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, Envelope, LoginPassword, Session

from tests.support.processes import free_port


class Inbox:
    """An SMTP handler that keeps what it accepts, refuses one address (a hard bounce) and throttles two
    (`throttled@` at RCPT, `slowdown@` at the end of DATA, as Gmail's 421 4.7.28 does)."""

    def __init__(self) -> None:
        self.messages: list[tuple[Envelope, Message]] = []

    async def handle_RCPT(
        self, server: Any, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if address.startswith("nobody@"):
            return "550 5.1.1 no such user"
        if address.startswith("throttled@"):
            return "450 4.7.1 Recipient address rejected: rate limited, try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Session, envelope: Envelope) -> str:
        assert isinstance(envelope.content, bytes)
        if any(to.startswith("slowdown@") for to in envelope.rcpt_tos):
            return "421 4.7.28 Our system has detected an unusual rate of unsolicited mail"
        self.messages.append((envelope, email.message_from_bytes(envelope.content)))
        return "250 Message accepted"


def _authenticator(
    server: Any, session: Session, envelope: Envelope, mechanism: str, auth_data: Any
) -> AuthResult:
    ok = (
        isinstance(auth_data, LoginPassword)
        and auth_data.login == b"sender"
        and auth_data.password == b"right"
    )
    # handled=False: aiosmtpd then answers a failure with 535 itself (its default sends nothing).
    return AuthResult(success=ok, handled=False)


@pytest.fixture
def smtp_server() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(
        inbox,
        hostname="127.0.0.1",
        port=port,
        authenticator=_authenticator,
        auth_require_tls=False,
    )
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()
