"""HTTP of the console's account pages: credits and their ledger, webhooks and their delivery log."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import Response

from leadwire.console import account_pages as pages
from leadwire.console import web
from leadwire.credits.operations import READ as CREDITS_READ
from leadwire.platform.errors import ApiError
from leadwire.platform.http import Session
from leadwire.platform.runtime import Runtime, get_runtime
from leadwire.platform.unit_of_work import discard
from leadwire.webhooks.operations import READ as WEBHOOKS_READ
from leadwire.webhooks.operations import WRITE as WEBHOOKS_WRITE

router = APIRouter(prefix="/console", include_in_schema=False)
WEBHOOKS = "Webhooks"


@router.get("/credits")
async def credits_page(
    request: Request,
    session: Session,
    kind: str | None = None,
    cursor: str | None = None,
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    current = await web.admit(request, session, runtime, CREDITS_READ, title="Credits")
    if isinstance(current, Response):
        return current
    shown = await pages.credits(session, runtime, current.caller, kind=kind, cursor=cursor)
    return web.signed_page(current, "credits.html", title="Credits", **shown)


@router.get("/webhooks")
async def webhooks_page(
    request: Request, session: Session, runtime: Runtime = Depends(get_runtime)
) -> Response:
    current = await web.admit(request, session, runtime, WEBHOOKS_READ, title=WEBHOOKS)
    if isinstance(current, Response):
        return current
    shown = await pages.webhook_list(session, runtime, current.caller)
    return web.signed_page(
        current, "webhooks.html", title=WEBHOOKS, created=None, error=None, form={}, **shown
    )


@router.post("/webhooks")
async def create_webhook(
    request: Request, session: Session, runtime: Runtime = Depends(get_runtime)
) -> Response:
    form = await request.form()
    current = await web.admit(
        request, session, runtime, WEBHOOKS_WRITE, title=WEBHOOKS, csrf=str(form.get("csrf", ""))
    )
    if isinstance(current, Response):
        return current
    fields = {
        "url": str(form.get("url", ""))[:4096].strip(),
        "events": [str(e)[:64] for e in form.getlist("events")][:20],
    }
    description = str(form.get("description", ""))[:1000].strip()
    if description:
        fields["description"] = description
    created, error, status = None, None, 201
    try:
        created = await pages.create_webhook(session, runtime, current.caller, fields)
    except ApiError as refused:
        await discard(session)
        error, status = f"Not created: {refused.detail or refused.code} ({refused.code})", refused.status
    shown = await pages.webhook_list(session, runtime, current.caller)
    # The secret is on this page only: the API never shows it again.
    return web.signed_page(
        current, "webhooks.html", status, title=WEBHOOKS, created=created, error=error,
        form=fields if error else {}, **shown,
    )  # fmt: skip


@router.post("/webhooks/{webhook_id}/delete")
async def delete_webhook(
    request: Request,
    session: Session,
    webhook_id: str,
    csrf: str = Form(default="", max_length=100),
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    current = await web.admit(request, session, runtime, WEBHOOKS_WRITE, title=WEBHOOKS, csrf=csrf)
    if isinstance(current, Response):
        return current
    try:
        await pages.delete_webhook(session, current.caller, webhook_id)
    except ApiError as refused:
        await discard(session)
        return web.refused(current, refused, WEBHOOKS)
    return web.to("/console/webhooks")


@router.get("/webhooks/{webhook_id}")
async def webhook_page(
    request: Request,
    session: Session,
    webhook_id: str,
    status: str | None = None,
    cursor: str | None = None,
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    current = await web.admit(request, session, runtime, WEBHOOKS_READ, title=WEBHOOKS)
    if isinstance(current, Response):
        return current
    try:
        shown = await pages.webhook_page(
            session, runtime, current.caller, webhook_id, status=status, cursor=cursor
        )
    except ApiError as refused:
        return web.refused(current, refused, WEBHOOKS)
    return web.signed_page(current, "webhook.html", title=WEBHOOKS, **shown)


@router.post("/webhooks/{webhook_id}/deliveries/{delivery_id}/retry")
async def retry_delivery(
    request: Request,
    session: Session,
    webhook_id: str,
    delivery_id: str,
    csrf: str = Form(default="", max_length=100),
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    current = await web.admit(request, session, runtime, WEBHOOKS_WRITE, title=WEBHOOKS, csrf=csrf)
    if isinstance(current, Response):
        return current
    try:
        await pages.retry_delivery(session, runtime, current.caller, webhook_id, delivery_id)
    except ApiError as refused:
        await discard(session)
        return web.refused(current, refused, WEBHOOKS)
    return web.to(f"/console/webhooks/{webhook_id}")
