"""The connected-accounts capability: listing the accounts outreach sends through, and each account's
sending policy (`channels/sending_policy.py`)."""

from __future__ import annotations

from leadwire.platform.capability import Capability, Feature
from leadwire.platform.errors import ErrorCode

CAPABILITY = Capability(
    name="accounts",
    scopes=("accounts:read", "accounts:write"),
    routers=("leadwire.accounts.routes", "leadwire.accounts.policy_routes"),
    features=(Feature("accounts"),),
    mcp_tools="leadwire.accounts.mcp",
    errors=(
        ErrorCode(
            "invalid_sending_policy",
            400,
            when="a sending policy field is out of range: `daily_cap` 1-10000, a ramp whose `max` is below "
            "its `start`, a window without days or whose `end` is not after `start`, an unknown timezone",
            remedy="send the policy as `GET .../sending-policy` shows it, with the field the detail names "
            "corrected",
        ),
    ),
)
