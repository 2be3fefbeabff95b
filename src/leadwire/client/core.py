"""What the sync and async clients share: request building, envelope parsing, the retry rule.

The guide's client procedures (docs/api.md, Idempotency keys): every POST that creates something
carries an Idempotency-Key (generated when the caller gives none) and a retry after a timeout or a
5xx/429 reuses the same key, so a retry can never create a second job; 429 and 503 are retried after
`Retry-After`; polling backs off from 2 to 5 seconds.
"""

from __future__ import annotations

import base64
import mimetypes
import os
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

import httpx

TERMINAL = ("succeeded", "failed", "cancelled")
DEFAULT_BASE_URL = "http://127.0.0.1:8000"
WAIT_MARGIN_SECONDS = 15.0
RETRY_STATUSES = (429, 502, 503, 504)
PAGE = "*"  # `Call.unwrap` for a list page: the envelope's `items` with its extras (cursors, checkpoint)


class LeadwireError(Exception):
    """An error envelope (or a transport failure, with `status` 0 and code `network_error`), with the
    request it answered (`method`, `url`) and, for a transport failure, its `cause`
    (`ConnectError: [Errno 111] Connection refused`)."""

    def __init__(
        self,
        status: int,
        code: str,
        *,
        request_id: str | None = None,
        param: str | None = None,
        detail: str | None = None,
        retry_after: float | None = None,
        method: str | None = None,
        url: str | None = None,
        cause: str | None = None,
    ) -> None:
        self.status, self.code, self.request_id = status, code, request_id
        self.param, self.detail, self.retry_after = param, detail, retry_after
        self.method, self.url, self.cause = method, url, cause
        super().__init__(self._text())

    def _text(self) -> str:
        """`404 task_not_found (job_id): detail [GET http://…/api/v2/jobs/x]`, then the cause if any."""
        text = f"{self.status} {self.code}" + (f" ({self.param})" if self.param else "")
        text += f": {self.detail}" if self.detail else ""
        if self.url is not None:
            text += f" [{self.method} {self.url}]"
        return text + (f" caused by {self.cause}" if self.cause else "")


def _request_of(source: httpx.Response | httpx.TransportError) -> tuple[str | None, str | None]:
    """The method and URL of the request a response or a transport failure belongs to (None, None for
    one built without a request, as some test doubles are)."""
    try:
        request = source.request
    except RuntimeError:
        return None, None
    return request.method, str(request.url)


def transport_error(exc: httpx.TransportError) -> LeadwireError:
    """`0 network_error` for a request that got no answer, naming the request and why."""
    method, url = _request_of(exc)
    return LeadwireError(0, "network_error", method=method, url=url, cause=_cause(exc))


def _cause(exc: BaseException) -> str:
    """`ConnectError: …`, plus the root of its chain when that says more: the async transport's own
    message is `All connection attempts failed`, the refusal itself is the OS error underneath."""
    text = _named(exc)
    root = exc
    for _ in range(16):  # a chain is short; the bound only guards against a cyclic one
        below = root.__cause__ or root.__context__
        if below is None:
            break
        root = below
    if root is not exc and str(root) and str(root) not in text:
        text += f" ({_named(root)})"
    return text


def _named(exc: BaseException) -> str:
    return type(exc).__name__ + (f": {exc}" if str(exc) else "")


@dataclass(frozen=True)
class Call:
    method: str
    path: str
    json: dict[str, Any] | None = None
    params: dict[str, Any] | None = None
    headers: dict[str, str] | None = None
    content: bytes | None = None  # a body that is not JSON (a CSV import)
    unwrap: str = "item"  # the part of the success envelope the caller gets
    timeout: float | None = None  # seconds for this call when it must outlast the client's default

    def pick(self, body: dict[str, Any]) -> Any:
        """The part of the success envelope the caller gets (the whole page, less `ok`, for PAGE)."""
        if self.unwrap == PAGE:
            return {key: value for key, value in body.items() if key != "ok"}
        return body[self.unwrap]

    @property
    def request(self) -> dict[str, Any]:
        """The keyword arguments of `httpx.Client.request` for this call."""
        arguments: dict[str, Any] = {
            "method": self.method,
            "url": self.path,
            "json": self.json,
            "params": self.params,
            "headers": self.headers,
        }
        if self.content is not None:
            arguments["content"] = self.content
        if self.timeout is not None:
            arguments["timeout"] = self.timeout
        return arguments


def creation(path: str, body: dict[str, Any], *, idempotency_key: str | None, wait: int | None) -> Call:
    headers = {"Idempotency-Key": idempotency_key or f"sdk-{uuid.uuid4()}"}
    timeout = None
    if wait is not None:
        headers["Prefer"] = f"wait={wait}"
        timeout = max(30.0, wait + WAIT_MARGIN_SECONDS)  # the server may hold the answer `wait` seconds
    body = {k: v for k, v in body.items() if v is not None}
    return Call("POST", path, json=body, headers=headers, timeout=timeout)


def attachment_from_file(path: str | os.PathLike[str], content_type: str | None = None) -> dict[str, str]:
    """An attachment object for `dispatch` (`{filename, contentBase64, contentType}`) from a file."""
    data = Path(path).read_bytes()
    name = Path(path).name
    guessed = content_type or mimetypes.guess_type(name)[0] or "application/octet-stream"
    return {"filename": name, "contentBase64": base64.b64encode(data).decode(), "contentType": guessed}


def auth_headers(api_key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}", "User-Agent": "leadwire-python/0.1"}


def parse(response: httpx.Response) -> dict[str, Any]:
    method, url = _request_of(response)
    try:
        body: dict[str, Any] = response.json()
    except ValueError:
        raise LeadwireError(response.status_code, "invalid_response", method=method, url=url) from None
    if body.get("ok") is True:
        return body
    error = body.get("error") or {}
    retry_after = response.headers.get("retry-after")
    raise LeadwireError(
        response.status_code,
        str(error.get("code", "unknown_error")),
        request_id=error.get("request_id"),
        param=error.get("param"),
        detail=error.get("detail"),
        retry_after=float(retry_after) if retry_after and retry_after.isdigit() else None,
        method=method,
        url=url,
    )


H = TypeVar("H", httpx.Client, httpx.AsyncClient)
# One attempt's answer: the response, or the transport failure that left the request without one.
Answer = httpx.Response | httpx.TransportError


class Connection(Generic[H]):
    """How both clients are built: one httpx client with the key's headers, and the retry budget."""

    _http: H

    def __init__(
        self,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        timeout: float = 30.0,
        max_retries: int = 3,
        transport: httpx.BaseTransport | httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._http = self._open(base_url, auth_headers(api_key), timeout, transport)
        self._max_retries = max_retries

    def _open(self, base_url: str, headers: dict[str, str], timeout: float, transport: Any) -> H:
        raise NotImplementedError

    def _settle(self, response: Answer, attempt: int) -> tuple[dict[str, Any] | None, float]:
        """One attempt's outcome: the success envelope, or the seconds to wait before retrying; raises
        the error when it is not worth retrying. `response` is the transport failure when there was no
        answer."""
        try:
            if isinstance(response, httpx.TransportError):
                raise transport_error(response)
            return parse(response), 0.0
        except LeadwireError as error:
            delay = should_retry(error, attempt, self._max_retries)
            if delay is None:
                raise
            return None, delay

    def _refused(self, response: Answer, attempt: int) -> float:
        """A stream that did not open (`response` already read, or the transport failure): the seconds
        to wait before trying again; raises the error when it is not worth retrying."""
        body, delay = self._settle(response, attempt)
        if body is not None and isinstance(response, httpx.Response):  # JSON where a stream was expected
            method, url = _request_of(response)
            raise LeadwireError(response.status_code, "invalid_response", method=method, url=url)
        return delay


def should_retry(error: LeadwireError, attempt: int, max_retries: int) -> float | None:
    """Seconds to wait before the next attempt, or None to give up."""
    if attempt >= max_retries or error.code == "action_failed":  # Leadwire's own 502 is an answer
        return None
    if error.status == 0 or error.status in RETRY_STATUSES:
        return error.retry_after if error.retry_after is not None else min(8.0, 0.5 * 2**attempt)
    return None


def poll_delay(attempt: int) -> float:
    """2 s, then 3, 4, 5, 5 ... (docs/api.md, Jobs and their statuses: poll every 2-5 s)."""
    return min(5.0, 2.0 + attempt)
