"""The worker loop: claims due jobs, runs their handlers with a timeout, heartbeats their leases,
rescues jobs of vanished workers and shuts down gracefully.

A database that fails for a while (restarted, connections cut, hung, a lost deadlock race) stops no part
of the worker: each step backs off and tries again, and a finished job's outcome is retried until it is
committed or its lease is gone (another worker then owns the job, and this outcome no longer counts).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
from datetime import timedelta
from typing import Any

from sqlalchemy import Row

from leadwire.platform import idempotency
from leadwire.platform.db import is_transient, transaction
from leadwire.platform.events import log as event_log
from leadwire.platform.jobs import handoff, presence, queue
from leadwire.platform.jobs.background import background_tasks
from leadwire.platform.jobs.context import JobContext, JobFailure, JobHeld
from leadwire.platform.jobs.failures import FailureCounts, log_step_failure, next_delay
from leadwire.platform.jobs.models import DETAIL_LIMIT
from leadwire.platform.jobs.progress import ProgressWriter
from leadwire.platform.jobs.registry import registry
from leadwire.platform.notify import NEW_JOB_CHANNEL, Subscription
from leadwire.platform.request_context import request_id_var
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow

log = logging.getLogger("leadwire.worker")

PRUNE_EVERY_SECONDS = 3600.0
RETRY_FIRST_SECONDS = 0.05
# A run the database failed (not the work) is handed back this many times by one worker, then it fails
# for good with handler_error.
TRANSIENT_ATTEMPTS = 10
TRANSIENT_BACKOFF_FIRST, TRANSIENT_BACKOFF_MAX = 1.0, 60.0


class Worker:
    def __init__(
        self,
        runtime: Runtime,
        *,
        concurrency: int | None = None,
        actions: list[str] | None = None,
    ) -> None:
        self.runtime = runtime
        self.settings = runtime.settings
        self.concurrency = concurrency or self.settings.worker_concurrency
        self.actions = actions
        self.owner = presence.new_owner()
        self._running: dict[str, asyncio.Task[None]] = {}
        # Slots held for jobs being created in this process's open transactions (`handoff`).
        self._held_slots = 0
        self._wake: Subscription | None = None
        self._stopping = asyncio.Event()
        self._slot_freed = asyncio.Event()
        self._last_prune = 0.0
        self._last_rescue = float("-inf")
        self._outcomes: list[tuple[queue.Outcome, asyncio.Future[None]]] = []
        self._outcomes_ready = asyncio.Event()
        self._finisher: asyncio.Task[None] | None = None
        self._transient = FailureCounts()
        # Set once the database has counted this worker alive (`presence.beat`).
        self.announced = asyncio.Event()

    @property
    def lease_seconds(self) -> float:
        return self.settings.job_lease_seconds

    async def run(self) -> None:
        self._finisher = asyncio.create_task(self._finish_loop(), name="leadwire-finisher")
        await self._beat()
        heartbeat = asyncio.create_task(self._heartbeat_loop(), name="leadwire-heartbeat")
        beating = asyncio.create_task(self._presence_loop(), name="leadwire-presence")
        extra = [
            asyncio.create_task(task.run(self.runtime, self._stopping), name=f"leadwire-{task.name}")
            for task in background_tasks()
        ]
        try:
            with (
                handoff.offering(self.runtime.engine.sync_engine, self),
                self.runtime.notifier.hub.subscribe(NEW_JOB_CHANNEL) as new_jobs,
            ):
                self._wake = new_jobs
                delay = RETRY_FIRST_SECONDS
                while not self._stopping.is_set():
                    try:
                        await self._housekeeping()
                        if not await self._claim():
                            await self._idle(new_jobs)
                        delay = RETRY_FIRST_SECONDS
                    except Exception as exc:
                        log_step_failure("claim loop", exc)
                        await self._sleep_unless_stopping(delay)
                        delay = next_delay(delay)
        finally:
            if extra:  # a background task ends its step within the grace period, or is cut off
                await asyncio.wait(extra, timeout=self.settings.shutdown_grace_seconds)
            for task in (heartbeat, beating, *extra):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _sleep_unless_stopping(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), seconds)

    def stop(self) -> None:
        self._stopping.set()
        self._slot_freed.set()
        if self._wake is not None:  # an idle loop ends now, not at its next poll tick
            self._wake.fire()

    @property
    def _free_slots(self) -> int:
        return self.concurrency - len(self._running) - self._held_slots

    def reserve_slot(self, action: str) -> bool:
        """`handoff.LocalWorker`: hold a slot for a job of `action` being created in this process."""
        if self._stopping.is_set() or self._free_slots <= 0:
            return False
        if self.actions is not None and action not in self.actions:
            return False
        self._held_slots += 1
        return True

    def release_slot(self) -> None:
        self._held_slots -= 1
        self._slot_freed.set()

    def start_claimed(self, job: handoff.ClaimedJob) -> None:
        """`handoff.LocalWorker`: run a job its creation claimed for this worker, in its held slot."""
        self._held_slots -= 1
        self._running[job.id] = asyncio.create_task(self._execute(job), name=f"job-{job.id}")

    async def shutdown(self, grace_seconds: float | None = None) -> None:
        """Stop claiming, let running jobs finish within the grace period, release the rest."""
        self.stop()
        grace = self.settings.shutdown_grace_seconds if grace_seconds is None else grace_seconds
        if self._running:
            _done, pending = await asyncio.wait(list(self._running.values()), timeout=grace)
            for task in pending:
                task.cancel()
            for task in pending:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        leftover = list(self._running)
        if leftover:
            async with transaction(self.runtime.sessionmaker) as session:
                await queue.release(session, owner=self.owner, job_ids=leftover)
            log.info("released %d unfinished jobs", len(leftover))
        if self._finisher is not None:
            self._finisher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._finisher
        try:
            async with transaction(self.runtime.sessionmaker) as session:
                await presence.leave(session, owner=self.owner)
        except Exception as exc:  # its row goes stale and stops counting all the same
            log_step_failure("leaving", exc)

    async def _claim(self) -> bool:
        """Claim due jobs into the free slots; True when it filled them all (more may be due: claim again
        at once), False when the queue had fewer (sleep until told: a notification that comes meanwhile
        is kept by the subscription, so none is missed)."""
        free = self._free_slots
        if free <= 0:
            return False
        self._held_slots += free  # a hand-off meanwhile must not take a slot this claim may fill
        try:
            async with transaction(self.runtime.sessionmaker) as session:
                jobs = await queue.claim_due(
                    session,
                    owner=self.owner,
                    limit=free,
                    lease_seconds=self.lease_seconds,
                    actions=self.actions,
                )
        finally:
            self._held_slots -= free
        if jobs and self._stopping.is_set():
            # Shutdown began while this claim ran, after `shutdown` looked for jobs to wait for or
            # release: hand these straight back rather than leave them to the lease's expiry.
            async with transaction(self.runtime.sessionmaker) as session:
                await queue.release(
                    session, owner=self.owner, job_ids=[job.id for job in jobs], started=False
                )
            return False
        for job in jobs:
            self._running[job.id] = asyncio.create_task(self._execute(job), name=f"job-{job.id}")
        return len(jobs) == free

    async def _idle(self, new_jobs: Any) -> None:
        """Sleep until a job is announced, a slot frees, the next scheduled job is due, or the poll tick."""
        timeout = self.settings.worker_poll_seconds
        if self._free_slots <= 0:
            self._slot_freed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._slot_freed.wait(), timeout)
            return
        async with transaction(self.runtime.sessionmaker) as session:
            due = await queue.next_due_at(session)
        if due is not None:
            timeout = min(timeout, max(0.0, (due - utcnow()).total_seconds()))
        await new_jobs.wait(timeout)

    async def _housekeeping(self) -> None:
        loop_time = asyncio.get_running_loop().time()
        # A lease cannot expire faster than this, so looking more often only costs queries.
        if loop_time - self._last_rescue >= min(self.lease_seconds / 4, self.settings.worker_poll_seconds):
            self._last_rescue = loop_time
            async with transaction(self.runtime.sessionmaker) as session:
                rescued = await queue.rescue_expired(
                    session, self.runtime.notifier, max_attempts=self.settings.job_max_attempts
                )
            if rescued:
                log.warning("rescued %d jobs with expired leases", len(rescued))
        if loop_time - self._last_prune >= PRUNE_EVERY_SECONDS:
            self._last_prune = loop_time
            await self.prune()

    async def prune(self) -> None:
        """Drop terminal jobs and events past their retention, and expired idempotency records."""
        settings = self.settings
        async with transaction(self.runtime.sessionmaker) as session:
            jobs = await queue.prune_terminal(session, older_than=timedelta(days=settings.job_retention_days))
            keys = await idempotency.prune_expired(session)
            events = await event_log.prune(session, older_than=timedelta(days=settings.event_retention_days))
            await presence.forget_stale(session)
        if jobs or keys or events:
            log.info("pruned %d terminal jobs, %d idempotency records, %d events", jobs, keys, events)

    async def _report_progress(self, job_id: str, stage: str, percent: float, pending_units: float) -> None:
        async with transaction(self.runtime.sessionmaker) as session:
            await queue.report_progress(
                session,
                job_id=job_id,
                owner=self.owner,
                stage=stage,
                percent=percent,
                pending_units=pending_units,
            )

    async def _presence_loop(self) -> None:
        """Tell the database this worker is alive every `presence.BEAT_SECONDS` (the first beat is in
        `run`, before any claim: a worker that runs jobs has been counted)."""
        while True:
            await asyncio.sleep(presence.BEAT_SECONDS)
            await self._beat()

    async def _beat(self) -> None:
        try:
            async with transaction(self.runtime.sessionmaker) as session:
                await presence.beat(
                    session, owner=self.owner, concurrency=self.concurrency, running=len(self._running)
                )
        except Exception as exc:  # a missed beat: readiness may say "no worker" until the next
            log_step_failure("presence beat", exc)
            return
        self.announced.set()

    async def _heartbeat_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            if not self._running:
                continue
            try:
                async with transaction(self.runtime.sessionmaker) as session:
                    await queue.heartbeat(
                        session,
                        owner=self.owner,
                        job_ids=list(self._running),
                        lease_seconds=self.lease_seconds,
                    )
            except Exception:  # a missed beat is survivable until the lease expires
                log.warning("heartbeat failed", exc_info=True)

    async def _execute(self, job: Row[Any] | handoff.ClaimedJob) -> None:
        """Run a claimed job (its `queue.CLAIMED` columns) and hand its outcome to the finisher."""
        # This task's own context: every log line of the job carries the id of the request that created it
        # (None for a job created outside a request, never a stale id inherited from the claiming loop).
        request_id_var.set(job.request_id)
        progress = ProgressWriter(job.id, functools.partial(self._report_progress, job.id))
        ctx = JobContext(
            runtime=self.runtime,
            job_id=job.id,
            action=job.action,
            user_id=job.user_id,
            attempt=job.attempt_count,
            owner=self.owner,
            report=progress.report,
            hold=job.hold,
            scheduled_at=job.scheduled_at,
        )
        try:
            ran = await self._run_handler(job, ctx)
        finally:
            await progress.close()
        if ran is None:  # handed back: it runs again later
            return
        result, error_code, error_detail = ran
        outcome = queue.Outcome(
            job_id=job.id,
            user_id=job.user_id,
            attempt=job.attempt_count,
            result=result,
            error_code=error_code,
            error_detail=error_detail,
            units=dict(ctx.units_by_kind),
            needs_settlement=job.billing_status == "pending",
            has_blobs=bool(job.blob_bytes),
            action=job.action,
        )
        try:
            await self._record(outcome)
        finally:
            self._free_slot(job.id)

    def _free_slot(self, job_id: str) -> None:
        """The job's worker slot is free again, whatever became of the job."""
        self._running.pop(job_id, None)
        self._slot_freed.set()

    async def _run_handler(
        self, job: Row[Any] | handoff.ClaimedJob, ctx: JobContext
    ) -> tuple[dict[str, Any] | None, str | None, str | None] | None:
        """The handler's (result, error code, error detail); None when the job was handed back because
        the database failed its run."""
        spec = registry.find(job.action)
        try:
            if spec is None:
                raise JobFailure("handler_error", f"no handler for {job.action}")
            result = await asyncio.wait_for(spec.handler(ctx, dict(job.payload)), spec.timeout_seconds)
            return result, None, None
        except JobHeld as held:
            await self._hold_back(job, held)
            return None
        except JobFailure as failure:
            # The operator's trail: which job failed, why (a provider's own words are in the detail) and
            # the request that created it.
            log.warning(
                "job %s (%s) failed: %s%s%s",
                job.id,
                job.action,
                failure.code,
                f": {failure.detail}" if failure.detail else "",
                f" request_id={job.request_id}" if job.request_id else "",
                extra={"job_id": job.id, "action": job.action, "request_id": job.request_id},
            )
            return None, failure.code, _capped(failure.detail)
        except TimeoutError:
            return None, "job_timeout", None
        except asyncio.CancelledError:
            raise  # shutdown: the job is released, not failed
        except Exception as exc:
            failures = self._transient.count(job.id) if is_transient(exc) else 0
            if 0 < failures <= TRANSIENT_ATTEMPTS:
                # The database failed the run, not the work (a connection cut by a restart, a failover):
                # the job runs again later rather than failing for good.
                await self._retry_later(job, exc, failures)
                return None
            log.exception("job %s (%s) raised", job.id, job.action)
            return None, "handler_error", None

    async def _record(self, outcome: queue.Outcome) -> None:
        """Hand the outcome to the finisher and wait until it is committed."""
        done = asyncio.get_running_loop().create_future()
        self._outcomes.append((outcome, done))
        self._outcomes_ready.set()
        await done

    async def _finish_loop(self) -> None:
        """Commit the outcomes that accumulated while the previous commit ran, in one transaction.

        No added delay: a lone outcome is committed at once; under load, commits group naturally.
        """
        while True:
            await self._outcomes_ready.wait()
            self._outcomes_ready.clear()
            batch, self._outcomes = self._outcomes, []
            if not batch:
                continue
            try:
                await self._commit_outcomes([o for o, _ in batch])
            finally:
                for _, done in batch:
                    if not done.done():
                        done.set_result(None)

    async def _commit_outcomes(self, outcomes: list[queue.Outcome]) -> None:
        """Commit a batch. A batch the database refuses for a reason retrying cannot fix is committed
        job by job, so one outcome it cannot store (say, a result it rejects) costs only that job."""
        if await self._commit_retrying(outcomes):
            return
        if len(outcomes) > 1:
            for outcome in outcomes:
                await self._commit_outcomes([outcome])
        elif outcomes[0].error_code != "handler_error":
            failed = dataclasses.replace(
                outcomes[0], result=None, error_code="handler_error", error_detail=None, units={}
            )
            await self._commit_outcomes([failed])
        # Even the failure could not be stored: the lease expires and the job is rescued.

    async def _hold_back(self, job: Any, held: JobHeld) -> None:
        """Queue again a job its handler held; should the write fail, the lease expires and the job is
        rescued, and its handler holds it again. Its worker slot is free either way."""
        try:
            async with transaction(self.runtime.sessionmaker) as session:
                await queue.hold_back(
                    session,
                    owner=self.owner,
                    job_id=job.id,
                    attempt=job.attempt_count,
                    until=held.until,
                    hold=held.hold,
                )
        except Exception as failed:
            log_step_failure(f"holding back job {job.id}", failed)
        finally:
            self._free_slot(job.id)

    async def _retry_later(self, job: Any, exc: Exception, failures: int) -> None:
        """Hand the job back with its claim's attempt (the database failed, not the job), due again
        after a back-off that doubles with each such failure this worker saw. The hand-back is retried
        while the database keeps failing and the job stays heartbeated; if its lease is lost meanwhile,
        it is rescued like any job of a lost worker."""
        delay = min(TRANSIENT_BACKOFF_MAX, TRANSIENT_BACKOFF_FIRST * 2 ** (failures - 1))
        log.warning(
            "job %s (%s): database unavailable (%s); runs again in %.0f s",
            job.id, job.action, type(exc).__name__, delay,
            extra={"job_id": job.id, "action": job.action},
        )  # fmt: skip
        step = RETRY_FIRST_SECONDS
        try:
            while True:
                try:
                    async with transaction(self.runtime.sessionmaker) as session:
                        await queue.retry_later(
                            session, owner=self.owner, job_id=job.id, attempt=job.attempt_count, delay=delay
                        )
                    return
                except Exception as failed:
                    log_step_failure(f"handing back job {job.id}", failed)
                    if not is_transient(failed) or self._stopping.is_set():
                        return
                await asyncio.sleep(step)
                step = next_delay(step)
        finally:
            self._free_slot(job.id)

    async def _commit_retrying(self, outcomes: list[queue.Outcome]) -> bool:
        """True once committed, retrying while the database fails transiently (the jobs stay
        heartbeated meanwhile); False when it refused the outcomes for another reason."""
        delay = RETRY_FIRST_SECONDS
        while True:
            try:
                await self._finish_many(outcomes)
                return True
            except Exception as exc:
                log_step_failure(f"recording {len(outcomes)} outcomes", exc)
                if not is_transient(exc):
                    return False
            await asyncio.sleep(delay)
            delay = next_delay(delay)

    async def _finish_many(self, outcomes: list[queue.Outcome]) -> None:
        async with transaction(self.runtime.sessionmaker) as session:
            await queue.finish_many(session, self.runtime.notifier, owner=self.owner, outcomes=outcomes)


def _capped(detail: str | None) -> str | None:
    """The failure's detail as the job stores it (`error.detail`): at most DETAIL_LIMIT characters."""
    if not detail:
        return None
    return detail if len(detail) <= DETAIL_LIMIT else detail[: DETAIL_LIMIT - 1] + "…"
