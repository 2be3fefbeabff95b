"""The credits balance as the API shows it (docs/api.md, Credits and per-row billing)."""

from __future__ import annotations

from typing_extensions import TypedDict

from leadwire.platform.billing import BalanceView
from leadwire.platform.time import iso


class CreditsOut(TypedDict):
    balance: int
    reserved: int
    available: int
    updated_at: str


def public_credits(view: BalanceView) -> CreditsOut:
    return CreditsOut(
        balance=view.balance,
        reserved=view.reserved,
        available=view.available,
        updated_at=iso(view.updated_at),
    )
