"""Plans: what each membership tier may do and how fast (docs/api.md, Scopes and plans; Rate limits and
concurrency)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RateLimit:
    """`per_key` and `per_account` requests per `window_seconds` for one request class."""

    per_key: int
    per_account: int
    window_seconds: int = 60


@dataclass(frozen=True)
class Plan:
    name: str
    rate_limits: dict[str, RateLimit] = field(default_factory=dict)
    max_active_jobs: int = 10

    def allows(self, feature: str) -> bool:
        """Whether this plan includes a feature; a feature no capability gates is open to every plan."""
        plans = _FEATURES.get(feature)
        return plans is None or self.name in plans


# Filled by the capabilities' declarations (`platform/capability.py`): feature name -> plans having it.
_FEATURES: dict[str, frozenset[str]] = {}


def plans_having(feature: str) -> frozenset[str] | None:
    """The plans that include a gated feature (None: no capability gates it)."""
    return _FEATURES.get(feature)


def register_feature(name: str, plans: frozenset[str]) -> None:
    existing = _FEATURES.get(name)
    if existing is not None and existing != plans:
        raise ValueError(f"feature {name} declared twice with different plans")
    _FEATURES[name] = plans


@dataclass(frozen=True)
class RequestClass:
    """A class of requests rate-limited together: requests per minute per key on each plan (an
    account may make twice that across its keys). The platform's are read, poll and task; a
    capability declares any other (`Capability.request_classes`)."""

    name: str
    per_key: Mapping[str, int]


def register_request_class(request_class: RequestClass) -> None:
    for plan in PLANS.values():
        n = request_class.per_key[plan.name]
        existing = plan.rate_limits.get(request_class.name)
        if existing is not None and existing != RateLimit(n, 2 * n):
            raise ValueError(f"request class {request_class.name} declared twice with different limits")
        plan.rate_limits[request_class.name] = RateLimit(n, 2 * n)


PLANS: dict[str, Plan] = {
    "free": Plan("free", max_active_jobs=5),
    "pro": Plan("pro", max_active_jobs=25),
    "business": Plan("business", max_active_jobs=100),
}
for _platform_class in (
    RequestClass("read", {"free": 120, "pro": 600, "business": 3000}),
    RequestClass("poll", {"free": 240, "pro": 1200, "business": 6000}),
    RequestClass("task", {"free": 20, "pro": 120, "business": 600}),
):
    register_request_class(_platform_class)


def get_plan(name: str) -> Plan:
    return PLANS[name]
