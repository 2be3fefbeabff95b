"""The customs capability: trade data from customs records, for paid plans (not on `free`; docs/api.md,
Scopes and plans): company-name candidates, company search, four company sections and the trade
report."""

from __future__ import annotations

from leadwire.customs import jobs
from leadwire.customs.operations import OPERATIONS
from leadwire.platform.capability import Capability
from leadwire.providers.data_rights import TRADE_RECORDS

CAPABILITY = Capability(
    name="customs",
    scopes=("customs:read", "customs:write"),
    routers=("leadwire.customs.routes",),
    actions=jobs.ACTIONS,
    features=(TRADE_RECORDS.plan_feature,),
    operations=OPERATIONS,
)
