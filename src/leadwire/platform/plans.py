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


def _plan(name: str, per_key: tuple[int, int, int, int], max_active_jobs: int) -> Plan:
    """A plan whose account-wide limit is twice its per-key limit, for each of REQUEST_CLASSES."""
    limits = {cls: RateLimit(n, 2 * n) for cls, n in zip(REQUEST_CLASSES, per_key, strict=True)}
    return Plan(name=name, rate_limits=limits, max_active_jobs=max_active_jobs)


# Requests per minute per key for read, poll, task, outreach; then active jobs per account.
PLANS: dict[str, Plan] = {
    plan.name: plan
    for plan in (
        _plan("free", (120, 240, 20, 20), max_active_jobs=5),
        _plan("pro", (600, 1200, 120, 60), max_active_jobs=25),
        _plan("business", (3000, 6000, 600, 300), max_active_jobs=100),
    )
}


def get_plan(name: str) -> Plan:
    return PLANS[name]
