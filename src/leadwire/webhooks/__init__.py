"""Webhooks: signed events pushed to an account's own endpoints. A receiver checks a delivery with
`leadwire.webhooks.verify(payload, headers, secret)` (the Standard Webhooks scheme)."""

from leadwire.client.webhooks import WebhookVerificationError, verify

__all__ = ["WebhookVerificationError", "verify"]
