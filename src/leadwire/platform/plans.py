"""Plans: what each membership tier may do and how fast (DESIGN section 6 and 8)."""

from __future__ import annotations

from dataclasses import dataclass, field

REQUEST_CLASSES = ("read", "poll", "task", "outreach")


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


def register_feature(name: str, plans: frozenset[str]) -> None:
    existing = _FEATURES.get(name)
    if existing is not None and existing != plans:
        raise ValueError(f"feature {name} declared twice with different plans")
    _FEATURES[name] = plans


PLANS: dict[str, Plan] = {
    "free": Plan(
        name="free",
        rate_limits={
            "read": RateLimit(120, 240),
            "poll": RateLimit(240, 480),
            "task": RateLimit(20, 40),
            "outreach": RateLimit(20, 40),
        },
        max_active_jobs=5,
    ),
    "pro": Plan(
        name="pro",
        rate_limits={
            "read": RateLimit(600, 1200),
            "poll": RateLimit(1200, 2400),
            "task": RateLimit(120, 240),
            "outreach": RateLimit(60, 120),
        },
        max_active_jobs=25,
    ),
    "business": Plan(
        name="business",
        rate_limits={
            "read": RateLimit(3000, 6000),
            "poll": RateLimit(6000, 12000),
            "task": RateLimit(600, 1200),
            "outreach": RateLimit(300, 600),
        },
        max_active_jobs=100,
    ),
}


def get_plan(name: str) -> Plan:
    return PLANS[name]
