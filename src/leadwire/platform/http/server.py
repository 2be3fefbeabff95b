"""The HTTP/1.1 server below the ASGI app: uvicorn's httptools protocol with the limits a server facing
the Internet needs, and every refusal a JSON error envelope.

- Request line and headers over `LEADWIRE_MAX_HEADER_BYTES` → 431 `request_header_fields_too_large`.
- Headers not complete within `LEADWIRE_HEADER_TIMEOUT_SECONDS` of the connection opening or of a new
  request's first byte (a slowloris, or a connection that sends nothing) → 408 `request_timeout`.
- Malformed framing → 400 `invalid_request` instead of uvicorn's plain-text line.

Each refusal closes the connection and logs one line without the request's bytes. Idle keep-alive
connections between requests stay uvicorn's own `timeout_keep_alive` business.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson
import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from leadwire.config import Settings
from leadwire.platform.errors import CATALOGUE
from leadwire.platform.ids import new_id

log = logging.getLogger("leadwire.access")

_REASONS = {400: b"Bad Request", 408: b"Request Timeout", 431: b"Request Header Fields Too Large"}


class _Refused(Exception):
    """Raised from a parser callback; httptools turns it into a parser error, answered with `code`."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail


def error_response(code: str, detail: str) -> bytes:
    """A complete HTTP/1.1 response carrying the error envelope, closing the connection."""
    request_id = new_id("req")
    status = CATALOGUE[code]
    body = orjson.dumps(
        {"ok": False, "error": {"code": code, "message": code, "request_id": request_id, "detail": detail}}
    )
    head = [
        b"HTTP/1.1 %d %s" % (status, _REASONS[status]),
        b"content-type: application/json",
        b"content-length: %d" % len(body),
        b"x-request-id: " + request_id.encode(),
        b"connection: close",
    ]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    header_timeout_seconds: float = 10.0
    max_header_bytes: int = 32768

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_bytes = 0
        self._header_timer: asyncio.TimerHandle | None = None
        self._refusal: _Refused | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_timer()  # a new connection must send its headers in time, or go

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_timer()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._header_bytes = 0
        self._arm_header_timer()

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._disarm_header_timer()
        super().on_headers_complete()

    def send_400_response(self, msg: str) -> None:
        refusal = self._refusal or _Refused("invalid_request", "malformed HTTP request")
        self._refuse(refusal.code, refusal.detail)

    def _count(self, size: int) -> None:
        self._header_bytes += size
        if self._header_bytes > self.max_header_bytes:
            self._refusal = _Refused(
                "request_header_fields_too_large",
                f"request line and headers exceed {self.max_header_bytes} bytes",
            )
            raise self._refusal

    def _arm_header_timer(self) -> None:
        self._disarm_header_timer()
        self._header_timer = self.loop.call_later(self.header_timeout_seconds, self._on_header_timeout)

    def _disarm_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _on_header_timeout(self) -> None:
        self._header_timer = None
        detail = f"the request headers did not arrive within {self.header_timeout_seconds:g} s"
        self._refuse("request_timeout", detail)

    def _refuse(self, code: str, detail: str) -> None:
        self._disarm_header_timer()
        if self.transport is None or self.transport.is_closing():
            return
        log.warning("refused before the app: %s", code, extra={"status": CATALOGUE[code]})
        self.transport.write(error_response(code, detail))
        self.transport.close()


def protocol_class(settings: Settings) -> type[GuardedHttpToolsProtocol]:
    """The protocol with this deployment's limits (uvicorn instantiates the class it is given)."""
    attributes = {
        "header_timeout_seconds": settings.header_timeout_seconds,
        "max_header_bytes": settings.max_header_bytes,
    }
    return type("LeadwireHttpProtocol", (GuardedHttpToolsProtocol,), attributes)


def uvicorn_config(app: Any, settings: Settings, *, host: str, port: int, **overrides: Any) -> uvicorn.Config:
    options: dict[str, Any] = {
        "http": protocol_class(settings),
        # X-Forwarded-Proto and X-Forwarded-For count from these peers only (`LEADWIRE_TRUSTED_PROXIES`),
        # never from uvicorn's own FORWARDED_ALLOW_IPS: the scheme and client address the app sees.
        "proxy_headers": True,
        "forwarded_allow_ips": settings.trusted_proxy_list,
        "log_config": None,
        "access_log": False,
        "lifespan": "on",
        "timeout_graceful_shutdown": int(settings.shutdown_grace_seconds) + 5,
    }
    return uvicorn.Config(app, host=host, port=port, **{**options, **overrides})
