"""HTTP: the credits balance of the caller's account."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from leadwire.credits.operations import READ
from leadwire.credits.schemas import CreditsOut, public_credits
from leadwire.platform.billing import read_balance
from leadwire.platform.callers import Caller
from leadwire.platform.http import (
    ItemEnvelope,
    JSONResponse,
    Session,
    documented,
    errors,
    json_response,
    ok_item,
    require,
)

router = APIRouter(tags=["credits"])
CreditsReader = Annotated[Caller, Depends(require(READ))]


@router.get(
    "/api/v2/credits",
    responses={**documented(ItemEnvelope[CreditsOut]), **errors()},
    summary="Read the account's credit balance",
    description=(
        "`balance` is what the account holds, `reserved` what running jobs have set aside (a job "
        "reserves its most possible cost at creation and releases the unused part when it settles), "
        "`available` = balance - reserved, which a new job's reservation must fit in (else 402 "
        "`insufficient_credits`). Not billed; needs `credits:read`."
    ),
)
async def get_credits(session: Session, caller: CreditsReader) -> JSONResponse:
    view = await read_balance(session, caller.user_id)
    return json_response(ok_item(public_credits(view)))
