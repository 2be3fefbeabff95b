"""HTTP: the account's own API keys (v2) — list them, create one (its key shown once), revoke one."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query

from leadwire.keys import service
from leadwire.keys.operations import READ, WRITE
from leadwire.keys.schemas import KeyCreate, KeyOut, KeyRevoked, KeyWithSecret
from leadwire.platform.callers import Caller
from leadwire.platform.http import (
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
    require,
    respond,
)
from leadwire.platform.pagination import int_query
from leadwire.platform.runtime import Runtime, get_runtime

router = APIRouter(prefix="/api/v2/keys", tags=["keys"])
Reader = Annotated[Caller, Depends(require(READ))]
Writer = Annotated[Caller, Depends(require(WRITE))]
KeyId = Path(description="the key's id (`key_...`)")
POST_ERRORS = ("invalid_request", "idempotency_conflict", "idempotency_key_in_progress")


@router.get(
    "",
    summary="List the account's API keys",
    description=(
        "Every key of the account, revoked and expired ones too, newest first: `id`, `name`, `prefix` "
        "(the key's first characters), `mode`, `scopes`, `status` (`active`, `revoked`, `expired`), "
        "`current` (the key making this request), `created_at`, `expires_at`, `revoked_at`. Never the "
        "key itself: only its digest is stored. `limit` 1-100 (default 20); pass `next_cursor` unchanged "
        "as `cursor` while `has_more`. Needs `keys:read`; free."
    ),
    responses={**documented(PageEnvelope[KeyOut]), **errors("invalid_request")},
)
async def list_keys(
    session: Session,
    caller: Reader,
    runtime: Runtime = Depends(get_runtime),
    limit: str | None = Query(default=None, description="1-100, default 20"),
    cursor: str | None = Query(default=None, description="`next_cursor` of the previous page, unchanged"),
) -> JSONResponse:
    rows, next_cursor = await service.list_keys(
        session,
        service.cursor_codec(runtime),
        caller,
        limit=int_query(limit, "limit", 20, 1, 100),
        cursor=cursor,
    )
    return json_response(ok_page(rows, next_cursor))


@router.post(
    "",
    status_code=201,
    summary="Create an API key",
    description=(
        "A new key of the account with `scopes`, each of which the key making the request must hold "
        "(403 `permission_denied` names the ones it lacks; an unknown scope is 400 `invalid_request`), "
        "and an optional `name`. It takes the creating key's mode, and its expiry when that key expires. "
        "The answer's `key` is shown only here: a replay of an `Idempotency-Key` returns the key's item "
        f"without it. An account holds at most {service.LIVE_KEY_LIMIT} live keys (409 "
        "`api_key_limit_exceeded`). Needs `keys:write`; free."
    ),
    openapi_extra=openapi_body(KeyCreate),
    responses={
        **documented(ItemEnvelope[KeyWithSecret], 201, "The key, with the key itself"),
        **errors(*POST_ERRORS, "api_key_limit_exceeded", "request_payload_too_large"),
    },
)
async def create_key(
    session: Session,
    caller: Writer,
    body: KeyCreate = Depends(json_body(KeyCreate)),
    idem: Idempotency = Depends(idempotent()),
) -> JSONResponse:
    created = await service.create_key(session, caller, body)
    replayed = ok_item({k: v for k, v in created.items() if k != "key"})
    return await respond(session, idem, ok_item(created), status=201, replayed=replayed)


@router.post(
    "/{key_id}/revoke",
    summary="Revoke an API key",
    description=(
        "The key is refused (401 `api_key_revoked`) from this answer on, the key making the request "
        "included when it revokes itself, and so are the keys it created through the API, and theirs: "
        "`revoked_with` counts those revoked now. The monitors set up with any of them pause "
        "(`pause_reason: key_revoked`). A key already revoked is returned unchanged, so a retry is "
        "safe. A key holding a scope the requesting key lacks is 403 `permission_denied` (unless it is "
        "that key itself); another account's or an unknown id is 404 `api_key_not_found`. Needs "
        "`keys:write`; free."
    ),
    responses={
        **documented(ItemEnvelope[KeyRevoked]),
        **errors(*POST_ERRORS, "api_key_not_found"),
    },
)
async def revoke_key(
    session: Session,
    caller: Writer,
    key_id: str = KeyId,
    idem: Idempotency = Depends(idempotent()),
    runtime: Runtime = Depends(get_runtime),
) -> JSONResponse:
    revoked = await service.revoke(session, runtime.notifier, caller, key_id)
    return await respond(session, idem, ok_item(revoked))
