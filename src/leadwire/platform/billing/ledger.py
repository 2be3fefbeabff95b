"""The credit ledger: grants, reservations at job creation, settlement and release at the end.

Every change appends entries and updates the user's balance row under a row lock in the caller's
transaction, so `available = granted - charged - reserved` never goes below zero and a job is never
settled twice (the entry table is unique on (job_id, kind)).

Written in Core statements, not ORM objects: a batch of jobs reserves or settles in a fixed number of
statements (one balance UPDATE per account, one multi-row INSERT of entries), whatever its size. The
entries are read back, newest first a page at a time, by `list_entries`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, NamedTuple, cast, get_args

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.billing.models import CreditBalance, CreditEntry
from leadwire.platform.db import dialect_insert, insert_rows
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.pagination import CursorCodec, binding, newest_first_by_time
from leadwire.platform.time import utcnow

_BALANCES = cast(Table, CreditBalance.__table__)
_ENTRIES = cast(Table, CreditEntry.__table__)

# What an entry records; its `amount` is always positive, and the kind says which way it moves:
# `grant` adds to the balance, `charge` takes from it; `reserve` sets credits aside for a job (less
# available, the balance unchanged) and `release` gives a job's reservation back when it ends.
EntryKind = Literal["grant", "reserve", "release", "charge"]
ENTRY_KINDS: tuple[str, ...] = get_args(EntryKind)


@dataclass(frozen=True)
class BalanceView:
    balance: int
    reserved: int
    available: int
    updated_at: datetime


@dataclass(frozen=True)
class LedgerEntry:
    id: str
    kind: EntryKind
    amount: int
    job_id: str | None
    created_at: datetime


@dataclass(frozen=True)
class Settlement:
    """One job's end: its whole reservation released, `charge` (at most the reservation) charged."""

    user_id: str
    job_id: str
    reserved: int
    charge: int


def _view(granted: int, charged: int, reserved: int, updated_at: datetime) -> BalanceView:
    balance = granted - charged
    return BalanceView(
        balance=balance, reserved=reserved, available=max(0, balance - reserved), updated_at=updated_at
    )


class LockedBalance(NamedTuple):
    """An account's balance row as locked by the current transaction."""

    granted: int
    charged: int
    reserved: int


async def _locked_balance(session: AsyncSession, user_id: str) -> LockedBalance:
    """The account's balance row, locked; created empty when missing."""
    row = (await session.execute(_LOCK_BALANCE, {"l_user": user_id})).first()
    if row is None:
        # Two first grants racing: the loser's INSERT does nothing, and its SELECT then waits for the lock.
        await session.execute(
            dialect_insert(session)(_BALANCES)
            .values(user_id=user_id, granted=0, charged=0, reserved=0, updated_at=utcnow())
            .on_conflict_do_nothing()
        )
        row = (await session.execute(_LOCK_BALANCE, {"l_user": user_id})).one()
    return LockedBalance(*row)


async def _append(session: AsyncSession, entries: Iterable[tuple[str, str, int, str | None]]) -> None:
    """Ledger entries (user_id, kind, amount, job_id) in one multi-row INSERT."""
    now = utcnow()
    rows = [
        {"id": new_id("led"), "user_id": user_id, "job_id": job_id, "kind": kind, "amount": amount,
         "created_at": now}
        for user_id, kind, amount, job_id in entries
    ]  # fmt: skip
    if rows:
        await insert_rows(session, _ENTRIES, rows)


async def _change_balance(
    session: AsyncSession, user_id: str, *, granted: int = 0, charged: int = 0, reserved: int = 0
) -> None:
    await session.execute(
        update(_BALANCES)
        .where(_BALANCES.c.user_id == user_id)
        .values(
            granted=_BALANCES.c.granted + granted,
            charged=_BALANCES.c.charged + charged,
            reserved=_BALANCES.c.reserved + reserved,
            updated_at=utcnow(),
        )
    )


async def lock_account(session: AsyncSession, user_id: str) -> LockedBalance:
    """Serialise job creation per account (concurrency check + reservation) on the balance row; the
    locked row (granted, charged, reserved), for a `reserve_all` in the same transaction."""
    return await _locked_balance(session, user_id)


async def lock_accounts(session: AsyncSession, user_ids: Iterable[str]) -> None:
    """Lock several accounts' balance rows in `user_id` order, the one lock order of every transaction
    that touches more than one account (settling a worker's batch, rescuing expired jobs): two such
    transactions then never wait on each other in a cycle."""
    ordered = sorted(set(user_ids))
    if ordered:
        await session.execute(_LOCK_ACCOUNTS, {"user_ids": ordered})


async def read_balance(session: AsyncSession, user_id: str) -> BalanceView:
    row = (
        await session.execute(
            select(
                _BALANCES.c.granted, _BALANCES.c.charged, _BALANCES.c.reserved, _BALANCES.c.updated_at
            ).where(_BALANCES.c.user_id == user_id)
        )
    ).first()
    if row is None:
        return BalanceView(balance=0, reserved=0, available=0, updated_at=utcnow())
    return _view(*row)


async def list_entries(
    session: AsyncSession,
    codec: CursorCodec,
    user_id: str,
    *,
    kind: str | None = None,
    job_id: str | None = None,
    limit: int,
    cursor: str | None,
) -> tuple[list[LedgerEntry], str | None]:
    """The account's ledger entries, newest first (the time each was written, then its id), and the
    cursor of the next page; `kind` keeps one kind of entry, `job_id` the entries of one job. A kind
    outside `ENTRY_KINDS` is 400 `invalid_request`."""
    if kind is not None and kind not in ENTRY_KINDS:
        raise ApiError("invalid_request", param="kind", detail="one of " + ", ".join(ENTRY_KINDS))
    statement = select(CreditEntry).where(CreditEntry.user_id == user_id)
    if kind is not None:
        statement = statement.where(CreditEntry.kind == kind)
    if job_id is not None:
        statement = statement.where(CreditEntry.job_id == job_id)
    rows, next_cursor = await newest_first_by_time(
        session,
        codec,
        statement,
        CreditEntry.created_at,
        CreditEntry.id,
        limit=limit,
        cursor=cursor,
        bound_to=binding(list="credit_entries", user=user_id, kind=kind, job_id=job_id),
    )
    entries = [
        LedgerEntry(row.id, cast(EntryKind, row.kind), row.amount, row.job_id, row.created_at) for row in rows
    ]
    return entries, next_cursor


async def grant(session: AsyncSession, user_id: str, amount: int) -> BalanceView:
    if amount <= 0:
        raise ValueError("a grant must be positive")
    row = await _locked_balance(session, user_id)
    await _change_balance(session, user_id, granted=amount)
    await _append(session, [(user_id, "grant", amount, None)])
    return _view(row.granted + amount, row.charged, row.reserved, utcnow())


async def reserve(session: AsyncSession, user_id: str, job_id: str, amount: int) -> None:
    """Hold `amount` credits for a job; 402 `insufficient_credits` when not available."""
    await reserve_all(session, user_id, [(job_id, amount)])


async def reserve_all(
    session: AsyncSession, user_id: str, holds: list[tuple[str, int]], *, locked: LockedBalance | None = None
) -> None:
    """Hold credits for several jobs (job id, amount), all or none: 402 `insufficient_credits` naming
    what the whole request needs and what is available when the account cannot cover them all.
    `locked`: the row `lock_account` returned in this transaction, which saves locking it again."""
    holds = [(job_id, amount) for job_id, amount in holds if amount > 0]
    if not holds:
        return
    needed = sum(amount for _, amount in holds)
    row = locked if locked is not None else await _locked_balance(session, user_id)
    available = row.granted - row.charged - row.reserved
    if available < needed:
        raise ApiError(
            "insufficient_credits",
            detail=f"this request needs {needed} credits and {max(0, available)} are available",
        )
    await _change_balance(session, user_id, reserved=needed)
    await _append(session, ((user_id, "reserve", amount, job_id) for job_id, amount in holds))


async def move_reservation(
    session: AsyncSession, user_id: str, *, from_job: str, to_job: str, amount: int
) -> int:
    """Hand a job's reservation to the job continuing its work: a release and a reserve entry, the
    balance's reserved total unchanged. The caller holds the account lock."""
    if amount <= 0:
        return 0
    await _append(session, [(user_id, "release", amount, from_job), (user_id, "reserve", amount, to_job)])
    return amount


async def settle(session: AsyncSession, user_id: str, job_id: str, *, reserved: int, charge: int) -> int:
    """Release the job's reservation and charge at most what was reserved; returns the amount charged.

    The charge is capped by the reservation so a job can never push the balance below zero.
    """
    await lock_account(session, user_id)
    settled = capped(Settlement(user_id, job_id, reserved, charge))
    await settle_locked(session, [settled])
    return settled.charge


def capped(settlement: Settlement) -> Settlement:
    """The settlement with its charge within [0, reserved]."""
    charge = max(0, min(settlement.charge, settlement.reserved))
    if charge == settlement.charge:
        return settlement
    return Settlement(settlement.user_id, settlement.job_id, settlement.reserved, charge)


async def settle_locked(session: AsyncSession, settlements: list[Settlement]) -> None:
    """Settle several jobs, of one account or many, whose accounts the caller has locked (`lock_accounts`)
    and whose charges are capped (`capped`): one balance UPDATE per account (executemany), one INSERT of
    every release and charge entry."""
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    entries: list[tuple[str, str, int, str | None]] = []
    for s in settlements:
        totals[s.user_id][0] += s.reserved
        totals[s.user_id][1] += s.charge
        if s.reserved > 0:
            entries.append((s.user_id, "release", s.reserved, s.job_id))
        if s.charge > 0:
            entries.append((s.user_id, "charge", s.charge, s.job_id))
    changed = [
        {"b_user": user_id, "b_released": released, "b_charged": charged}
        for user_id, (released, charged) in sorted(totals.items())
        if released or charged
    ]
    if changed:
        await session.execute(_SETTLE_BALANCE.values(updated_at=utcnow()), changed)
    await _append(session, entries)


_LOCK_BALANCE = (
    select(_BALANCES.c.granted, _BALANCES.c.charged, _BALANCES.c.reserved)
    .where(_BALANCES.c.user_id == bindparam("l_user"))
    .with_for_update()
)
_LOCK_ACCOUNTS = (
    select(_BALANCES.c.user_id)
    .where(_BALANCES.c.user_id.in_(bindparam("user_ids", expanding=True)))
    .order_by(_BALANCES.c.user_id)
    .with_for_update()
)
_SETTLE_BALANCE = (
    update(_BALANCES)
    .where(_BALANCES.c.user_id == bindparam("b_user"))
    .values(
        reserved=_BALANCES.c.reserved - bindparam("b_released"),
        charged=_BALANCES.c.charged + bindparam("b_charged"),
    )
)
