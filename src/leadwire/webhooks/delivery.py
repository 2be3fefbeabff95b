"""The delivery task a worker runs beside its jobs (`platform/jobs/background.py`): it leases due
deliveries, signs and POSTs each to its webhook's URL, and records the answer.

- At least once: a delivery is leased while it is sent; a worker killed mid-send loses the lease and
  the delivery is sent again by whichever worker claims it next, with the same `webhook-id`.
- In order per webhook: only a webhook's oldest pending delivery is due; the next waits for it to
  succeed or to fail for good.
- Retries follow `LEADWIRE_WEBHOOK_RETRY_SCHEDULE` (5 s ... 24 h, with jitter), then `failed`. A webhook
  whose deliveries have all failed for `LEADWIRE_WEBHOOK_DISABLE_AFTER_SECONDS` (3 days) is disabled
  with the reason.
- Bounded: `LEADWIRE_WEBHOOK_CONCURRENCY` deliveries at once per worker, each cut off after
  `LEADWIRE_WEBHOOK_TIMEOUT_SECONDS` from connect to the last byte read, at most 64 KB of the answer
  read, no redirect followed, the address checked at every send (`platform/egress.py`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from leadwire.client.webhooks import sign
from leadwire.config import Settings
from leadwire.platform.crypto import SecretBox
from leadwire.platform.db import transaction
from leadwire.platform.egress import EgressRefused, Target, resolve
from leadwire.platform.ids import new_id
from leadwire.platform.notify import WORK_CHANNEL
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import iso, utcnow
from leadwire.webhooks.models import Webhook, WebhookDelivery
from leadwire.webhooks.service import DELIVERY_TASK, LISTENING, signing_secrets

if TYPE_CHECKING:
    import httpx

log = logging.getLogger("leadwire.webhooks")

MAX_ANSWER_BYTES = 64 * 1024
IDLE_POLL_SECONDS = 1.0
PRUNE_EVERY_SECONDS = 3600.0
PRUNE_BATCH = 1000


def _user_agent() -> str:
    try:
        return f"Leadwire-Webhooks/{version('leadwire')}"
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "Leadwire-Webhooks/0"


USER_AGENT = _user_agent()


@dataclass(frozen=True)
class Claimed:
    """A delivery leased to this worker, with what sending it needs (read in the claim's transaction)."""

    seq: int
    id: str
    webhook_id: str
    event_id: str
    body: str
    attempts: int
    url: str
    secrets: list[str]


@dataclass(frozen=True)
class Answer:
    status_code: int | None
    error: str | None

    @property
    def succeeded(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


async def run(runtime: Runtime, stopping: asyncio.Event) -> None:
    """The task (`BackgroundTask.run`): see `Deliverer`."""
    await Deliverer(runtime, stopping).run()


class Deliverer:
    """Claims due deliveries into its free slots, sends each in a task of its own, and records the
    answer; between rounds it sleeps until a change wakes it (`WORK_CHANNEL`), a slot frees, a retry
    it scheduled is due, or the next poll (another worker's retries)."""

    def __init__(self, runtime: Runtime, stopping: asyncio.Event) -> None:
        self.runtime = runtime
        self.settings = runtime.settings
        self.stopping = stopping
        self.owner = f"webhooks-{new_id('whd')[-12:]}"
        self.box = SecretBox(self.settings.resolved_secret_key)
        self.in_flight: set[asyncio.Task[None]] = set()
        self.slot_freed = asyncio.Event()
        # Made at the first delivery: a worker starts without httpx.
        self.client: httpx.AsyncClient | None = None
        self.last_prune = 0.0
        self.next_retry: float | None = None  # monotonic time of the earliest retry scheduled here

    async def run(self) -> None:
        try:
            with self.runtime.notifier.hub.subscribe(WORK_CHANNEL, DELIVERY_TASK) as wake:
                while not self.stopping.is_set():
                    await self._round()
                    self.slot_freed.clear()
                    # Fewer claimed than free slots: nothing more is due until a change, a finished
                    # delivery (its webhook's next one) or a retry's time.
                    pause = self._pause()
                    await _first(
                        wake.wait(pause), self.slot_freed.wait(), self.stopping.wait(), timeout=pause
                    )
                if self.in_flight:  # the worker's grace period cuts these off if they take longer
                    await asyncio.wait(self.in_flight)
        finally:
            if self.client is not None:
                await self.client.aclose()

    async def _round(self) -> None:
        free = self.settings.webhook_concurrency - len(self.in_flight)
        try:
            if time.monotonic() - self.last_prune > PRUNE_EVERY_SECONDS:
                await _prune(self.runtime, self.settings)
                self.last_prune = time.monotonic()
            claimed = await _claim(self.runtime, self.box, self.owner, free) if free > 0 else []
        except Exception as exc:
            log.warning("webhook claim failed: %s", exc)
            return
        if claimed and self.client is None:
            self.client = _client()
        for delivery in claimed:
            assert self.client is not None
            task = asyncio.create_task(self._deliver(self.client, delivery))
            self.in_flight.add(task)
            task.add_done_callback(self._finished)

    def _pause(self) -> float:
        """Until the next poll, or the earliest retry this worker scheduled if sooner."""
        if self.next_retry is None:
            return IDLE_POLL_SECONDS
        left = self.next_retry - time.monotonic()
        if left <= 0:
            self.next_retry = None
        return min(IDLE_POLL_SECONDS, max(left, 0.0))

    def _retry_at(self, when: datetime) -> None:
        due = time.monotonic() + max(0.0, (when - utcnow()).total_seconds())
        self.next_retry = due if self.next_retry is None else min(self.next_retry, due)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self.in_flight.discard(task)
        self.slot_freed.set()

    async def _deliver(self, client: httpx.AsyncClient, delivery: Claimed) -> None:
        """Send, record, and go on with the webhook's next delivery while one is due."""
        current: Claimed | None = delivery
        while current is not None:
            sending = current
            if self.stopping.is_set():  # leased with the last one's record, never sent: given back
                await _release(self.runtime, self.owner, sending)
                return
            try:
                answer = await send(client, self.settings, sending)
                current, retry_at = await _record(self.runtime, self.box, self.owner, sending, answer)
            except Exception as exc:  # the lease runs out and the delivery goes again
                log.warning("webhook delivery %s not recorded: %s", sending.id, exc)
                return
            if retry_at is not None:
                self._retry_at(retry_at)


def _client() -> httpx.AsyncClient:
    import httpx

    return httpx.AsyncClient(
        timeout=None,  # each send is cut off as a whole by `send`, the name's resolution included
        follow_redirects=False,
        trust_env=False,  # a proxy would connect to the name again, unchecked
        limits=httpx.Limits(max_keepalive_connections=0),  # a connection is pinned to one checked name
        headers={"user-agent": USER_AGENT},
    )


async def _first(*waits: Any, timeout: float) -> None:
    """Until the first of `waits` is done (each an awaitable) or `timeout`, the others cancelled."""
    tasks = [asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        # The waits' own cancellations are results here; a cancellation of this task while it waits
        # for them still propagates. (Suppressing CancelledError around each `await task` swallowed
        # it: a worker cancelled at that moment kept this loop running for good.)
        await asyncio.gather(*tasks, return_exceptions=True)


def _due(now: datetime, webhook_id: str | None = None) -> Any:
    """The oldest pending delivery of each active webhook (of one, when given), when it is due and not
    leased. Found from the webhooks, one probe of the pending rows' index each: a webhook's backlog
    waiting behind its head costs nothing here."""
    pending = aliased(WebhookDelivery)
    head = (
        select(func.min(pending.seq))
        .where(pending.webhook_id == Webhook.id, pending.status == "pending")
        .scalar_subquery()
    )
    heads = select(head).where(Webhook.status == "active")
    if webhook_id is not None:
        heads = heads.where(Webhook.id == webhook_id)
    return select(WebhookDelivery.seq).where(
        WebhookDelivery.seq.in_(heads),
        WebhookDelivery.next_attempt_at <= now,
        or_(WebhookDelivery.lease_expires_at.is_(None), WebhookDelivery.lease_expires_at < now),
    )


async def _claim(runtime: Runtime, box: SecretBox, owner: str, limit: int) -> list[Claimed]:
    """Lease up to `limit` due deliveries, in a transaction of their own."""
    async with transaction(runtime.sessionmaker) as session:
        return await _take(session, runtime.settings, box, owner, limit)


async def _take(
    session: AsyncSession,
    settings: Settings,
    box: SecretBox,
    owner: str,
    limit: int,
    *,
    webhook_id: str | None = None,
) -> list[Claimed]:
    """Lease up to `limit` due deliveries (of one webhook, when given), with their webhooks' URLs and
    signing secrets, in the caller's transaction."""
    now = utcnow()
    # Twice the send's own limit and a margin: a lease only runs out when its worker is gone.
    lease = now + timedelta(seconds=2 * settings.webhook_timeout_seconds + 2)
    due = _due(now)
    if webhook_id is not None:
        due = due.where(WebhookDelivery.webhook_id == webhook_id)
    due = (
        due.order_by(WebhookDelivery.next_attempt_at)
        .limit(limit)
        .with_for_update(skip_locked=True, of=WebhookDelivery)
    )
    claim = (
        update(WebhookDelivery)
        .where(WebhookDelivery.seq.in_(due.scalar_subquery()))
        .values(
            lease_owner=owner, lease_expires_at=lease, attempts=WebhookDelivery.attempts + 1, updated_at=now
        )
        .returning(
            WebhookDelivery.seq,
            WebhookDelivery.id,
            WebhookDelivery.webhook_id,
            WebhookDelivery.event_id,
            WebhookDelivery.body,
            WebhookDelivery.attempts,
        )
    )
    rows = (await session.execute(claim)).all()
    if not rows:
        return []
    hooks = {
        hook.id: hook
        for hook in (
            await session.execute(select(Webhook).where(Webhook.id.in_({row.webhook_id for row in rows})))
        ).scalars()
    }
    return [
        Claimed(*row, url=hook.url, secrets=signing_secrets(box, hook, now))
        for row in rows
        if (hook := hooks.get(row.webhook_id)) is not None
    ]


async def send(client: httpx.AsyncClient, settings: Settings, delivery: Claimed) -> Answer:
    """One POST, signed now, to the address the webhook's URL resolves to now (checked at every send).
    The whole of it, the name's resolution included, ends within the delivery's time limit; any
    failure is the delivery's answer (retried on the schedule), never an exception."""
    limit = settings.webhook_timeout_seconds
    try:
        async with asyncio.timeout(limit):
            target = await resolve(delivery.url, allow_private=settings.webhook_allow_private_networks)
            return await _post(client, target, _headers(target, delivery), delivery.body.encode())
    except EgressRefused as refused:
        return Answer(None, f"not sent: {refused.reason}")
    except TimeoutError:
        return Answer(None, f"no answer within {limit:g} s")
    except Exception as exc:  # refused connections, TLS failures, broken answers: the receiver's side
        return Answer(None, (f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)[:500])


def _headers(target: Target, delivery: Claimed) -> dict[str, str]:
    timestamp = int(time.time())
    return {
        "host": target.host_header,
        "content-type": "application/json",
        "webhook-id": delivery.event_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": sign(delivery.secrets, delivery.event_id, timestamp, delivery.body.encode()),
    }


async def _post(client: httpx.AsyncClient, target: Target, headers: dict[str, str], body: bytes) -> Answer:
    extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
    request = client.build_request("POST", target.pinned_url(), content=body, headers=headers)
    request.extensions.update(extensions)
    response = await client.send(request, stream=True)
    try:
        read = b""
        async for chunk in response.aiter_raw():
            read += chunk
            if len(read) >= MAX_ANSWER_BYTES:
                break
    finally:
        await response.aclose()
    if 200 <= response.status_code < 300:
        return Answer(response.status_code, None)
    if 300 <= response.status_code < 400:
        return Answer(
            response.status_code, f"the receiver answered {response.status_code}: redirects are not followed"
        )
    snippet = read[:200].decode("utf-8", "replace").strip()
    return Answer(
        response.status_code,
        f"the receiver answered {response.status_code}" + (f": {snippet}" if snippet else ""),
    )


def _next_attempt(settings: Settings, attempts: int, now: datetime) -> datetime | None:
    """When attempt `attempts + 1` goes, or None when the schedule is spent."""
    delays = settings.webhook_retry_delays
    if attempts > len(delays):
        return None
    delay = delays[attempts - 1]
    return now + timedelta(seconds=delay * random.uniform(0.9, 1.1))


async def _record(
    runtime: Runtime, box: SecretBox, owner: str, delivery: Claimed, answer: Answer
) -> tuple[Claimed | None, datetime | None]:
    """The answer, if the lease is still this worker's (else another send of it counts); and when
    the webhook moved on, its next delivery leased in the same transaction: a busy webhook's slot goes
    on with it without a claim of its own."""
    settings = runtime.settings
    now = utcnow()
    retry_at = None if answer.succeeded else _next_attempt(settings, delivery.attempts, now)
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
        await _follow_webhook(session, settings, delivery.webhook_id, answer, now)
        if status == "pending":
            return None, retry_at
        following = await _take(session, settings, box, owner, 1, webhook_id=delivery.webhook_id)
        return (following[0] if following else None), None


async def _release(runtime: Runtime, owner: str, delivery: Claimed) -> None:
    """Give back a delivery leased but never sent (the worker is stopping): its claim did not count."""
    async with transaction(runtime.sessionmaker) as session:
        await session.execute(
            update(WebhookDelivery)
            .where(WebhookDelivery.seq == delivery.seq, WebhookDelivery.lease_owner == owner)
            .values(lease_owner=None, lease_expires_at=None, attempts=WebhookDelivery.attempts - 1)
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


async def _prune(runtime: Runtime, settings: Settings) -> None:
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
