"""HTTP: list connected accounts (v1 and v2 share the service and the shape)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from leadwire.accounts.operations import READ
from leadwire.accounts.schemas import ConnectAccountOut, public_account
from leadwire.channels import connected
from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.platform.http import (
    ItemsEnvelope,
    JSONResponse,
    Session,
    documented,
    errors,
    json_response,
    ok_items,
    require,
)

router = APIRouter(tags=["connect"])
AccountsReader = Annotated[Caller, Depends(require(READ))]


def parse_bool(value: str | None, param: str) -> bool | None:
    if value is None:
        return None
    lowered = value.strip().lower()
    if lowered in ("true", "1"):
        return True
    if lowered in ("false", "0"):
        return False
    raise ApiError("invalid_request", param=param, detail="true or false")


async def _list(session: Session, caller: Caller, can_send: str | None) -> JSONResponse:
    accounts = await connected.list_accounts(
        session, caller.user_id, can_send=parse_bool(can_send, "can_send")
    )
    return json_response(ok_items([public_account(a) for a in accounts]))


LIST_DESCRIPTION = (
    "The connected accounts (email, LinkedIn, WhatsApp) outreach and post likes send through: their "
    "`account_id`, channel, provider, status and whether each can send or receive now. "
    "`can_send=true` keeps only the accounts that can send. No job, not billed; needs `accounts:read`."
)


@router.get(
    "/api/v2/connect/accounts",
    responses={**documented(ItemsEnvelope[ConnectAccountOut]), **errors("invalid_request")},
    summary="List connected accounts",
    description=LIST_DESCRIPTION,
)
async def list_accounts_v2(
    session: Session,
    caller: AccountsReader,
    can_send: str | None = Query(default=None, description="`true` keeps only accounts that can send"),
) -> JSONResponse:
    return await _list(session, caller, can_send)


@router.get(
    "/api/v1/connect/accounts",
    responses={**documented(ItemsEnvelope[ConnectAccountOut]), **errors("invalid_request")},
    summary="List connected accounts (v1)",
    description=LIST_DESCRIPTION + " The v1 path answers the same items as v2.",
)
async def list_accounts_v1(
    session: Session,
    caller: AccountsReader,
    can_send: str | None = Query(default=None, description="`true` keeps only accounts that can send"),
) -> JSONResponse:
    return await _list(session, caller, can_send)
