"""Which plan feature and which scope each kind of gated outside data needs, wherever it is read.

Customs trade records and contacts are features of paid plans, read under a scope of their own. The
capabilities that sell them (customs, research's contacts) declare their features from here, and
every path of another capability that reads the same data (a trade-seeded list, a person list, an
email column, their exports, their monitors) asks `refusal` here before it reads: at the request, and
again when its job runs, with the account's plan and the key's scopes as they are then.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.callers import Caller, feature_missing, scope_missing
from leadwire.platform.capability import PAID_PLANS, Feature
from leadwire.platform.errors import ApiError
from leadwire.platform.plans import Plan, get_plan
from leadwire.platform.time import utcnow
from leadwire.platform.users import ApiKey, User, live_scopes


@dataclass(frozen=True)
class OutsideData:
    """Data from an outside source that a plan feature and a key scope gate."""

    what: str  # how refusals name it
    feature: str
    plans: frozenset[str]
    scope: str  # the scope that reads it

    @property
    def plan_feature(self) -> Feature:
        """The feature as the selling capability declares it (`Capability.features`)."""
        return Feature(self.feature, self.plans)


TRADE_RECORDS = OutsideData("customs trade records", "customs", PAID_PLANS, "customs:read")
CONTACTS = OutsideData("contacts (people and their email addresses)", "contacts", PAID_PLANS, "research:read")
# In the order refusals are checked: the plan of every kind first, then the key's scopes.
ALL = (TRADE_RECORDS, CONTACTS)


@dataclass(frozen=True)
class Reader:
    """Who reads: the account's plan, and the scopes of the key acting (None: no key is known, as for
    a job no key created; then only the plan decides)."""

    plan: Plan
    scopes: frozenset[str] | None

    @classmethod
    def of(cls, caller: Caller) -> Reader:
        return cls(caller.plan, caller.scopes)


def refusal(reader: Reader, data: Iterable[OutsideData]) -> ApiError | None:
    """403 `membership_tier_insufficient` when the plan lacks a kind's feature (`Plan.allows`), else 403
    `permission_denied` when the key lacks a kind's scope, each naming it and the data it gates; None
    when all may be read."""
    wanted = [kind for kind in ALL if kind in set(data)]
    for kind in wanted:
        if not reader.plan.allows(kind.feature):
            return feature_missing(reader.plan, kind.feature, reading=kind.what)
    for kind in wanted:
        if reader.scopes is not None and kind.scope not in reader.scopes:
            return scope_missing(kind.scope, reading=kind.what)
    return None


def check(caller: Caller, data: Iterable[OutsideData]) -> None:
    """Raise the refusal of `caller` reading `data`, if any."""
    refused = refusal(Reader.of(caller), data)
    if refused is not None:
        raise refused


async def reader_now(session: AsyncSession, user_id: str, key_id: str | None) -> Reader:
    """The account's plan and the key's scopes as they are now (`live_scopes`: none once the key is
    revoked, expired or gone): what work started earlier (a job, a monitor's slot) reads with. A
    downgraded plan or a narrowed or revoked key closes it; an account gone has no plan that reads
    anything."""
    user = await session.get(User, user_id)
    plan = get_plan(user.plan) if user is not None else Plan("none")
    if key_id is None:  # no key is known (a job no key created): the plan decides
        return Reader(plan, None)
    return Reader(plan, live_scopes(await session.get(ApiKey, key_id), utcnow()))
