"""ASGI middleware: request ids, access logs, metrics, body size limits and the last-resort 500.

Written as plain ASGI (not BaseHTTPMiddleware) so streaming responses (SSE) pass through untouched.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import orjson
from prometheus_client import Counter, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from leadwire.platform.context import key_id_var, request_id_var
from leadwire.platform.envelope import error_body
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.limits import body_limit_for

access_log = logging.getLogger("leadwire.access")
log = logging.getLogger("leadwire")

REQUESTS = Counter("leadwire_http_requests_total", "HTTP requests", ["method", "route", "status"])
LATENCY = Histogram(
    "leadwire_http_request_duration_seconds",
    "HTTP request latency",
    ["method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)


class PayloadTooLarge(ApiError):
    def __init__(self) -> None:
        super().__init__("request_payload_too_large")


def _route_template(scope: Scope) -> str:
    route = scope.get("route")
    path = getattr(route, "path", None)
    return str(path) if path else "unmatched"


async def send_json(
    send: Send, status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]]
) -> None:
    """A complete JSON response at the ASGI level (for code that runs outside FastAPI's handlers)."""
    payload = orjson.dumps(body)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


class RequestContextMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = new_id("req")
        request_id_var.set(request_id)
        key_id_var.set(None)
        scope.setdefault("state", {})
        started = time.perf_counter()
        status_holder = {"status": 500, "started": False}

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                status_holder["status"] = message["status"]
                status_holder["started"] = True
                headers = list(message.get("headers", []))
                headers.append((b"x-request-id", request_id.encode()))
                for name, value in scope["state"].get("leadwire_headers", {}).items():
                    if not any(h[0].lower() == name.lower().encode() for h in headers):
                        headers.append((name.encode(), value.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            if _declared_too_large(scope):
                # Known from the headers: answer before reading a byte of the body.
                await send_json(send_wrapper, 413, error_body("request_payload_too_large"), [])
                return
            await self.app(scope, _limited_receive(scope, receive), send_wrapper)
        except Exception:
            log.exception("unhandled error", extra={"request_id": request_id})
            if not status_holder["started"]:
                await send_json(send_wrapper, 500, error_body("internal_error"), [])
        finally:
            self._record(scope, request_id, int(status_holder["status"]), time.perf_counter() - started)

    def _record(self, scope: Scope, request_id: str, status: int, seconds: float) -> None:
        route = _route_template(scope)
        method = scope.get("method", "")
        REQUESTS.labels(method, route, str(status)).inc()
        LATENCY.labels(method, route).observe(seconds)
        access_log.info(
            "request",
            extra={
                "request_id": request_id,
                "method": method,
                "route": route,
                "status": status,
                "duration_ms": round(seconds * 1000, 2),
                "key_id": scope["state"].get("key_id") or key_id_var.get(),
            },
        )


def _declared_too_large(scope: Scope) -> bool:
    limit = body_limit_for(scope.get("path", ""))
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value) > limit
            except ValueError:
                return False
    return False


def _limited_receive(scope: Scope, receive: Receive) -> Receive:
    """Counts the body as it streams in (chunked uploads declare no length) and stops past the limit."""
    limit = body_limit_for(scope.get("path", ""))
    received = 0

    async def counting_receive() -> Message:
        nonlocal received
        message = await receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > limit:
                raise PayloadTooLarge()
        return message

    return counting_receive
