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
    webset_counts: frozenset[int]
    capabilities: frozenset[str]
    rate_limits: dict[str, RateLimit] = field(default_factory=dict)
    max_active_jobs: int = 10


_ALL = frozenset(
    {"accounts", "credits", "outreach", "engagement", "research", "websets", "customs", "contacts"}
)

PLANS: dict[str, Plan] = {
    "free": Plan(
        name="free",
        webset_counts=frozenset({25}),
        capabilities=_ALL - {"customs", "contacts"},
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
        webset_counts=frozenset({25, 100, 500}),
        capabilities=_ALL,
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
        webset_counts=frozenset({25, 100, 500, 1000}),
        capabilities=_ALL,
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
