"""Public rows of customs results, built from the trade store's aggregated groups.

Section rows use the guide's camelCase field names (docs/api.md, Customs trade data: name, country,
countryCode, date, hsCode, hsDescriptionCn, hsDescriptionEn, companyCount, weight, quantity, sumOfUSD,
weightAvgPrice, quantityAvgPrice, tradeCount, amountSharePct); company-search rows use snake_case as
the guide shows them. Money is rounded to cents, weights and quantities to 2 decimals, average prices to 4 and
shares to 2 — the same rounding whichever store summed the records.
"""

from __future__ import annotations

from datetime import date
from functools import lru_cache
from typing import Any

import pycountry

from leadwire.providers.hs_codes import describe
from leadwire.providers.trade import Group, PeriodUnit


@lru_cache(maxsize=512)
def country_name(alpha3: str | None) -> str | None:
    """The common English name (`South Korea`, not `Korea, Republic of`) of an alpha-3 code."""
    if not alpha3:
        return None
    found = pycountry.countries.get(alpha_3=alpha3)
    if found is None:
        return None
    return str(getattr(found, "common_name", None) or found.name)


def share(amount: float, total: float) -> float:
    return round(100.0 * amount / total, 2) if total > 0 else 0.0


def _average(amount: float, per: float) -> float | None:
    return round(amount / per, 4) if per > 0 else None


def _measures(group: Group, total_usd: float) -> dict[str, Any]:
    return {
        "tradeCount": group.trade_count,
        "sumOfUSD": round(group.amount_usd, 2),
        "weight": round(group.weight_kg, 2),
        "quantity": round(group.quantity, 2),
        "weightAvgPrice": _average(group.amount_usd, group.weight_kg),
        "quantityAvgPrice": _average(group.amount_usd, group.quantity),
        "amountSharePct": share(group.amount_usd, total_usd),
    }


def counterparty_row(group: Group, total_usd: float) -> dict[str, Any]:
    name, code = group.key
    return {"name": name, "country": country_name(code), "countryCode": code, **_measures(group, total_usd)}


def category_row(group: Group, total_usd: float) -> dict[str, Any]:
    (code,) = group.key
    hs = describe(code) if code and code.isdigit() and len(code) >= 2 else None
    return {
        "hsCode": code,
        "hsDescriptionEn": hs.en if hs else None,
        "hsDescriptionCn": hs.zh if hs else None,
        "companyCount": group.company_count,
        **_measures(group, total_usd),
    }


def country_row(group: Group, total_usd: float) -> dict[str, Any]:
    (code,) = group.key
    return {
        "country": country_name(code),
        "countryCode": code,
        "companyCount": group.company_count,
        **_measures(group, total_usd),
    }


def period_row(first_day: date, group: Group | None, total_usd: float) -> dict[str, Any]:
    """One period of a trend; a period without records is present with zeros."""
    group = group or Group(key=(first_day,), trade_count=0, amount_usd=0.0, weight_kg=0.0, quantity=0.0)
    return {
        "date": first_day.isoformat(),
        "companyCount": group.company_count or 0,
        **_measures(group, total_usd),
    }


def company_row(group: Group, total_usd: float) -> dict[str, Any]:
    name, code = group.key
    return {
        "company_name": name,
        "country": country_name(code),
        "country_code": code,
        "trade_count": group.trade_count,
        "amount_usd": round(group.amount_usd, 2),
        "quantity": round(group.quantity, 2),
        "weight": round(group.weight_kg, 2),
        "amount_share_pct": share(group.amount_usd, total_usd),
    }


def period_starts(start: date, end: date, unit: PeriodUnit) -> list[date]:
    """The first day of every period that overlaps [start, end], oldest first."""
    months = {"months": 1, "quarters": 3, "years": 12}[unit]
    first_month = (start.month - 1) // months * months + 1 if unit != "years" else 1
    cursor = date(start.year, first_month, 1)
    starts = []
    while cursor <= end:
        starts.append(cursor)
        index = cursor.year * 12 + cursor.month - 1 + months
        cursor = date(index // 12, index % 12 + 1, 1)
    return starts
