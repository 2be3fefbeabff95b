"""The delivery task a worker runs beside its jobs (`platform/jobs/background.py`): it leases due
deliveries (`leases.py`), signs and POSTs each to its webhook's URL, and records the answer.

- At least once: a delivery is leased while it is sent; a worker killed mid-send loses the lease and
  the delivery is sent again by whichever worker claims it next, with the same `webhook-id`.
- In order per webhook, one at a time: only a webhook's oldest pending delivery is due, and not while
  another of its deliveries is in flight; the next waits for it to succeed or to fail for good.
- Fair: every freed slot is claimed again across all webhooks (by the record that frees it, in its
  transaction), round robin by account and then by webhook, oldest first, and the last free slot
  stays for an account holding none (`fair.py`): one account's slow receivers do not delay another
  account's events.
- Retries follow `LEADWIRE_WEBHOOK_RETRY_SCHEDULE` (5 s ... 24 h, with jitter), then `failed`. A host
  that does not resolve is such a failed attempt, for the deliveries waiting behind it too. A webhook
  whose deliveries have all failed for `LEADWIRE_WEBHOOK_DISABLE_AFTER_SECONDS` (3 days) is disabled
  with the reason.
- Bounded: `LEADWIRE_WEBHOOK_CONCURRENCY` deliveries at once per worker, each cut off after
  `LEADWIRE_WEBHOOK_TIMEOUT_SECONDS` from connect to the last byte read, at most 64 KB of the answer
  read, no redirect followed, the address checked at every send (`platform/egress.py`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from datetime import datetime
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from leadwire.client.webhooks import sign
from leadwire.config import Settings
from leadwire.platform.crypto import SecretBox
from leadwire.platform.egress import EgressRefused, Target, resolve
from leadwire.platform.ids import new_id
from leadwire.platform.notify import WORK_CHANNEL
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from leadwire.webhooks import leases
from leadwire.webhooks.leases import Answer, Claimed
from leadwire.webhooks.service import DELIVERY_TASK

if TYPE_CHECKING:
    import httpx

log = logging.getLogger("leadwire.webhooks")

MAX_ANSWER_BYTES = 64 * 1024
IDLE_POLL_SECONDS = 1.0
PRUNE_EVERY_SECONDS = 3600.0


def _user_agent() -> str:
    try:
        return f"Leadwire-Webhooks/{version('leadwire')}"
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "Leadwire-Webhooks/0"


USER_AGENT = _user_agent()


async def run(runtime: Runtime, stopping: asyncio.Event) -> None:
    """The task (`BackgroundTask.run`): see `Deliverer`."""
    await Deliverer(runtime, stopping).run()


class Deliverer:
    """Claims due deliveries into its free slots in the fair order, sends each in a task of its own,
    and records the answer; between rounds it sleeps until a change wakes it (`WORK_CHANNEL`), a slot
    frees, a retry it scheduled is due, or the next poll (another worker's retries)."""

    def __init__(self, runtime: Runtime, stopping: asyncio.Event) -> None:
        self.runtime = runtime
        self.settings = runtime.settings
        self.stopping = stopping
        self.owner = f"webhooks-{new_id('whd')[-12:]}"
        self.box = SecretBox(self.settings.resolved_secret_key)
        self.in_flight: set[asyncio.Task[None]] = set()
        self.held: Counter[str] = Counter()  # this worker's slots in use, per account
        self.slot_freed = asyncio.Event()
        # Made at the first delivery: a worker starts without httpx.
        self.client: httpx.AsyncClient | None = None
        self.last_prune = 0.0
        self.next_retry: float | None = None  # monotonic time of the earliest retry scheduled here

    async def run(self) -> None:
        try:
            with self.runtime.notifier.hub.subscribe(WORK_CHANNEL, DELIVERY_TASK) as wake:
                while not self.stopping.is_set():
                    # Cleared before the claim: a delivery ending while it runs is a reason to claim again.
                    self.slot_freed.clear()
                    await self._round()
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
                await leases.prune(self.runtime, self.settings)
                self.last_prune = time.monotonic()
            claimed = (
                await leases.claim(self.runtime, self.box, self.owner, dict(self.held), free)
                if free > 0
                else []
            )
        except Exception as exc:
            log.warning("webhook claim failed: %s", exc)
            return
        if claimed and self.client is None:
            self.client = _client()
        for delivery in claimed:
            assert self.client is not None
            self.held[delivery.user_id] += 1
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
        """Send and record, and go on with the delivery the record leased for this slot (by the fair
        choice, across every webhook) while there is one."""
        current: Claimed | None = delivery
        while current is not None:
            sending = current
            try:
                if self.stopping.is_set():  # leased with the last one's record, never sent: given back
                    await leases.release(self.runtime, self.owner, sending)
                    return
                answer = await send(client, self.settings, sending)
                # As they stand once this one is done: the freed slot is this one's.
                held = dict(self.held)
                held[sending.user_id] -= 1
                free = self.settings.webhook_concurrency - len(self.in_flight) + 1
                current, retry_at = await leases.record(
                    self.runtime, self.box, self.owner, sending, answer, held=held, free=free
                )
            except Exception as exc:  # the lease runs out and the delivery goes again
                log.warning("webhook delivery %s not recorded: %s", sending.id, exc)
                return
            finally:
                self._let_go(sending.user_id)
            if current is not None:
                self.held[current.user_id] += 1
            if retry_at is not None:
                self._retry_at(retry_at)

    def _let_go(self, user_id: str) -> None:
        self.held[user_id] -= 1
        if self.held[user_id] <= 0:
            del self.held[user_id]


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


async def send(client: httpx.AsyncClient, settings: Settings, delivery: Claimed) -> Answer:
    """One POST, signed now, to the address the webhook's URL resolves to now (checked at every send).
    The whole of it, the name's resolution included, ends within the delivery's time limit; any
    failure is the delivery's answer (retried on the schedule), never an exception."""
    limit = settings.webhook_timeout_seconds
    try:
        async with asyncio.timeout(limit):
            target = await resolve(delivery.url, allow_private=settings.webhook_allow_private_networks)
            return await _post(client, target, _headers(target, delivery), delivery.body.encode())
    except EgressRefused as refused:  # the URL's own failure: the deliveries behind it share it
        return Answer(None, f"not sent: {refused.reason}", unsent=True)
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
