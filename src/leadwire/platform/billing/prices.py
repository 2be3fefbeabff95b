"""The price table: credits per billable unit for each action (DESIGN section 6, spec section 8)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Price:
    """`per_unit` credits for each returned unit; `billing` is the job's initial billing status."""

    per_unit: Decimal
    billing: str = "pending"


NOT_METERED = Price(Decimal(0), "not_metered")
NOT_BILLABLE = Price(Decimal(0), "not_billable")

PRICES: dict[str, Price] = {
    "research.public_web": Price(Decimal(1)),
    "research.contacts": Price(Decimal(1)),
    "websets.prepare": Price(Decimal(1)),
    "websets.find_more": Price(Decimal(1)),
    "customs.companies_search": Price(Decimal("3.6")),
    "customs.counterparties": Price(Decimal("3.6")),
    "customs.trends": Price(Decimal("3.6")),
    "customs.categories": Price(Decimal("3.0")),
    "customs.countries": Price(Decimal("3.0")),
    "customs.company_candidates": NOT_BILLABLE,
    "outreach.dispatch": NOT_METERED,
    "outreach.linkedin.post_like": NOT_METERED,
}


def credits_for(units: float, per_unit: Decimal) -> int:
    """Units times price, rounded up once to a whole credit; zero units cost zero."""
    if units <= 0:
        return 0
    return math.ceil(Decimal(str(units)) * per_unit)
