"""The credits balance and ledger entries as the API shows them (docs/api.md, Credits and per-row
billing)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field
from typing_extensions import TypedDict

from leadwire.platform.billing import BalanceView, EntryKind, LedgerEntry
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


class LedgerEntryOut(TypedDict):
    id: str
    kind: EntryKind
    amount: Annotated[
        int,
        Field(
            description="credits, always positive: `kind` says which way they move (`grant` adds to the "
            "balance, `charge` takes from it, `reserve` sets them aside for the job, `release` gives "
            "the job's reservation back)"
        ),
    ]
    job_id: Annotated[
        str | None, Field(description="the job a reserve, release or charge is for; null for a grant")
    ]
    created_at: str


def public_entry(entry: LedgerEntry) -> LedgerEntryOut:
    return LedgerEntryOut(
        id=entry.id,
        kind=entry.kind,
        amount=entry.amount,
        job_id=entry.job_id,
        created_at=iso(entry.created_at),
    )
