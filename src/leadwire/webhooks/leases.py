"""The delivery rows' side of sending webhooks: which deliveries are due, leasing them to a worker in
the fair order (`fair.py`), recording each answer, and the retention's prune. `delivery.py` sends.

- One at a time per webhook, in order: only a webhook's oldest pending delivery (its head) is due, and
  only while no delivery of that webhook is leased. A delivery retried while a newer one of its webhook
  is in flight shares that one's lease (`service.retry_delivery`) and is released by its record, so it
  goes next, through the same claim as every other.
- A record leases the next delivery for the slot it frees by the same fair choice as any claim,
  across every webhook: a webhook with a backlog does not keep the slot it just used unless it is
  its turn.
- A send that reached nobody because of the URL itself (the host does not resolve, or resolves to an
  address that may not be called) is an attempt for every delivery waiting behind it too: each counts
  it, shows its error, and is due no earlier than the head's retry, so none sits `pending` with no
  attempt and a due time in the past while the name is broken.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from leadwire.config import Settings
from leadwire.platform.crypto import SecretBox
from leadwire.platform.db import transaction
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import iso, utcnow
from leadwire.webhooks.fair import Candidate, choose
from leadwire.webhooks.models import Webhook, WebhookDelivery
from leadwire.webhooks.service import LISTENING, signing_secrets

PRUNE_BATCH = 1000


@dataclass(frozen=True)
class Claimed:
    """A delivery leased to this worker, with what sending it needs (read in the claim's transaction)."""

    seq: int
    id: str
    webhook_id: str
    user_id: str
    event_id: str
    body: str
    attempts: int
    url: str
    secrets: list[str]


@dataclass(frozen=True)
class Answer:
    status_code: int | None
    error: str | None
    # Nothing was sent because of the URL (`EgressRefused`): every delivery to it would fail the same.
    unsent: bool = False

    @property
    def succeeded(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def _unleased(now: datetime) -> Any:
    return or_(WebhookDelivery.lease_expires_at.is_(None), WebhookDelivery.lease_expires_at < now)


def _heads() -> Any:
    """The oldest pending delivery of each active webhook. Found from the webhooks, one probe of the
    pending rows' index each: a webhook's backlog waiting behind its head costs nothing here."""
    pending = aliased(WebhookDelivery)
    head = (
        select(func.min(pending.seq))
        .where(pending.webhook_id == Webhook.id, pending.status == "pending")
        .scalar_subquery()
    )
    return select(head).where(Webhook.status == "active")


async def _candidates(session: AsyncSession, now: datetime, free: int, spread: int) -> list[Candidate]:
    """The due heads, each account's oldest first and the accounts interleaved (every account's
    oldest, then every account's second, ...), at most `free` an account and `free + spread` in all:
    enough that an account holding none of the slots is among them even behind `spread` accounts that
    hold some."""
    rank = (
        func.row_number()
        .over(
            partition_by=WebhookDelivery.user_id,
            order_by=(WebhookDelivery.next_attempt_at, WebhookDelivery.seq),
        )
        .label("rank")
    )
    due = (
        select(
            WebhookDelivery.seq,
            WebhookDelivery.user_id,
            WebhookDelivery.webhook_id,
            WebhookDelivery.next_attempt_at.label("due_at"),
            rank,
        )
        .where(
            WebhookDelivery.seq.in_(_heads()),
            WebhookDelivery.next_attempt_at <= now,
            _unleased(now),
        )
        .subquery()
    )
    rows = await session.execute(
        select(due.c.seq, due.c.user_id, due.c.webhook_id)
        .where(due.c.rank <= free)
        .order_by(due.c.rank, due.c.due_at, due.c.seq)
        .limit(free + spread)
    )
    return [Candidate(*row) for row in rows]


async def claim(
    runtime: Runtime, box: SecretBox, owner: str, held: dict[str, int], free: int
) -> list[Claimed]:
    """Lease up to `free` due deliveries in the fair order (`fair.choose`, given the slots each
    account `held` on this worker), in a transaction of their own."""
    async with transaction(runtime.sessionmaker) as session:
        return await _take(session, runtime.settings, box, owner, held, free, free)


async def _take(
    session: AsyncSession,
    settings: Settings,
    box: SecretBox,
    owner: str,
    held: dict[str, int],
    free: int,
    limit: int,
) -> list[Claimed]:
    """Lease up to `limit` of the deliveries `fair.choose` gives `free` slots, with their webhooks'
    URLs and signing secrets, in the caller's transaction."""
    now = utcnow()
    found = await _candidates(session, now, free, settings.webhook_concurrency)
    chosen = [c.seq for c in choose(found, held, free)[:limit]]
    if not chosen:
        return []
    # Twice the send's own limit and a margin: a lease only runs out when its worker is gone.
    lease = now + timedelta(seconds=2 * settings.webhook_timeout_seconds + 2)
    # Checked again under the row lock: another worker may have taken one since it was read.
    still_due = (
        select(WebhookDelivery.seq)
        .where(
            WebhookDelivery.seq.in_(chosen),
            WebhookDelivery.status == "pending",
            WebhookDelivery.next_attempt_at <= now,
            _unleased(now),
        )
        .with_for_update(skip_locked=True)
    )
    leased = (
        update(WebhookDelivery)
        .where(WebhookDelivery.seq.in_(still_due.scalar_subquery()))
        .values(
            lease_owner=owner, lease_expires_at=lease, attempts=WebhookDelivery.attempts + 1, updated_at=now
        )
        .returning(
            WebhookDelivery.seq,
            WebhookDelivery.id,
            WebhookDelivery.webhook_id,
            WebhookDelivery.user_id,
            WebhookDelivery.event_id,
            WebhookDelivery.body,
            WebhookDelivery.attempts,
        )
    )
    rows = (await session.execute(leased)).all()
    if not rows:
        return []
    hooks = {
        hook.id: hook
        for hook in (
            await session.execute(select(Webhook).where(Webhook.id.in_({r.webhook_id for r in rows})))
        ).scalars()
    }
    return [
        Claimed(*row, url=hook.url, secrets=signing_secrets(box, hook, now))
        for row in rows
        if (hook := hooks.get(row.webhook_id)) is not None
    ]


def next_attempt(settings: Settings, attempts: int, now: datetime) -> datetime | None:
    """When attempt `attempts + 1` goes, or None when the schedule is spent."""
    delays = settings.webhook_retry_delays
    if attempts > len(delays):
        return None
    delay = delays[attempts - 1]
    return now + timedelta(seconds=delay * random.uniform(0.9, 1.1))


async def record(
    runtime: Runtime,
    box: SecretBox,
    owner: str,
    delivery: Claimed,
    answer: Answer,
    *,
    held: dict[str, int],
    free: int,
) -> tuple[Claimed | None, datetime | None]:
    """The answer, if the lease is still this worker's (else another send of it counts), and the
    retry's time when it is retried. Deliveries retried while it was in flight are released to go
    next. The slot it frees is claimed again in the same transaction, by the same fair choice as
    every claim (`held` and `free` as they stand with this delivery done): one transaction a delivery,
    and the slot goes to whichever webhook's turn it is, this one's only when it is."""
    settings = runtime.settings
    now = utcnow()
    retry_at = None if answer.succeeded else next_attempt(settings, delivery.attempts, now)
    status = "succeeded" if answer.succeeded else "pending" if retry_at is not None else "failed"
    async with transaction(runtime.sessionmaker) as session:
        result = await session.execute(
            update(WebhookDelivery)
            .where(
                WebhookDelivery.seq == delivery.seq,
                WebhookDelivery.lease_owner == owner,
                WebhookDelivery.attempts == delivery.attempts,
            )
            .values(
                status=status,
                last_status_code=answer.status_code,
                last_error=answer.error,
                next_attempt_at=retry_at,
                lease_owner=None,
                lease_expires_at=None,
                updated_at=now,
            )
        )
        if not result.rowcount:  # type: ignore[attr-defined]
            return None, None
        await _release_waiting(session, owner, delivery)
        if answer.unsent:
            await _share_unsent(session, settings, delivery, answer, retry_at or now, now)
        await _follow_webhook(session, settings, delivery.webhook_id, answer, now)
        following = await _take(session, settings, box, owner, held, free, 1)
    return (following[0] if following else None), retry_at


async def release(runtime: Runtime, owner: str, delivery: Claimed) -> None:
    """Give back a delivery leased but never sent (the worker is stopping): its claim did not count."""
    async with transaction(runtime.sessionmaker) as session:
        await session.execute(
            update(WebhookDelivery)
            .where(WebhookDelivery.seq == delivery.seq, WebhookDelivery.lease_owner == owner)
            .values(lease_owner=None, lease_expires_at=None, attempts=WebhookDelivery.attempts - 1)
        )
        await _release_waiting(session, owner, delivery)


async def _release_waiting(session: AsyncSession, owner: str, delivery: Claimed) -> None:
    """Deliveries of the webhook retried while this one was in flight wait on its lease; they go now.
    Only retries make a delivery older than a claimed head pending, so the range read is short."""
    await session.execute(
        update(WebhookDelivery)
        .where(
            WebhookDelivery.webhook_id == delivery.webhook_id,
            WebhookDelivery.status == "pending",
            WebhookDelivery.seq < delivery.seq,
            WebhookDelivery.lease_owner == owner,
        )
        .values(lease_owner=None, lease_expires_at=None)
    )


async def _share_unsent(
    session: AsyncSession,
    settings: Settings,
    delivery: Claimed,
    answer: Answer,
    not_before: datetime,
    now: datetime,
) -> None:
    """The head's attempt reached nobody because of the URL: it counts for each delivery waiting
    behind it, on each one's own schedule (`failed` once spent) but due no earlier than `not_before`
    (the head's retry), one statement per attempt count."""
    waiting = (
        WebhookDelivery.webhook_id == delivery.webhook_id,
        WebhookDelivery.status == "pending",
        WebhookDelivery.seq > delivery.seq,
        _unleased(now),
    )
    counts = (await session.execute(select(WebhookDelivery.attempts).where(*waiting).distinct())).scalars()
    for attempts in sorted(counts):
        retry_at = next_attempt(settings, attempts + 1, now)
        await session.execute(
            update(WebhookDelivery)
            .where(*waiting, WebhookDelivery.attempts == attempts)
            .values(
                status="pending" if retry_at is not None else "failed",
                attempts=attempts + 1,
                last_status_code=None,
                last_error=answer.error,
                next_attempt_at=max(retry_at, not_before) if retry_at is not None else None,
                updated_at=now,
            )
        )


async def _follow_webhook(
    session: AsyncSession, settings: Settings, webhook_id: str, answer: Answer, now: datetime
) -> None:
    """A success clears the webhook's failing streak; a failure starts it or, once it is long enough,
    disables the webhook with the reason its owner reads."""
    if answer.succeeded:
        await session.execute(
            update(Webhook)
            .where(Webhook.id == webhook_id, Webhook.failing_since.is_not(None))
            .values(failing_since=None)
        )
        return
    webhook = await session.get(Webhook, webhook_id, with_for_update={"key_share": True})
    if webhook is None or webhook.status != "active":
        return
    if webhook.failing_since is None:
        webhook.failing_since = now
    elif (now - webhook.failing_since).total_seconds() >= settings.webhook_disable_after_seconds:
        webhook.status = "disabled"
        webhook.disabled_reason = (
            f"every delivery failed since {iso(webhook.failing_since)}; the last: {answer.error}"
        )[:1000]
        webhook.updated_at = now


async def prune(runtime: Runtime, settings: Settings) -> None:
    """Finished deliveries past their retention, a thousand rows a transaction (SQLite holds its one
    write lock for each), and the subscriptions of `listen` streams that stopped refreshing (their
    server died with them open)."""
    now = utcnow()
    cutoff = now - timedelta(days=settings.webhook_retention_days)
    async with transaction(runtime.sessionmaker) as session:
        await session.execute(
            delete(Webhook).where(Webhook.status == LISTENING, Webhook.listen_expires_at < now)
        )
    old = (
        select(WebhookDelivery.seq)
        .where(WebhookDelivery.status.in_(("succeeded", "failed")), WebhookDelivery.updated_at < cutoff)
        .limit(PRUNE_BATCH)
        .scalar_subquery()
    )
    while True:
        async with transaction(runtime.sessionmaker) as session:
            gone = await session.execute(delete(WebhookDelivery).where(WebhookDelivery.seq.in_(old)))
        if (gone.rowcount or 0) < PRUNE_BATCH:  # type: ignore[attr-defined]
            return
