"""Prices: credits per billable unit of each kind an action produces (DESIGN section 6, spec section 8).

A capability declares its actions' prices (`ActionSpec.price`); a handler bills units of named kinds
(`ctx.bill(rows, kind="counterparties")`), and a job is charged the sum over its kinds, rounded up
once to a whole credit — a trade report whose sections cost 3.6 and 3.0 credits per row is one price.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

Units = Mapping[str, float]
DEFAULT_KIND = "unit"


@dataclass(frozen=True)
class Price:
    """Credits per unit of each kind; `billing` is the job's initial billing status."""

    per_kind: Mapping[str, Decimal] = field(default_factory=dict)
    billing: str = "pending"

    def credits(self, units: Units) -> int:
        """The units times their prices, summed, rounded up once to a whole credit; nothing costs 0."""
        total = Decimal(0)
        for kind, count in units.items():
            if count <= 0:
                continue
            if kind not in self.per_kind:
                raise ValueError(f"no price for units of kind {kind!r}")
            total += Decimal(str(count)) * self.per_kind[kind]
        return math.ceil(total) if total > 0 else 0


def per_unit(amount: str | int, kind: str = DEFAULT_KIND) -> Price:
    """The common case: one kind of unit at one price."""
    return Price({kind: Decimal(amount)})


def per_kind(**amounts: str) -> Price:
    return Price({kind: Decimal(amount) for kind, amount in amounts.items()})


NOT_METERED = Price(billing="not_metered")
NOT_BILLABLE = Price(billing="not_billable")


def as_units(value: float | Units) -> dict[str, float]:
    """A bare number is units of the default kind."""
    if isinstance(value, int | float):
        return {DEFAULT_KIND: float(value)}
    return dict(value)
