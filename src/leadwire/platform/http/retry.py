"""A request whose database connection was lost is answered from a fresh one, once, before 503.

A database restart or a failover cuts every pooled connection; the first request to draw one fails
through no fault of its own. `RetryOnLostConnection` records the request as it is received; when the
app's answer is the 503 of a lost connection (`mark_retryable`, set by the database error handler, and
nothing of the response sent yet), it runs the request again with the same body. The failed attempt
rolled its transaction back and its idempotency claim is given back, so the second attempt starts
clean; a request that fails again is answered 503 as before.

The client sees one request, and so do the access log and the metrics: the second attempt keeps the
first one's request id and start time (`Attempts`), the first attempt's 503, which never goes out, is
not recorded as an answer (`answered_again`), and the retry is counted apart. The database error
handler gives the first attempt's rate-limit count back, so the key's budget counts it once too.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_HOLDER = "leadwire.retry"


@dataclass(slots=True)
class Attempts:
    """One request's attempts, shared by both through their scopes."""

    # The request id and start (perf_counter) of the first attempt, kept by the second.
    request_id: str | None = None
    started: float | None = None
    second: bool = False  # the attempt running now is the second: it is not tried again
    retry: bool = False  # the attempt's answer is the 503 of a lost connection
    swallowed: bool = False  # that 503 was held back: the request runs again


def attempts(scope: Scope) -> Attempts | None:
    """The request's attempts, when it is served behind `RetryOnLostConnection`."""
    found = scope.get(_HOLDER)
    return found if isinstance(found, Attempts) else None


def answered_again(scope: Scope) -> bool:
    """This attempt's answer never reached the client: the request is being answered again."""
    found = attempts(scope)
    return found is not None and found.swallowed and not found.second


def mark_retryable(request: Request) -> bool:
    """Called while answering a lost connection with 503: worth one more try, if it is the first.
    True when the request will be answered again (nothing of its response sent yet permitting)."""
    found = attempts(request.scope)
    if found is None or found.second:
        return False
    found.retry = True
    return True


class RetryOnLostConnection:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        received: list[Message] = []
        tried = Attempts()

        async def recording() -> Message:
            message = await receive()
            if message["type"] == "http.request":
                received.append(message)
            return message

        async def first_send(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 503 and tried.retry:
                tried.swallowed = True
            if not tried.swallowed:
                await send(message)

        await self.app(
            {**scope, _HOLDER: tried, "state": dict(scope.get("state") or {})}, recording, first_send
        )
        if not tried.swallowed:
            return
        replay = list(received)

        async def replaying() -> Message:
            if replay:
                return replay.pop(0)
            return await receive()

        # The second attempt's own 503, if it fails too, goes out as it is.
        tried.second = True
        await self.app({**scope, _HOLDER: tried, "state": dict(scope.get("state") or {})}, replaying, send)
