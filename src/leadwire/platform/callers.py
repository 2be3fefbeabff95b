"""Who is calling: the account, key, plan and scopes behind a request or an MCP call, as the services
see it. Authentication (`platform/http/auth.py`) builds it; nothing here knows HTTP."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from leadwire.platform.errors import ApiError
from leadwire.platform.plans import Plan, plans_having


@dataclass(frozen=True)
class Caller:
    user_id: str
    key_id: str
    plan: Plan
    scopes: frozenset[str]
    # The key's digest: what a long-lived stream re-checks the key by (`key_still_valid`).
    key_digest: str = field(default="", compare=False, repr=False)

    def can(self, scope: str) -> bool:
        return scope in self.scopes


@dataclass(frozen=True)
class Permission:
    """What an operation asks of its caller, declared once by the slice and checked the same way on
    every face (`require(permission)` on REST, `ToolKit.allowed(permission)` on MCP): the key's
    `scope` (None: any key), the rate-limit `request_class` it counts against, and the plan `feature`
    it needs (by default the scope's prefix: `research:write` needs the plan's `research`)."""

    scope: str | None
    request_class: str = "read"
    feature: str | None = None

    @property
    def plan_feature(self) -> str | None:
        return self.feature or (self.scope.split(":")[0] if self.scope else None)


def scope_missing(
    scope: str, *, reading: str | None = None, headers: Mapping[str, str] | None = None
) -> ApiError:
    """403 `permission_denied` naming the scope the key lacks, wherever a scope is checked, and the data
    it reads when a path reads another capability's (`reading`: "customs trade records")."""
    why = f", which reading {reading} needs" if reading else ""
    return ApiError(
        "permission_denied",
        detail=f"this key lacks the scope {scope}{why}: use a key created with it",
        headers=headers,
    )


def feature_missing(
    plan: Plan, feature: str, *, reading: str | None = None, headers: Mapping[str, str] | None = None
) -> ApiError:
    """403 `membership_tier_insufficient` naming the feature the plan lacks (`Plan.allows`), the data it
    gates when a path reads another capability's (`reading`), and the plans that have it."""
    of = f", which {reading} belong to" if reading else ""
    having = plans_having(feature)
    has = f": {' or '.join(sorted(having))} has it" if having else ""
    return ApiError(
        "membership_tier_insufficient",
        detail=f"the {plan.name} plan does not include {feature}{of}{has}",
        headers=headers,
    )
