"""The caller's own prospect list, or 404: what every rule on a list starts from (the list service,
its enrichments, exports)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.platform.plans import get_plan
from leadwire.platform.users import User, all_scopes
from leadwire.websets.models import Webset


async def get_owned(session: AsyncSession, caller: Caller, webset_id: str, *, lock: bool = False) -> Webset:
    """The caller's webset, or 404 `webset_not_found` (also for another user's)."""
    if len(webset_id) > 64:
        raise ApiError("webset_not_found")
    statement = select(Webset).where(Webset.id == webset_id, Webset.user_id == caller.user_id)
    if lock:
        statement = statement.with_for_update()
    webset = (await session.execute(statement)).scalar_one_or_none()
    if webset is None:
        raise ApiError("webset_not_found")
    return webset


async def account_caller(session: AsyncSession, user_id: str, key_id: str) -> Caller:
    """The account as the key that set up work done later in its name (a monitor's slot, a refresh's
    enrichments): its plan's limits and credits. 404 `webset_not_found` when the account is gone."""
    user = await session.get(User, user_id)
    if user is None:
        raise ApiError("webset_not_found")
    return Caller(user_id=user.id, key_id=key_id, plan=get_plan(user.plan), scopes=frozenset(all_scopes()))
