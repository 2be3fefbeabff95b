"""HTTP: the credits balance of the caller's account."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from leadwire.credits.schemas import CreditsOut, public_credits
from leadwire.platform.auth import Caller, require
from leadwire.platform.billing import ledger
from leadwire.platform.envelope import JSONResponse, json_response, ok_item
from leadwire.platform.openapi import errors
from leadwire.platform.schemas import ItemEnvelope, documented
from leadwire.platform.session import Session

router = APIRouter(tags=["credits"])
CreditsReader = Annotated[Caller, Depends(require("credits:read", "read"))]


@router.get("/api/v2/credits", responses={**documented(ItemEnvelope[CreditsOut]), **errors()})
async def get_credits(session: Session, caller: CreditsReader) -> JSONResponse:
    view = await ledger.read_balance(session, caller.user_id)
    return json_response(ok_item(public_credits(view)))
