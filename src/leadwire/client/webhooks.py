"""Standard Webhooks signatures (standardwebhooks.com): how Leadwire signs each delivery and how a
receiver checks one. The scheme is written once, here, with the standard library only: the server signs
with `sign`, and a receiver calls `verify` (also as `leadwire.webhooks.verify`), or any Standard
Webhooks library in any language.

A delivery carries `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (unix
seconds) and `webhook-signature`: space-separated `v1,<base64 HMAC-SHA256>` of
`"{webhook-id}.{webhook-timestamp}.{body}"`, keyed with the secret's decoded bytes (the part after
`whsec_`). Two signatures appear while a rotated secret's predecessor still signs.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from collections.abc import Iterable, Mapping

SECRET_PREFIX = "whsec_"
TOLERANCE_SECONDS = 5 * 60


class WebhookVerificationError(Exception):
    """The payload was not signed by a holder of the secret, or is too old or too new to trust."""


def secret_bytes(secret: str) -> bytes:
    encoded = secret[len(SECRET_PREFIX) :] if secret.startswith(SECRET_PREFIX) else secret
    try:
        return base64.b64decode(encoded, validate=True)
    except ValueError:
        raise WebhookVerificationError("the secret is not whsec_ followed by base64") from None


def signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """`v1,<base64>`: one signature of the body with one secret."""
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(secret_bytes(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def sign(secrets: Iterable[str], message_id: str, timestamp: int, body: bytes) -> str:
    """The `webhook-signature` header: one signature per secret, space-separated."""
    return " ".join(signature(s, message_id, timestamp, body) for s in secrets)


def verify(
    payload: bytes | str,
    headers: Mapping[str, str],
    secret: str,
    *,
    tolerance_seconds: int = TOLERANCE_SECONDS,
    now: float | None = None,
) -> bytes:
    """Check a delivery exactly as received (the raw body, before any JSON parsing) against `secret`;
    returns the body. Raises `WebhookVerificationError` when no signature matches or the timestamp is
    more than `tolerance_seconds` away from now (a replayed old delivery)."""
    lowered = {k.lower(): v for k, v in headers.items()}
    message_id = lowered.get("webhook-id")
    stamp = lowered.get("webhook-timestamp")
    signatures = lowered.get("webhook-signature")
    if not message_id or not stamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
    try:
        timestamp = int(stamp)
    except ValueError:
        raise WebhookVerificationError("webhook-timestamp is not a number") from None
    if abs((time.time() if now is None else now) - timestamp) > tolerance_seconds:
        raise WebhookVerificationError("webhook-timestamp is outside the tolerance")
    body = payload.encode() if isinstance(payload, str) else payload
    expected = signature(secret, message_id, timestamp, body).encode()
    for candidate in signatures.split():
        if hmac.compare_digest(candidate.encode(), expected):
            return body
    raise WebhookVerificationError("no signature matches")
