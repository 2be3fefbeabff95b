"""The credit ledger: grants, reservations at job creation, settlement and release at the end.

Every change appends an entry and updates the user's balance row under a row lock in the caller's
transaction, so `available = granted - charged - reserved` never goes below zero and a job is never
settled twice (the entry table is unique on (job_id, kind)).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.billing.models import CreditBalance, CreditEntry
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.time import utcnow


@dataclass(frozen=True)
class BalanceView:
    balance: int
    reserved: int
    available: int
    updated_at: datetime


def _view(row: CreditBalance) -> BalanceView:
    balance = row.granted - row.charged
    return BalanceView(
        balance=balance,
        reserved=row.reserved,
        available=max(0, balance - row.reserved),
        updated_at=row.updated_at,
    )


async def _locked_balance(session: AsyncSession, user_id: str) -> CreditBalance:
    row = (
        await session.execute(select(CreditBalance).where(CreditBalance.user_id == user_id).with_for_update())
    ).scalar_one_or_none()
    if row is None:
        row = CreditBalance(user_id=user_id, granted=0, charged=0, reserved=0, updated_at=utcnow())
        session.add(row)
        await session.flush()
    return row


def _append(session: AsyncSession, user_id: str, kind: str, amount: int, job_id: str | None) -> None:
    session.add(
        CreditEntry(
            id=new_id("led"), user_id=user_id, job_id=job_id, kind=kind, amount=amount, created_at=utcnow()
        )
    )


async def lock_account(session: AsyncSession, user_id: str) -> None:
    """Serialise job creation per account (concurrency check + reservation) on the balance row."""
    await _locked_balance(session, user_id)


async def lock_accounts(session: AsyncSession, user_ids: list[str]) -> None:
    """Lock several accounts' balance rows in `user_id` order, the one lock order of every transaction
    that touches more than one account (settling a worker's batch, rescuing expired jobs): two such
    transactions then never wait on each other in a cycle."""
    if user_ids:
        await session.execute(
            select(CreditBalance.user_id)
            .where(CreditBalance.user_id.in_(sorted(set(user_ids))))
            .order_by(CreditBalance.user_id)
            .with_for_update()
        )


async def read_balance(session: AsyncSession, user_id: str) -> BalanceView:
    row = await session.get(CreditBalance, user_id)
    if row is None:
        return BalanceView(balance=0, reserved=0, available=0, updated_at=utcnow())
    return _view(row)


async def grant(session: AsyncSession, user_id: str, amount: int) -> BalanceView:
    if amount <= 0:
        raise ValueError("a grant must be positive")
    row = await _locked_balance(session, user_id)
    row.granted += amount
    row.updated_at = utcnow()
    _append(session, user_id, "grant", amount, None)
    await session.flush()
    return _view(row)


async def reserve(session: AsyncSession, user_id: str, job_id: str, amount: int) -> None:
    """Hold `amount` credits for a job; 402 `insufficient_credits` when not available."""
    await reserve_all(session, user_id, [(job_id, amount)])


async def reserve_all(session: AsyncSession, user_id: str, holds: list[tuple[str, int]]) -> None:
    """Hold credits for several jobs (job id, amount), all or none: 402 `insufficient_credits` naming
    what the whole request needs and what is available when the account cannot cover them all."""
    holds = [(job_id, amount) for job_id, amount in holds if amount > 0]
    if not holds:
        return
    needed = sum(amount for _, amount in holds)
    row = await _locked_balance(session, user_id)
    available = row.granted - row.charged - row.reserved
    if available < needed:
        raise ApiError(
            "insufficient_credits",
            detail=f"this request needs {needed} credits and {max(0, available)} are available",
        )
    row.reserved += needed
    row.updated_at = utcnow()
    for job_id, amount in holds:
        _append(session, user_id, "reserve", amount, job_id)
    await session.flush()


async def move_reservation(
    session: AsyncSession, user_id: str, *, from_job: str, to_job: str, amount: int
) -> int:
    """Hand a job's reservation to the job continuing its work: a release and a reserve entry, the
    balance's reserved total unchanged. The caller holds the account lock."""
    if amount <= 0:
        return 0
    row = await _locked_balance(session, user_id)
    _append(session, user_id, "release", amount, from_job)
    _append(session, user_id, "reserve", amount, to_job)
    row.updated_at = utcnow()
    await session.flush()
    return amount


async def settle(session: AsyncSession, user_id: str, job_id: str, *, reserved: int, charge: int) -> int:
    """Release the job's reservation and charge at most what was reserved; returns the amount charged.

    The charge is capped by the reservation so a job can never push the balance below zero.
    """
    row = await _locked_balance(session, user_id)
    charge = max(0, min(charge, reserved))
    if reserved > 0:
        row.reserved -= reserved
        _append(session, user_id, "release", reserved, job_id)
    if charge > 0:
        row.charged += charge
        _append(session, user_id, "charge", charge, job_id)
    row.updated_at = utcnow()
    await session.flush()
    return charge
