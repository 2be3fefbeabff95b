"""HTTP of the console: server-rendered pages under /console (no JavaScript needed to read them).

Sign-in exchanges an API key for a session cookie (HTTP-only, SameSite=Strict, Secure over HTTPS, path
/console); every form carries a CSRF token checked against the session's (the sign-in form, a token of
its own in a cookie). Pages render from the services the API uses (`pages.py`)."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response

from leadwire.console import pages, sessions, web
from leadwire.outreach.operations import READ as OUTREACH_READ
from leadwire.platform.errors import ApiError
from leadwire.platform.http import Session
from leadwire.platform.runtime import Runtime, get_runtime

router = APIRouter(prefix="/console", include_in_schema=False)
# The style sheet and the live-update script, served by a route (a router's mounts are not carried into
# the app); read once, at import.
_STATIC = {
    name: ((web.HERE / "static" / name).read_bytes(), media)
    for name, media in (("console.css", "text/css"), ("console.js", "text/javascript"))
}


@router.get("/static/{name}")
async def static_file(name: str) -> Response:
    if name not in _STATIC:
        return Response(status_code=404, headers=web.SECURITY_HEADERS)
    body, media_type = _STATIC[name]
    return Response(body, media_type=media_type, headers={"Cache-Control": "public, max-age=3600"})


@router.get("/sign-in")
async def sign_in_form(request: Request, runtime: Runtime = Depends(get_runtime)) -> HTMLResponse:
    csrf = secrets.token_urlsafe(24)
    response = web.page("sign_in.html", title="Sign in", signed_in=False, csrf=csrf, error=None)
    web.set_cookie(request, runtime.settings, response, web.SIGN_IN_COOKIE, csrf, 600)
    return response


@router.post("/sign-in")
async def sign_in(
    request: Request,
    session: Session,
    api_key: str = Form(default="", max_length=200),
    csrf: str = Form(default="", max_length=100),
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    if not sessions.csrf_ok(request.cookies.get(web.SIGN_IN_COOKIE, ""), csrf):
        return web.expired_form()
    client = request.client.host if request.client else None
    try:
        token, _ = await sessions.sign_in(session, runtime, api_key, client)
    except ApiError as refused:
        again = secrets.token_urlsafe(24)
        response = web.page(
            "sign_in.html",
            401,
            title="Sign in",
            signed_in=False,
            csrf=again,
            error=refused.detail or refused.code,
        )
        web.set_cookie(request, runtime.settings, response, web.SIGN_IN_COOKIE, again, 600)
        return response
    signed: Response = web.to("/console")
    web.set_cookie(
        request, runtime.settings, signed, web.SESSION_COOKIE, token, sessions.SESSION_HOURS * 3600
    )
    signed.delete_cookie(web.SIGN_IN_COOKIE, path="/console")
    return signed


@router.post("/sign-out")
async def sign_out(
    request: Request,
    session: Session,
    csrf: str = Form(default="", max_length=100),
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    token = request.cookies.get(web.SESSION_COOKIE)
    current = await web.signed_in(request, session, runtime)
    if current is not None and not sessions.csrf_ok(current.csrf_token, csrf):
        return web.expired_form()
    await sessions.sign_out(session, token)
    response = web.to(web.SIGN_IN)
    response.delete_cookie(web.SESSION_COOKIE, path="/console")
    return response


@router.get("")
async def overview(request: Request, session: Session, runtime: Runtime = Depends(get_runtime)) -> Response:
    current = await web.admit(request, session, runtime)
    if isinstance(current, Response):
        return current
    return web.signed_page(
        current, "overview.html", title="Overview", **await pages.overview(session, current.caller)
    )


@router.get("/outreach")
async def outreach_page(
    request: Request, session: Session, before: str | None = None, runtime: Runtime = Depends(get_runtime)
) -> Response:
    current = await web.admit(request, session, runtime, OUTREACH_READ, title="Outreach")
    if isinstance(current, Response):
        return current
    shown = await pages.outreach(session, current.caller, before)
    return web.signed_page(current, "outreach.html", title="Outreach", **shown)


@router.get("/jobs")
async def jobs_page(
    request: Request,
    session: Session,
    status: str | None = None,
    cursor: str | None = None,
    done: str | None = None,
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    current = await web.admit(request, session, runtime)
    if isinstance(current, Response):
        return current
    shown = await pages.jobs(session, runtime, current.caller, status=status or None, cursor=cursor)
    message = f"Job {done} cancelled." if done and done.startswith("job_") else None
    return web.signed_page(current, "jobs.html", title="Jobs", message=message, **shown)


@router.post("/jobs/{job_id}/cancel")
async def cancel_job(
    request: Request,
    session: Session,
    job_id: str,
    csrf: str = Form(default="", max_length=100),
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    current = await web.admit(request, session, runtime, csrf=csrf)
    if isinstance(current, Response):
        return current
    cancelled = await web.act(session, pages.cancel(session, runtime, current.caller, job_id))
    if isinstance(cancelled, ApiError):
        shown = await pages.jobs(session, runtime, current.caller, status=None, cursor=None)
        message = web.refusal_message("Not cancelled", cancelled)
        return web.signed_page(current, "jobs.html", cancelled.status, title="Jobs", message=message, **shown)
    return web.to(f"/console/jobs?done={job_id}")
