"""The keys capability: an account's own API keys — listed without their secrets, created within the
creating key's scopes, revoked at once."""

from __future__ import annotations

from leadwire.keys.service import LIVE_KEY_LIMIT
from leadwire.platform.capability import Capability, Feature
from leadwire.platform.errors import ErrorCode

ERRORS = (
    ErrorCode(
        "api_key_not_found",
        404,
        when="keys: no API key of this account has that id",
        remedy="list the account's keys (`GET /api/v2/keys`) for their ids",
    ),
    ErrorCode(
        "api_key_limit_exceeded",
        409,
        when=f"keys: the account already holds {LIVE_KEY_LIMIT} live keys (neither revoked nor expired)",
        remedy="revoke a key you no longer use",
    ),
)

CAPABILITY = Capability(
    name="keys",
    scopes=("keys:read", "keys:write"),
    routers=("leadwire.keys.routes",),
    features=(Feature("keys"),),
    mcp_tools="leadwire.keys.mcp",
    errors=ERRORS,
)
