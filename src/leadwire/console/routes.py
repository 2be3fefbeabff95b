"""HTTP of the console: server-rendered pages under /console (no JavaScript needed to read them).

Sign-in exchanges an API key for a session cookie (HTTP-only, SameSite=Strict, Secure over HTTPS, path
/console); every form carries a CSRF token checked against the session's (the sign-in form, a token of
its own in a cookie). Pages render from the services the API uses (`pages.py`)."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.console import pages, sessions
from leadwire.platform.errors import ApiError
from leadwire.platform.http import Session
from leadwire.platform.runtime import Runtime, get_runtime

HERE = Path(__file__).parent
SESSION_COOKIE = "lw_console"
SIGN_IN = "/console/sign-in"
SIGN_IN_COOKIE = "lw_console_signin"
_templates = Environment(
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

router = APIRouter(prefix="/console", include_in_schema=False)
# The style sheet, served by a route (a router's mounts are not carried into the app).
_STYLE = (HERE / "static" / "console.css").read_bytes()


@router.get("/static/console.css")
async def style() -> Response:
    return Response(_STYLE, media_type="text/css", headers={"Cache-Control": "public, max-age=3600"})


def _page(template: str, http_status: int = 200, /, **context: Any) -> HTMLResponse:
    html = _templates.get_template(template).render(**context)
    return HTMLResponse(html, status_code=http_status, headers=SECURITY_HEADERS)


def _to(path: str) -> RedirectResponse:
    return RedirectResponse(path, status_code=303, headers=SECURITY_HEADERS)


def _set_cookie(request: Request, response: Response, name: str, value: str, max_age: int) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path="/console",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


def _expired_form() -> HTMLResponse:
    """403 for a form whose CSRF token is not the session's (or the sign-in cookie's)."""
    error = "The form expired: reload the page."
    return _page("sign_in.html", 403, title="Sign in", signed_in=False, csrf="", error=error)


async def _signed_in(request: Request, session: AsyncSession, runtime: Runtime) -> sessions.SignedIn | None:
    return await sessions.signed_in(session, runtime, request.cookies.get(SESSION_COOKIE))


@router.get("/sign-in")
async def sign_in_form(request: Request) -> HTMLResponse:
    csrf = secrets.token_urlsafe(24)
    response = _page("sign_in.html", title="Sign in", signed_in=False, csrf=csrf, error=None)
    _set_cookie(request, response, SIGN_IN_COOKIE, csrf, 600)
    return response


@router.post("/sign-in")
async def sign_in(
    request: Request,
    session: Session,
    api_key: str = Form(default="", max_length=200),
    csrf: str = Form(default="", max_length=100),
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    if not sessions.csrf_ok(request.cookies.get(SIGN_IN_COOKIE, ""), csrf):
        return _expired_form()
    client = request.client.host if request.client else None
    try:
        token, _ = await sessions.sign_in(session, runtime, api_key, client)
    except ApiError as refused:
        again = secrets.token_urlsafe(24)
        response = _page(
            "sign_in.html",
            401,
            title="Sign in",
            signed_in=False,
            csrf=again,
            error=refused.detail or refused.code,
        )
        _set_cookie(request, response, SIGN_IN_COOKIE, again, 600)
        return response
    signed: Response = _to("/console")
    _set_cookie(request, signed, SESSION_COOKIE, token, sessions.SESSION_HOURS * 3600)
    signed.delete_cookie(SIGN_IN_COOKIE, path="/console")
    return signed


@router.post("/sign-out")
async def sign_out(
    request: Request,
    session: Session,
    csrf: str = Form(default="", max_length=100),
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    token = request.cookies.get(SESSION_COOKIE)
    current = await _signed_in(request, session, runtime)
    if current is not None and not sessions.csrf_ok(current.csrf_token, csrf):
        return _expired_form()
    await sessions.sign_out(session, token)
    response = _to(SIGN_IN)
    response.delete_cookie(SESSION_COOKIE, path="/console")
    return response


@router.get("")
async def overview(request: Request, session: Session, runtime: Runtime = Depends(get_runtime)) -> Response:
    current = await _signed_in(request, session, runtime)
    if current is None:
        return _to(SIGN_IN)
    shown = await pages.overview(session, current.caller)
    return _page("overview.html", title="Overview", signed_in=True, csrf=current.csrf_token, **shown)


@router.get("/jobs")
async def jobs_page(
    request: Request,
    session: Session,
    status: str | None = None,
    cursor: str | None = None,
    done: str | None = None,
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    current = await _signed_in(request, session, runtime)
    if current is None:
        return _to(SIGN_IN)
    shown = await pages.jobs(session, runtime, current.caller, status=status or None, cursor=cursor)
    message = f"Job {done} cancelled." if done and done.startswith("job_") else None
    return _page("jobs.html", title="Jobs", signed_in=True, csrf=current.csrf_token, message=message, **shown)


@router.post("/jobs/{job_id}/cancel")
async def cancel_job(
    request: Request,
    session: Session,
    job_id: str,
    csrf: str = Form(default="", max_length=100),
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    current = await _signed_in(request, session, runtime)
    if current is None:
        return _to(SIGN_IN)
    if not sessions.csrf_ok(current.csrf_token, csrf):
        return _expired_form()
    try:
        await pages.cancel(session, runtime, current.caller, job_id)
    except ApiError as refused:
        shown = await pages.jobs(session, runtime, current.caller, status=None, cursor=None)
        code = {"task_not_found": 404, "job_already_running": 409}.get(refused.code, 403)
        return _page(
            "jobs.html", code, title="Jobs", signed_in=True, csrf=current.csrf_token,
            message=f"Not cancelled: {refused.detail or refused.code}", **shown,
        )  # fmt: skip
    return _to(f"/console/jobs?done={job_id}")
