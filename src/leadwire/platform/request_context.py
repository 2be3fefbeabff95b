"""Per-request context carried in contextvars: the request id and the caller's key id for logs."""

from __future__ import annotations

from contextvars import ContextVar

from leadwire.platform.ids import new_id

request_id_var: ContextVar[str | None] = ContextVar("leadwire_request_id", default=None)
key_id_var: ContextVar[str | None] = ContextVar("leadwire_key_id", default=None)


def current_request_id() -> str:
    value = request_id_var.get()
    if value is None:
        value = new_id("req")
        request_id_var.set(value)
    return value
