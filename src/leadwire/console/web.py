"""What every console route shares: the templates, the page and redirect responses with their security
headers, the session cookie, the signed-in check, and the page a refusal renders (the API's code and
words, with the catalogue's status)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.config import Settings
from leadwire.console import sessions
from leadwire.platform.callers import Permission
from leadwire.platform.errors import ApiError
from leadwire.platform.http import authorize
from leadwire.platform.runtime import Runtime
from leadwire.platform.unit_of_work import discard

T = TypeVar("T")
HERE = Path(__file__).parent
SESSION_COOKIE = "lw_console"
SIGN_IN = "/console/sign-in"
SIGN_IN_COOKIE = "lw_console_signin"
templates = Environment(
    loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]), auto_reload=False
)
# A strict policy: nothing but the console's own files, no inline script, no framing.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


def page(template: str, http_status: int = 200, /, **context: Any) -> HTMLResponse:
    html = templates.get_template(template).render(**context)
    return HTMLResponse(html, status_code=http_status, headers=SECURITY_HEADERS)


def signed_page(
    current: sessions.SignedIn, template: str, http_status: int = 200, /, *, title: str, **context: Any
) -> HTMLResponse:
    """A page of the signed-in console: its navigation and sign-out form (with the session's token)."""
    return page(template, http_status, title=title, signed_in=True, csrf=current.csrf_token, **context)


def fragment(template: str, **context: Any) -> str:
    """A piece of a page (rows, a progress block) as the live stream sends it."""
    return templates.get_template(template).render(**context)


def to(path: str) -> RedirectResponse:
    return RedirectResponse(path, status_code=303, headers=SECURITY_HEADERS)


def set_cookie(
    request: Request, settings: Settings, response: Response, name: str, value: str, max_age: int
) -> None:
    """A console cookie: HTTP-only, SameSite=Strict, and Secure when the request came over https
    (as a proxy of `LEADWIRE_TRUSTED_PROXIES` says, or the socket) or the operator forces it
    (`LEADWIRE_CONSOLE_SECURE_COOKIES`)."""
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path="/console",
        httponly=True,
        samesite="strict",
        secure=settings.console_secure_cookies or request.url.scheme == "https",
    )


def expired_form() -> HTMLResponse:
    """403 for a form whose CSRF token is not the session's (or the sign-in cookie's)."""
    error = "The form expired: reload the page."
    return page("sign_in.html", 403, title="Sign in", signed_in=False, csrf="", error=error)


async def signed_in(request: Request, session: AsyncSession, runtime: Runtime) -> sessions.SignedIn | None:
    return await sessions.signed_in(session, runtime, request.cookies.get(SESSION_COOKIE))


def csrf_ok(current: sessions.SignedIn, given: str) -> bool:
    return sessions.csrf_ok(current.csrf_token, given)


def refused(current: sessions.SignedIn, error: ApiError, title: str) -> HTMLResponse:
    """The page of a refusal: the API's status, code and detail (a missing scope, a rate limit, an
    object of another account, which is not found)."""
    return signed_page(
        current, "refused.html", error.status, title=title, code=error.code, detail=error.detail
    )


async def admit(
    request: Request,
    session: AsyncSession,
    runtime: Runtime,
    permission: Permission | None = None,
    *,
    title: str = "Refused",
    csrf: str | None = None,
) -> sessions.SignedIn | Response:
    """Who may go on, or the response that stops them: no session leads to sign-in, a form whose
    token is not the session's is expired, and the permission is checked as the API checks it (scope,
    plan, rate limits; its refusal page). A page that reads several capabilities checks each part's
    scope itself (`permission=None`)."""
    current = await signed_in(request, session, runtime)
    if current is None:
        return to(SIGN_IN)
    if csrf is not None and not csrf_ok(current, csrf):
        return expired_form()
    if permission is not None:
        try:
            await authorize(runtime, current.caller, permission)
        except ApiError as error:
            return refused(current, error, title)
    return current


async def act(session: AsyncSession, action: Awaitable[T]) -> T | ApiError:
    """A form's action: its result, or its refusal, with what it half-wrote rolled back."""
    try:
        return await action
    except ApiError as refusal:
        await discard(session)
        return refusal


def refusal_message(not_done: str, refusal: ApiError) -> str:
    """The line a form shows above itself when refused: "Not created: <why> (<code>)"."""
    return f"{not_done}: {refusal.detail or refusal.code} ({refusal.code})"


def created_or_refused(outcome: T | ApiError) -> tuple[T | None, str | None, int]:
    """What a creation form's answer page shows: (what was created, no error, 201), or (nothing, the
    refusal's line, its status)."""
    if isinstance(outcome, ApiError):
        return None, refusal_message("Not created", outcome), outcome.status
    return outcome, None, 201


async def first_page_if_stale(read: Callable[[str | None], Awaitable[T]], cursor: str | None) -> T:
    """A page read from `cursor`, or the first page when the cursor is refused (edited by hand, or bound
    to another filter): a person following a link gets a page, not an error."""
    try:
        return await read(cursor)
    except ApiError:
        if cursor is None:
            raise
        return await read(None)
