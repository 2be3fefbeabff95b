"""HTTP of the console's account pages: credits and their ledger, webhooks and their delivery log, and
the account's API keys."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import Response

from leadwire.console import account_pages as pages
from leadwire.console import web
from leadwire.credits.operations import READ as CREDITS_READ
from leadwire.keys.operations import READ as KEYS_READ
from leadwire.keys.operations import WRITE as KEYS_WRITE
from leadwire.platform.errors import ApiError
from leadwire.platform.http import Session
from leadwire.platform.runtime import Runtime, get_runtime
from leadwire.webhooks.operations import READ as WEBHOOKS_READ
from leadwire.webhooks.operations import RETRY as WEBHOOKS_RETRY
from leadwire.webhooks.operations import WRITE as WEBHOOKS_WRITE

router = APIRouter(prefix="/console", include_in_schema=False)
WEBHOOKS = "Webhooks"
KEYS = "API keys"


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
    created, error, status = web.created_or_refused(
        await web.act(session, pages.create_webhook(session, runtime, current.caller, fields))
    )
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
    deleted = await web.act(session, pages.delete_webhook(session, current.caller, webhook_id))
    if isinstance(deleted, ApiError):
        return web.refused(current, deleted, WEBHOOKS)
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
    current = await web.admit(request, session, runtime, WEBHOOKS_RETRY, title=WEBHOOKS, csrf=csrf)
    if isinstance(current, Response):
        return current
    retried = await web.act(
        session, pages.retry_delivery(session, runtime, current.caller, webhook_id, delivery_id)
    )
    if isinstance(retried, ApiError):
        return web.refused(current, retried, WEBHOOKS)
    return web.to(f"/console/webhooks/{webhook_id}")


@router.get("/keys")
async def keys_page(request: Request, session: Session, runtime: Runtime = Depends(get_runtime)) -> Response:
    current = await web.admit(request, session, runtime, KEYS_READ, title=KEYS)
    if isinstance(current, Response):
        return current
    shown = await pages.key_list(session, runtime, current.caller)
    return web.signed_page(current, "keys.html", title=KEYS, created=None, error=None, **shown)


@router.post("/keys")
async def create_key(request: Request, session: Session, runtime: Runtime = Depends(get_runtime)) -> Response:
    form = await request.form()
    current = await web.admit(
        request, session, runtime, KEYS_WRITE, title=KEYS, csrf=str(form.get("csrf", ""))
    )
    if isinstance(current, Response):
        return current
    fields: dict[str, Any] = {"scopes": [str(s)[:64] for s in form.getlist("scopes")][:64]}
    name = str(form.get("name", ""))[:200].strip()
    if name:
        fields["name"] = name
    created, error, status = web.created_or_refused(
        await web.act(session, pages.create_key(session, current.caller, fields))
    )
    shown = await pages.key_list(session, runtime, current.caller)
    # The key is on this page only: nothing stored can show it again.
    return web.signed_page(current, "keys.html", status, title=KEYS, created=created, error=error, **shown)


@router.post("/keys/{key_id}/revoke")
async def revoke_key(
    request: Request,
    session: Session,
    key_id: str,
    csrf: str = Form(default="", max_length=100),
    runtime: Runtime = Depends(get_runtime),
) -> Response:
    current = await web.admit(request, session, runtime, KEYS_WRITE, title=KEYS, csrf=csrf)
    if isinstance(current, Response):
        return current
    own = await web.act(session, pages.revoke_key(session, runtime, current.caller, key_id))
    if isinstance(own, ApiError):
        return web.refused(current, own, KEYS)
    # The session's own key revoked: its sessions end with it, so the next page is the sign-in.
    return web.to(web.SIGN_IN if own else "/console/keys")
