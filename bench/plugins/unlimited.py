"""Bench plugin: lifts the `business` plan's rate limits and active-job cap so a load test measures the
server, not the limiter's 429s. The limiter still runs (same code path and headers); only the numbers
change.

Loaded with `LEADWIRE_PLUGINS=...,bench.plugins.unlimited` only when a benchmark reports that the
real business limits (poll: 6000/min per key, 12000/min per account) capped its load.
"""

from __future__ import annotations

from dataclasses import replace

from leadwire.platform.plans import PLANS, RateLimit

LIMIT = 1_000_000_000


class _Lifted(dict[str, RateLimit]):
    """Every request class at LIMIT when the limiter reads it, also the classes the capabilities
    register after this plugin loads (`outreach`): their registration still stores and checks the
    real numbers, which the limiter then never sees."""

    def __getitem__(self, name: str) -> RateLimit:
        return RateLimit(LIMIT, LIMIT)


PLANS["business"] = replace(
    PLANS["business"], rate_limits=_Lifted(PLANS["business"].rate_limits), max_active_jobs=LIMIT
)
