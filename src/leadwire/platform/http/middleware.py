"""ASGI middleware: request ids, access logs, metrics, the request's own limits and the last-resort 500.

Written as plain ASGI (not BaseHTTPMiddleware) so streaming responses (SSE) pass through untouched.
Before the app sees a request it checks what holds for every route: the Host header, NUL characters in
the path or query, a declared body over the path's limit. While the body streams in it enforces the
same limit and a read timeout; every response gets the request id and the security headers.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Sequence
from typing import Any
from urllib.parse import unquote_to_bytes

import orjson
from prometheus_client import Counter, Histogram
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from leadwire.platform.body_limits import body_limit_for, size_text
from leadwire.platform.errors import ApiError
from leadwire.platform.http.envelope import error_body
from leadwire.platform.http.retry import answered_again, attempts
from leadwire.platform.ids import new_id
from leadwire.platform.request_context import key_id_var, request_id_var
from leadwire.platform.validation import NUL_DETAIL

access_log = logging.getLogger("leadwire.access")
log = logging.getLogger("leadwire")

REQUESTS = Counter("leadwire_http_requests_total", "HTTP requests", ["method", "route", "status"])
LATENCY = Histogram(
    "leadwire_http_request_duration_seconds",
    "HTTP request latency",
    ["method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
# A request answered again from a fresh database connection (`platform.http.retry`) is one request above,
# with the status its client got; its first attempt, whose 503 never went out, is counted here.
RETRIED = Counter(
    "leadwire_requests_retried_total",
    "Requests answered again from a fresh database connection after their first attempt lost it",
    ["method", "route"],
)
# Recorded (log line and metric) for a client that went away before its response: not a server error.
CLIENT_CLOSED = 499
# Paths a load balancer probes by address: they answer whatever the Host header says.
HOST_EXEMPT = frozenset({"/healthz", "/readyz", "/metrics"})

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-resource-policy", b"same-origin"),
)
# JSON answers load nothing and are never framed.
API_CSP = (b"content-security-policy", b"default-src 'none'; frame-ancestors 'none'")
# The API reference pages (`platform.docs_pages`) and their assets: scripts, styles and the OpenAPI
# document from this origin only, no inline script and no eval. Styles may be inline (both pages set
# style attributes and ReDoc writes its style sheets at run time), images may be data: URIs (Swagger
# UI's icons), and ReDoc's search runs in a worker it makes from a blob: URL.
DOCS_CSP = (
    b"content-security-policy",
    b"default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    b"connect-src 'self'; worker-src blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
)
DOCS_PATHS = ("/docs", "/redoc")
DOCS_ASSETS = "/docs/"


class PayloadTooLarge(ApiError):
    """413 naming the path's limit, and the body's size when its Content-Length declared it."""

    def __init__(self, limit: int, size: int | None = None) -> None:
        sent = f"; this one declared {size} bytes" if size is not None else ""
        super().__init__(
            "request_payload_too_large", detail=f"this endpoint accepts bodies up to {size_text(limit)}{sent}"
        )


class BodyTimeout(ApiError):
    def __init__(self, seconds: float) -> None:
        super().__init__("request_timeout", detail=f"the request body did not arrive within {seconds:g} s")


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


async def send_error(send: Send, exc: ApiError) -> None:
    headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in exc.headers.items()]
    await send_json(send, exc.status, error_body(exc.code, param=exc.param, detail=exc.detail), headers)


class RequestContextMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        *,
        allowed_hosts: Sequence[str] = ("*",),
        body_timeout_seconds: float = 30.0,
    ) -> None:
        self.app = app
        self.allowed_hosts = frozenset(h.lower() for h in allowed_hosts)
        self.body_timeout_seconds = body_timeout_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        tried = attempts(scope)
        if tried is not None and tried.second and tried.request_id and tried.started is not None:
            # Answered again: the same request to its client, so the same id and the time since it came.
            request_id, started, again = tried.request_id, tried.started, True
        else:
            request_id, started, again = new_id("req"), time.perf_counter(), False
            if tried is not None:
                tried.request_id, tried.started = request_id, started
        request_id_var.set(request_id)
        key_id_var.set(None)
        scope.setdefault("state", {})
        status_holder = {"status": 500, "started": False}
        csp = _csp(scope.get("path", ""))

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                status_holder["status"] = message["status"]
                status_holder["started"] = True
                headers = list(message.get("headers", []))
                headers.append((b"x-request-id", request_id.encode()))
                present = {h[0].lower() for h in headers}
                for name, value in scope["state"].get("leadwire_headers", {}).items():
                    raw_name = _header_name(name)
                    if raw_name not in present:
                        headers.append((raw_name, value.encode("latin-1")))
                headers.extend(h for h in (*SECURITY_HEADERS, csp) if h[0] not in present)
                if b"cache-control" not in present:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        try:
            refusal = self._refusal(scope)
            if refusal is not None:
                # Known from the request line and headers: answer before reading a byte of the body.
                await send_error(send_wrapper, refusal)
                return
            await self.app(scope, self._guarded_receive(scope, receive), send_wrapper)
        except ClientDisconnect:
            status_holder["status"] = CLIENT_CLOSED
        except ApiError as exc:  # raised by the body guards outside FastAPI's handlers (mounted apps)
            if not status_holder["started"]:
                await send_error(send_wrapper, exc)
        except Exception:
            log.exception("unhandled error", extra={"request_id": request_id})
            if not status_holder["started"]:
                await send_json(send_wrapper, 500, error_body("internal_error"), [])
        finally:
            if answered_again(scope):  # its 503 was held back: the answer is the next attempt's
                RETRIED.labels(scope.get("method", ""), _route_template(scope)).inc()
            else:
                status = int(status_holder["status"])
                self._record(scope, request_id, status, time.perf_counter() - started, again=again)

    def _refusal(self, scope: Scope) -> ApiError | None:
        path: str = scope.get("path", "")
        if "*" not in self.allowed_hosts and path not in HOST_EXEMPT:
            host = _host(scope)
            if host not in self.allowed_hosts:
                return ApiError(
                    "invalid_request", param="Host", detail="this server does not answer to that host"
                )
        if "\x00" in path or b"\x00" in unquote_to_bytes(scope.get("query_string", b"")):
            return ApiError("invalid_request", param="path" if "\x00" in path else "query", detail=NUL_DETAIL)
        declared, limit = _declared_length(scope), body_limit_for(path)
        if declared > limit:
            return PayloadTooLarge(limit, declared)
        return None

    def _guarded_receive(self, scope: Scope, receive: Receive) -> Receive:
        """Counts the body as it streams in (chunked uploads declare no length) and stops past the limit;
        a body that stalls longer than the read timeout ends the request with 408."""
        limit = body_limit_for(scope.get("path", ""))
        timeout = self.body_timeout_seconds
        received = 0
        body_complete = False

        async def guarded() -> Message:
            nonlocal received, body_complete
            if body_complete:
                # After the body only a disconnect can come: waiting for it is not a read of the body.
                return await receive()
            try:
                async with asyncio.timeout(timeout):
                    message = await receive()
            except TimeoutError:
                raise BodyTimeout(timeout) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise PayloadTooLarge(limit)
                body_complete = not message.get("more_body", False)
            elif message["type"] == "http.disconnect":
                body_complete = True
            return message

        return guarded

    def _record(self, scope: Scope, request_id: str, status: int, seconds: float, *, again: bool) -> None:
        route = _route_template(scope)
        method = scope.get("method", "")
        counter, histogram = _series(method, route, status)
        counter.inc()
        histogram.observe(seconds)
        access_log.info(
            "request" if status != CLIENT_CLOSED else "client disconnected before the response",
            extra={
                "request_id": request_id,
                "method": method,
                "route": route,
                "status": status,
                "duration_ms": round(seconds * 1000, 2),
                "key_id": scope["state"].get("key_id") or key_id_var.get(),
                "attempts": 2 if again else None,
            },
        )


_SERIES: dict[tuple[str, str, int], tuple[Any, Any]] = {}
_SERIES_CACHED = 4096  # routes are templates, but a method is whatever a client sends


def _series(method: str, route: str, status: int) -> tuple[Any, Any]:
    """The request's counter and latency series; `labels()` takes a lock and builds a key per call, a
    noticeable share of a job poll, so each series is looked up once."""
    found = _SERIES.get((method, route, status))
    if found is None:
        found = (REQUESTS.labels(method, route, str(status)), LATENCY.labels(method, route))
        if len(_SERIES) < _SERIES_CACHED:
            _SERIES[(method, route, status)] = found
    return found


def _csp(path: str) -> tuple[bytes, bytes]:
    return DOCS_CSP if path in DOCS_PATHS or path.startswith(DOCS_ASSETS) else API_CSP


@functools.lru_cache(maxsize=256)
def _header_name(name: str) -> bytes:
    """A header name as it goes on the wire; the same few (rate limits, Retry-After) on every response."""
    return name.lower().encode("latin-1")


def _host(scope: Scope) -> str:
    for name, value in scope.get("headers", []):
        if name == b"host":
            host = value.decode("latin-1").strip().lower()
            if host.startswith("["):  # [::1]:8000
                return host.split("]", 1)[0] + "]"
            return host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return ""


def _declared_length(scope: Scope) -> int:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return 0
    return 0
