"""Prices: credits per billable unit of each kind an action produces (docs/api.md, Credits and per-row
billing).

A capability declares its actions' prices (`ActionSpec.price`); a handler bills units of named kinds
(`ctx.bill(rows, kind="counterparties")`), and a job is charged the sum over its kinds, rounded up
once to a whole credit — a trade report whose sections cost 3.6 and 3.0 credits per row is one price.

Kinds are named once across the product (`sources`, `contacts`, `companies`, `counterparties`, ...),
so the operator's price table (`LEADWIRE_PRICES`, JSON `{"kind": "credits"}`) can change the price of
a kind wherever it is billed, without touching the code that declares the defaults.
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

    def price_of(self, kind: str) -> Decimal:
        if kind in _OVERRIDES:
            return _OVERRIDES[kind]
        if kind not in self.per_kind:
            raise ValueError(f"no price for units of kind {kind!r}")
        return self.per_kind[kind]

    def credits(self, units: Units) -> int:
        """The units times their prices, summed, rounded up once to a whole credit; nothing costs 0."""
        total = Decimal(0)
        for kind, count in units.items():
            if count <= 0:
                continue
            total += Decimal(str(count)) * self.price_of(kind)
        return math.ceil(total) if total > 0 else 0


def per_unit(amount: str | int, kind: str = DEFAULT_KIND) -> Price:
    """The common case: one kind of unit at one price."""
    return Price({kind: Decimal(amount)})


def per_kind(**amounts: str) -> Price:
    return Price({kind: Decimal(amount) for kind, amount in amounts.items()})


# The operator's prices by kind, set once per process from settings (`set_price_table`).
_OVERRIDES: dict[str, Decimal] = {}


def parse_price_table(text: str) -> dict[str, Decimal]:
    """`{"counterparties": "4.0", "sources": 2}` -> kind: credits; raises ValueError on a bad table."""
    import json

    if not text.strip():
        return {}
    try:
        table = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"LEADWIRE_PRICES is not JSON: {exc.msg}") from None
    if not isinstance(table, dict):
        raise ValueError('LEADWIRE_PRICES must be a JSON object such as {"counterparties": "4.0"}')
    prices = {}
    for kind, value in table.items():
        try:
            price = Decimal(str(value))
        except ArithmeticError:
            raise ValueError(f"LEADWIRE_PRICES: {kind} has no number: {value!r}") from None
        if not price.is_finite() or price < 0:
            raise ValueError(f"LEADWIRE_PRICES: {kind} must be a number of credits >= 0")
        prices[kind] = price
    return prices


def set_price_table(prices: Mapping[str, Decimal]) -> None:
    _OVERRIDES.clear()
    _OVERRIDES.update(prices)


NOT_METERED = Price(billing="not_metered")
NOT_BILLABLE = Price(billing="not_billable")


def as_units(value: float | Units) -> dict[str, float]:
    """A bare number is units of the default kind."""
    if isinstance(value, int | float):
        return {DEFAULT_KIND: float(value)}
    return dict(value)
