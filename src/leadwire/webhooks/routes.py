"""HTTP: webhooks (v2) — register endpoints, rotate their secrets, read and retry their deliveries."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query
from pydantic import ValidationError
from sse_starlette import EventSourceResponse

from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.platform.http import (
    SSE_DOC,
    Deleted,
    Idempotency,
    ItemEnvelope,
    JSONResponse,
    PageEnvelope,
    Session,
    documented,
    errors,
    idempotent,
    json_body,
    json_response,
    ok_item,
    ok_page,
    openapi_body,
    owned_stream,
    require,
    respond,
)
from leadwire.platform.pagination import int_query
from leadwire.platform.runtime import Runtime, get_runtime
from leadwire.webhooks import listen, service
from leadwire.webhooks.operations import READ, RETRY, WRITE
from leadwire.webhooks.schemas import (
    DELIVERY_STATUSES,
    DeliveryOut,
    WebhookCreate,
    WebhookOut,
    WebhookUpdate,
    WebhookWithSecret,
)

router = APIRouter(prefix="/api/v2/webhooks", tags=["webhooks"])
Reader = Annotated[Caller, Depends(require(READ))]
Writer = Annotated[Caller, Depends(require(WRITE))]
Retrier = Annotated[Caller, Depends(require(RETRY))]
WebhookId = Path(description="the webhook's id (`wh_...`)")
DeliveryId = Path(description="the delivery's id (`whd_...`)")
POST_ERRORS = ("invalid_request", "idempotency_conflict", "idempotency_key_in_progress")


@router.post(
    "",
    status_code=201,
    summary="Register a webhook",
    description=(
        'Registers `url` for the event types in `events` (or `["*"]`). The answer\'s `secret` '
        "(`whsec_...`) signs every delivery and is shown only here and by rotate-secret; a replay of an "
        "`Idempotency-Key` returns the webhook without it. Needs `webhooks:write`; free."
    ),
    openapi_extra=openapi_body(WebhookCreate),
    responses={
        **documented(ItemEnvelope[WebhookWithSecret], 201, "The webhook, with its secret"),
        **errors(
            *POST_ERRORS,
            "invalid_webhook_url",
            "webhook_url_not_allowed",
            "invalid_webhook_events",
            "webhook_limit_exceeded",
            "request_payload_too_large",
        ),
    },
)
async def create_webhook(
    session: Session,
    caller: Writer,
    body: WebhookCreate = Depends(json_body(WebhookCreate)),
    idem: Idempotency = Depends(idempotent()),
    runtime: Runtime = Depends(get_runtime),
) -> JSONResponse:
    settings = runtime.settings
    created = await service.create(
        session,
        service.secret_box(runtime),
        caller,
        body,
        allow_private=settings.webhook_allow_private_networks,
        lookup_timeout=settings.egress_lookup_timeout_seconds,
        limit=settings.webhook_limit_per_account,
    )
    shown = ok_item(created)
    replayed = ok_item({k: v for k, v in created.items() if k != "secret"})
    return await respond(session, idem, shown, status=201, replayed=replayed)


@router.get(
    "",
    summary="List the account's webhooks",
    description=(
        "Newest first, `limit` (1-100, default 20) per page; pass `next_cursor` unchanged as `cursor` for "
        "the next page while `has_more`. Secrets are never listed. Needs `webhooks:read`."
    ),
    responses={**documented(PageEnvelope[WebhookOut]), **errors("invalid_request")},
)
async def list_webhooks(
    session: Session,
    caller: Reader,
    runtime: Runtime = Depends(get_runtime),
    limit: str | None = Query(default=None, description="1-100, default 20"),
    cursor: str | None = Query(default=None, description="`next_cursor` of the previous page, unchanged"),
) -> JSONResponse:
    rows, next_cursor = await service.list_webhooks(
        session,
        service.cursor_codec(runtime),
        caller,
        limit=int_query(limit, "limit", 20, 1, 100),
        cursor=cursor,
    )
    return json_response(ok_page(rows, next_cursor))


@router.get(
    "/stream",
    summary="Stream the account's events (development listener)",
    description=(
        "Server-sent events for `leadwire webhooks listen`: first `ready` with `{listener_id, secret, "
        "events}`, then one `webhook` event per event of the types in `events` (comma-separated, "
        "default `*`) as it happens, with `{id, type, headers, body}`: the exact body and Standard "
        "Webhooks headers signed with `secret`, ready to POST to a local receiver. The secret is the "
        "same for every stream of one API key. Events while no stream is open are not kept. Counts "
        "against the key's and the account's open streams. Needs `webhooks:write`."
    ),
    responses={
        **SSE_DOC,
        **errors("invalid_webhook_events", "api_rate_limit_exceeded", "api_key_rate_limit_exceeded"),
    },
)
async def listen_events(
    caller: Writer,
    runtime: Runtime = Depends(get_runtime),
    events: str = Query(default="*", description="event types, comma-separated; `*` for all"),
) -> EventSourceResponse:
    chosen = [part.strip() for part in events.split(",") if part.strip()]
    try:
        WebhookCreate.model_validate({"url": "https://listen.invalid/", "events": chosen})
    except ValidationError:
        raise ApiError("invalid_webhook_events", param="events") from None
    return owned_stream(
        runtime, caller, lambda still_allowed: listen.stream(runtime, caller, chosen, still_allowed)
    )


@router.get(
    "/{webhook_id}",
    summary="Read a webhook",
    description=(
        "Its URL, event types, status and, when `disabled`, `disabled_reason`. Needs `webhooks:read`."
    ),
    responses={**documented(ItemEnvelope[WebhookOut]), **errors("webhook_not_found")},
)
async def get_webhook(session: Session, caller: Reader, webhook_id: str = WebhookId) -> JSONResponse:
    return json_response(ok_item(await service.detail(session, caller, webhook_id)))


@router.patch(
    "/{webhook_id}",
    summary="Change a webhook",
    description=(
        "Any of `url`, `events`, `status` (`active` | `disabled`), `description`, `metadata`; absent "
        "fields stay. Enabling a disabled webhook sends its waiting deliveries. Needs `webhooks:write`."
    ),
    openapi_extra=openapi_body(WebhookUpdate),
    responses={
        **documented(ItemEnvelope[WebhookOut]),
        **errors(
            "invalid_request",
            "webhook_not_found",
            "invalid_webhook_url",
            "webhook_url_not_allowed",
            "invalid_webhook_events",
            "request_payload_too_large",
        ),
    },
)
async def update_webhook(
    session: Session,
    caller: Writer,
    webhook_id: str = WebhookId,
    body: WebhookUpdate = Depends(json_body(WebhookUpdate)),
    runtime: Runtime = Depends(get_runtime),
) -> JSONResponse:
    updated = await service.update(
        session,
        runtime.notifier,
        caller,
        webhook_id,
        body,
        allow_private=runtime.settings.webhook_allow_private_networks,
        lookup_timeout=runtime.settings.egress_lookup_timeout_seconds,
    )
    return json_response(ok_item(updated))


@router.delete(
    "/{webhook_id}",
    summary="Delete a webhook",
    description=(
        "The webhook and its delivery log; nothing more is sent to it. Deleting again is 404 "
        "`webhook_not_found`. Needs `webhooks:write`."
    ),
    responses={**documented(ItemEnvelope[Deleted]), **errors("webhook_not_found")},
)
async def delete_webhook(session: Session, caller: Writer, webhook_id: str = WebhookId) -> JSONResponse:
    await service.delete(session, caller, webhook_id)
    return json_response(ok_item(Deleted(id=webhook_id, deleted=True)))


@router.post(
    "/{webhook_id}/rotate-secret",
    summary="Rotate a webhook's secret",
    description=(
        "A new `secret`, shown in this answer only. For 24 hours deliveries carry two signatures, one "
        "with each secret, so the receiver can switch without missing one. Needs `webhooks:write`."
    ),
    responses={
        **documented(ItemEnvelope[WebhookWithSecret], 200, "The webhook, with its new secret"),
        **errors(*POST_ERRORS, "webhook_not_found"),
    },
)
async def rotate_secret(
    session: Session,
    caller: Writer,
    webhook_id: str = WebhookId,
    idem: Idempotency = Depends(idempotent()),
    runtime: Runtime = Depends(get_runtime),
) -> JSONResponse:
    rotated = await service.rotate_secret(session, service.secret_box(runtime), caller, webhook_id)
    replayed = ok_item({k: v for k, v in rotated.items() if k != "secret"})
    return await respond(session, idem, ok_item(rotated), replayed=replayed)


@router.get(
    "/{webhook_id}/deliveries",
    summary="List a webhook's deliveries",
    description=(
        "Newest first: each event sent (or to be sent) to this webhook, with `status` (`pending`, "
        "`succeeded`, `failed`), `attempts`, the last answer's `last_status_code` or `last_error`, and "
        "`next_attempt_at` while pending. Optional `status` filter; `limit` 1-100 (default 20) and "
        "`cursor` as for lists. Needs `webhooks:read`."
    ),
    responses={**documented(PageEnvelope[DeliveryOut]), **errors("invalid_request", "webhook_not_found")},
)
async def list_deliveries(
    session: Session,
    caller: Reader,
    webhook_id: str = WebhookId,
    runtime: Runtime = Depends(get_runtime),
    status: str | None = Query(default=None, description="pending, succeeded or failed"),
    limit: str | None = Query(default=None, description="1-100, default 20"),
    cursor: str | None = Query(default=None, description="`next_cursor` of the previous page, unchanged"),
) -> JSONResponse:
    if status is not None and status not in DELIVERY_STATUSES:
        raise ApiError("invalid_request", param="status", detail=", ".join(DELIVERY_STATUSES))
    rows, next_cursor = await service.list_deliveries(
        session,
        service.cursor_codec(runtime),
        caller,
        webhook_id,
        limit=int_query(limit, "limit", 20, 1, 100),
        cursor=cursor,
        status=status,
    )
    return json_response(ok_page(rows, next_cursor))


@router.post(
    "/{webhook_id}/deliveries/{delivery_id}/retry",
    summary="Send a delivery again",
    description=(
        "Sends the delivery again, with the same `webhook-id`, whatever its status (a replay of a "
        "succeeded one too); one attempt beyond its schedule. It takes its place in the delivery order: "
        "while another delivery of the webhook is being sent it goes right after that one, never beside "
        "it. A delivery being sent at this moment is left to finish. A disabled webhook's delivery waits "
        "until the webhook is enabled. Needs `webhooks:write`; counted as a creation in the rate limits."
    ),
    responses={
        **documented(ItemEnvelope[DeliveryOut]),
        **errors(*POST_ERRORS, "webhook_not_found", "webhook_delivery_not_found"),
    },
)
async def retry_delivery(
    session: Session,
    caller: Retrier,
    webhook_id: str = WebhookId,
    delivery_id: str = DeliveryId,
    idem: Idempotency = Depends(idempotent()),
    runtime: Runtime = Depends(get_runtime),
) -> JSONResponse:
    retried = await service.retry_delivery(session, runtime.notifier, caller, webhook_id, delivery_id)
    return await respond(session, idem, ok_item(retried))
