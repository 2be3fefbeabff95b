"""HTTP of the console's prospect-list pages: the lists and a creation form, one list with its items and
evidence, its live stream (HTML fragments over SSE), Find More and the CSV export. Each action is
authorised as the API authorises it (scope, plan, rate limits) and runs the API's services."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import Response

from leadwire.console import web
from leadwire.console import websets_pages as pages
from leadwire.platform.errors import ApiError
from leadwire.platform.http import Session, owned_download, owned_stream, resume_point
from leadwire.platform.runtime import Runtime, get_runtime
from leadwire.platform.validation import int_param, whole_number
from leadwire.websets import export
from leadwire.websets.operations import READ, WRITE

router = APIRouter(prefix="/console/websets", include_in_schema=False)
TITLE = "Prospect lists"


def _number(text: str) -> int | str:
    """A form's number as the JSON body would carry it (text that is not one is left for the API's
    check to refuse with its code: "²" is text, as in a JSON body)."""
    number = whole_number(text)
    return text if number is None else number


@router.get("")
async def lists_page(
    request: Request, session: Session, cursor: str | None = None, runtime: Runtime = Depends(get_runtime)
) -> Response:
    current = await web.admit(request, session, runtime, READ, title=TITLE)
    if isinstance(current, Response):
        return current
    shown = await pages.lists(session, runtime, current.caller, cursor)
    return web.signed_page(current, "websets.html", title=TITLE, error=None, **shown)


@router.post("")
async def create(
    request: Request,
    session: Session,
    csrf: str = Form(default="", max_length=100),
    query: str = Form(default="", max_length=20_000),
    target_kind: str = Form(default="company", max_length=20),
    count: str = Form(default="25", max_length=10),
    title: str = Form(default="", max_length=1_000),
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    current = await web.admit(request, session, runtime, WRITE, title=TITLE, csrf=csrf)
    if isinstance(current, Response):
        return current
    form = {"query": query, "target_kind": target_kind, "count": _number(count)}
    if title.strip():
        form["title"] = title.strip()
    webset_id = await web.act(session, pages.create(session, runtime, current.caller, form))
    if isinstance(webset_id, ApiError):
        shown = await pages.lists(session, runtime, current.caller, None)
        message = web.refusal_message("Not created", webset_id)
        return web.signed_page(
            current, "websets.html", webset_id.status, title=TITLE, error=message, query=query, **shown
        )
    return web.to(f"/console/websets/{webset_id}")


@router.get("/{webset_id}")
async def one_page(
    request: Request,
    session: Session,
    webset_id: str,
    match: str = "qualified",
    cursor: str | None = None,
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    current = await web.admit(request, session, runtime, READ, title=TITLE)
    if isinstance(current, Response):
        return current
    match = match if match in pages.BANDS else "qualified"
    try:
        shown = await pages.one(session, runtime, current.caller, webset_id, match=match, cursor=cursor)
    except ApiError as error:
        return web.refused(current, error, TITLE)
    return web.signed_page(current, "webset.html", title=shown["webset"]["name"], **shown)


@router.get("/{webset_id}/live")
async def live(
    request: Request,
    session: Session,
    webset_id: str,
    match: str = "qualified",
    stream_cursor: str | None = None,
    items_revision: str | None = None,
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    """The page's live region: the list's stream as HTML fragments (the session's cookie, not a key).
    A refusal is a bare status, which an EventSource reports as an error and does not retry."""
    current = await web.admit(request, session, runtime, READ, title=TITLE)
    if isinstance(current, Response):
        return Response(status_code=401 if current.status_code == 303 else current.status_code)
    last_event = request.headers.get("last-event-id")
    try:
        start = resume_point(stream_cursor, last_event)
        # A reconnecting browser resumes after its last event; the page's revision is for the first open.
        revision = None
        if items_revision and not last_event:
            revision = int_param(items_revision, "items_revision", detail="the items_revision of the page")
        opened = await pages.opening(session, current.caller, webset_id, start=start, items_revision=revision)
    except ApiError as error:
        return Response(status_code=error.status, headers=web.SECURITY_HEADERS)
    match = match if match in pages.BANDS else "qualified"
    return owned_stream(
        runtime,
        current.caller,
        lambda allowed: pages.live(
            runtime, current.caller, webset_id, match=match, opened=opened, csrf=current.csrf_token,
            still_allowed=allowed,
        ),
    )  # fmt: skip


@router.post("/{webset_id}/find-more")
async def find_more(
    request: Request,
    session: Session,
    webset_id: str,
    csrf: str = Form(default="", max_length=100),
    count: str = Form(default="25", max_length=10),
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    current = await web.admit(request, session, runtime, WRITE, title=TITLE, csrf=csrf)
    if isinstance(current, Response):
        return current
    started = await web.act(
        session, pages.find_more(session, runtime, current.caller, webset_id, _number(count))
    )
    if isinstance(started, ApiError):
        return web.refused(current, started, TITLE)
    return web.to(f"/console/websets/{webset_id}")


@router.get("/{webset_id}/export")
async def export_csv(
    request: Request,
    session: Session,
    webset_id: str,
    match: str = "qualified",
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    """The API's CSV export, for the signed-in account (a stream slot of its key while it runs)."""
    current = await web.admit(request, session, runtime, READ, title=TITLE)
    if isinstance(current, Response):
        return current
    try:
        what = await export.prepare(session, current.caller, webset_id, match=match, format="csv")
        return owned_download(
            runtime, current.caller, export.chunks(runtime.reader, what),
            media_type=what.media_type, filename=what.filename,
        )  # fmt: skip
    except ApiError as error:
        return web.refused(current, error, TITLE)
