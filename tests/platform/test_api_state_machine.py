"""A Hypothesis state machine over the public HTTP API (the app in-process, SQLite and PostgreSQL): jobs of
every capability created with and without Idempotency-Key, retried, reused with another body or on
another path, cancelled in every state, read, run by a worker, and the account topped up.

After every step: a key maps to one job; no job the model did not create exists (but a list's run,
handed over by its preparation); the balance is never negative and `granted − charged − reserved =
available`; `reserved` is the sum of the open reservations of non-terminal jobs, each the job's own
`reserved_credits`; a terminal job holds no reservation; a failed or cancelled job is charged nothing;
a terminal job's status and charge never change; a job's charge never exceeds its reservation; every
response is documented by the OpenAPI document (`tests/support/conformance.py`), errors in the envelope.
At teardown the worker drains, jobs paced for later are cancelled, every job is terminal and the balance
is exactly what was granted minus what the jobs say they charged.

Deterministic under `make test`: derandomized generation (no example database; `make fuzz` draws fresh
sequences, tests/support/fuzzing.py), and no worker runs between steps —
`run_worker` starts one and stops it once nothing due is left (a job paced for later stays pending), so
the state a step sees does not depend on timing. A job is held `running` by the test plugin's echo action
(`block_file`), on a worker of its own, so that cancelling a running job is exercised too.
`LEADWIRE_FUZZ_EXAMPLES` (default 8) sets the number of sequences.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import uuid
from pathlib import Path
from typing import Any

import httpx
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from sqlalchemy import func, select

from leadwire.config import Settings
from leadwire.platform.billing import ledger
from leadwire.platform.billing.models import CreditBalance, CreditEntry
from leadwire.platform.db import transaction
from leadwire.platform.jobs.models import Job
from leadwire.platform.jobs.registry import registry
from leadwire.platform.jobs.runner import Worker
from leadwire.platform.time import utcnow
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.api_model import (
    CUSTOMS,
    DRAIN_TIMEOUT,
    ECHO_PRICE,
    EXAMPLES,
    INITIAL_CREDITS,
    KEY_MODES,
    KINDS,
    MODES,
    OUTREACH,
    PENDING,
    RESEARCH,
    STEPS,
    TERMINAL,
    Harness,
    Key,
    Snapshot,
    make_body,
    read_world,
    start_harness,
    stop_harness,
)
from tests.support.echo import ACTION as ECHO
from tests.support.fuzzing import examples


def make_machine(h: Harness) -> type[RuleBasedStateMachine]:
    non_echo = [action for action in registry.actions() if action != ECHO]
    counter = itertools.count()

    class ApiMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            h.checker.failures.clear()
            self.tmp = Path(h.runtime.settings.data_dir) / f"machine-{next(counter)}"
            self.tmp.mkdir(parents=True, exist_ok=True)
            self.acct, self.channels = h.run(self._account())
            self.headers = self.acct.headers
            self.granted = INITIAL_CREDITS
            self.created: dict[str, str] = {}  # job id -> kind, every job a creation request made
            self.keys: dict[tuple[str, str], Key] = {}
            self.websets: dict[str, str] = {}  # webset id -> its preparation job
            self.final: dict[str, tuple[str, int]] = {}  # job id -> (status, charged) once terminal
            self.held: dict[str, Path] = {}  # echo job id -> the file that lets it finish
            self.echo_expected: dict[str, tuple[int, int, bool]] = {}  # job -> (reserved, asked, fails)
            self.echo_worker = Worker(h.runtime, concurrency=4, actions=[ECHO])
            self.echo_task = h.loop.create_task(self.echo_worker.run())

        async def _account(self) -> tuple[TestAccount, dict[str, str]]:
            factory = AccountFactory(h.runtime)
            acct = await factory.create(credits=INITIAL_CREDITS)
            channels = {
                ch: await factory.connect(acct.user_id, ch) for ch in ("email", "linkedin", "whatsapp")
            }
            return acct, channels

        # --- helpers ---------------------------------------------------------------------------------

        def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
            headers = {**self.headers, **kwargs.pop("headers", {})}
            response = h.run(h.http.request(method, path, headers=headers, **kwargs))
            body = response.json()
            if response.status_code >= 400:
                assert body["ok"] is False and body["error"]["code"], body
                assert body["error"]["request_id"] == response.headers["x-request-id"], body
            else:
                assert body["ok"] is True, body
            return response

        def snapshot(self) -> Snapshot:
            async def read() -> Snapshot:
                async with transaction(h.runtime.sessionmaker) as session:
                    balance = await session.get(CreditBalance, self.acct.user_id)
                    assert balance is not None
                    jobs = (
                        await session.execute(select(Job).where(Job.user_id == self.acct.user_id))
                    ).scalars()
                    rows = await session.execute(
                        select(CreditEntry.job_id, CreditEntry.kind, func.sum(CreditEntry.amount))
                        .where(CreditEntry.user_id == self.acct.user_id)
                        .group_by(CreditEntry.job_id, CreditEntry.kind)
                    )
                    return Snapshot(
                        granted=int(balance.granted),
                        charged=int(balance.charged),
                        reserved=int(balance.reserved),
                        jobs={
                            job.id: {
                                "action": job.action,
                                "status": job.status,
                                "reserved": int(job.reserved_credits),
                                "charged": int(job.charged_credits),
                                "scheduled_at": job.scheduled_at,
                            }
                            for job in jobs
                        },
                        entries={(job_id or "", kind): int(total) for job_id, kind, total in rows},
                    )

            return h.run(read())

        def path_of(self, kind: str, webset: str | None = None) -> str:
            return KINDS[kind].path.replace("{webset}", webset or "")

        def job_id_of(self, kind: str, item: dict[str, Any]) -> str:
            if kind == "websets.create":
                self.websets[item["webset"]["id"]] = item["preparation_job"]["id"]
                return str(item["preparation_job"]["id"])
            return str(item["id"])

        def post_creation(
            self, kind: str, variant: int, *, key: str | None, webset: str | None = None
        ) -> httpx.Response:
            """A creation as a client makes it; checks the outcome against the account's state before."""
            body = make_body(kind, variant, h.world, self.channels)
            path = self.path_of(kind, webset)
            before = self.snapshot()
            expected = KINDS[kind].reservation(body)
            headers = {"Idempotency-Key": key} if key else {}
            response = self.request("POST", path, json=body, headers=headers)
            after = self.snapshot()
            new_jobs = set(after.jobs) - set(before.jobs)
            if response.status_code == 202:
                job_id = self.job_id_of(kind, response.json()["item"])
                assert new_jobs == {job_id} and job_id not in self.created, (new_jobs, job_id)
                self.created[job_id] = kind
                assert after.open_reservation(job_id) == expected == after.jobs[job_id]["reserved"], (
                    kind,
                    body,
                    after.jobs[job_id],
                )
                assert expected <= before.available
                if key is not None:
                    self.keys[(path, key)] = Key(kind, path, variant, body, 202, job_id)
                return response
            assert not new_jobs, (response.status_code, response.text)
            code = response.json()["error"]["code"]
            if response.status_code == 402:
                assert code == "insufficient_credits" and expected > before.available, (expected, before)
            elif kind == "websets.find_more" and response.status_code == 409 and code == "webset_busy":
                assert webset is not None
                status = self.request("GET", f"/api/v2/websets/{webset}").json()["item"]["status"]
                assert status != "completed", status
            else:
                raise AssertionError(f"{kind} {body}: {response.status_code} {response.text}")
            return response

        # --- rules -----------------------------------------------------------------------------------

        # Creation is most of what a client does: one rule per capability group (rules are drawn
        # uniformly), each with a key that is absent, fresh, or one already used — retried with the same
        # body, with another body, or on another path.

        @rule(kind=st.sampled_from(RESEARCH), variant=st.integers(0, 3), mode=KEY_MODES, data=st.data())
        def create_research(self, kind: str, variant: int, mode: str, data: st.DataObject) -> None:
            self.create(kind, variant, mode, data)

        @rule(kind=st.sampled_from(CUSTOMS), variant=st.integers(0, 3), mode=KEY_MODES, data=st.data())
        def create_customs(self, kind: str, variant: int, mode: str, data: st.DataObject) -> None:
            self.create(kind, variant, mode, data)

        @rule(kind=st.sampled_from(OUTREACH), variant=st.integers(0, 3), mode=KEY_MODES, data=st.data())
        def create_outreach(self, kind: str, variant: int, mode: str, data: st.DataObject) -> None:
            self.create(kind, variant, mode, data)

        @rule(variant=st.integers(0, 3), mode=KEY_MODES, data=st.data())
        def create_webset(self, variant: int, mode: str, data: st.DataObject) -> None:
            self.create("websets.create", variant, mode, data)

        @rule(
            data=st.data(), variant=st.integers(0, 1), mode=st.sampled_from(("fresh", "missing", *MODES[2:]))
        )
        def find_more(self, data: st.DataObject, variant: int, mode: str) -> None:
            """Find More on a list (its key is required), or on no list at all."""
            webset = data.draw(st.sampled_from(sorted(self.websets) or ["ws_missing"]))
            if mode == "missing" or webset == "ws_missing":
                before = set(self.snapshot().jobs)
                response = self.request("POST", f"/api/v2/websets/{webset}/find-more", json={"count": 25})
                assert response.status_code == 400, response.text
                assert response.json()["error"]["code"] == "idempotency_key_required"
                assert set(self.snapshot().jobs) == before
                return
            self.create("websets.find_more", variant, mode, data, webset=webset)

        def create(
            self, kind: str, variant: int, mode: str, data: st.DataObject, webset: str | None = None
        ) -> None:
            if mode == "none":
                self.post_creation(kind, variant, key=None, webset=webset)
            elif mode == "fresh" or not self.keys:
                self.post_creation(kind, variant, key=uuid.uuid4().hex, webset=webset)
            else:
                key = data.draw(st.sampled_from(sorted(self.keys)))
                if mode == "same_body":
                    self.retry_with_the_same_key(key)
                elif mode == "other_body":
                    self.reuse_the_key_with_another_body(key, data.draw(st.integers(1, 3)))
                elif (self.path_of(kind, webset), key[1]) not in self.keys:
                    # A key is scoped to its path: on another path it is a new request.
                    self.post_creation(kind, variant, key=key[1], webset=webset)

        def retry_with_the_same_key(self, key: tuple[str, str]) -> None:
            """Same key, same path, same body: the first answer again, no new job."""
            first = self.keys[key]
            before = set(self.snapshot().jobs)
            response = self.request("POST", first.path, json=first.body, headers={"Idempotency-Key": key[1]})
            assert response.status_code == first.status, response.text
            assert self.job_id_of(first.kind, response.json()["item"]) == first.job_id
            assert set(self.snapshot().jobs) == before

        def reuse_the_key_with_another_body(self, key: tuple[str, str], shift: int) -> None:
            """Same key and path, another body: 409 `idempotency_conflict`, no new job."""
            first = self.keys[key]
            if first.kind == "websets.find_more":
                shift = 1  # its body has two variants
            body = make_body(first.kind, first.variant + shift, h.world, self.channels)
            assert body != first.body
            before = set(self.snapshot().jobs)
            response = self.request("POST", first.path, json=body, headers={"Idempotency-Key": key[1]})
            assert response.status_code == 409, response.text
            assert response.json()["error"]["code"] == "idempotency_conflict"
            assert set(self.snapshot().jobs) == before
            assert self.keys[key] == first

        @rule(data=st.data())
        def cancel(self, data: st.DataObject) -> None:
            jobs = self.snapshot().jobs
            if not jobs:
                return
            job_id = data.draw(st.sampled_from(sorted(jobs)))
            before = self.request("GET", f"/api/v2/jobs/{job_id}").json()["item"]
            response = self.request("POST", f"/api/v2/jobs/{job_id}/cancel")
            after = self.request("GET", f"/api/v2/jobs/{job_id}").json()["item"]
            if before["status"] in PENDING:
                assert response.status_code == 200, response.text
                item = response.json()["item"]
                assert item["status"] == after["status"] == "cancelled", (item, after)
                assert item["billing"]["charged_credits"] == 0 and item["result"] is None
                assert self.snapshot().open_reservation(job_id) == 0
            elif before["status"] in TERMINAL:
                assert response.status_code == 200, response.text
                assert response.json()["item"] == before == after
            else:
                assert response.status_code == 409, response.text
                assert response.json()["error"]["code"] == "job_already_running"
                assert after["status"] == before["status"]

        @rule(data=st.data())
        def read_job(self, data: st.DataObject) -> None:
            if not self.created:
                response = self.request("GET", "/api/v2/jobs/job_doesnotexist")
                assert response.status_code == 404 and response.json()["error"]["code"] == "task_not_found"
                return
            job_id = data.draw(st.sampled_from(sorted(self.created)))
            item = self.request("GET", f"/api/v2/jobs/{job_id}").json()["item"]
            assert item["id"] == job_id
            if self.created[job_id].startswith("outreach.") and self.created[job_id] != "outreach.post_like":
                v1 = self.request("GET", f"/api/v1/outreach/jobs/{job_id}").json()["item"]
                assert v1["status"] == item["status"]
            if item["status"] in TERMINAL:
                seen = self.final.setdefault(job_id, (item["status"], item["billing"]["charged_credits"]))
                assert seen == (item["status"], item["billing"]["charged_credits"]), (seen, item)

        @rule()
        def run_worker(self) -> None:
            h.run(self.drain())

        async def drain(self) -> None:
            """A worker until none of this account's jobs is due or under way (but the held echo jobs)."""
            worker = Worker(h.runtime, concurrency=4, actions=non_echo)
            task = asyncio.create_task(worker.run())
            try:
                deadline = h.loop.time() + DRAIN_TIMEOUT
                while await self._busy():
                    assert h.loop.time() < deadline, "the worker did not finish the due jobs"
                    await asyncio.sleep(0.05)
            finally:
                await worker.shutdown(grace_seconds=10.0)
                await task

        async def _busy(self) -> int:
            async with transaction(h.runtime.sessionmaker) as session:
                return int(
                    await session.scalar(
                        select(func.count())
                        .select_from(Job)
                        .where(
                            Job.user_id == self.acct.user_id,
                            Job.action != ECHO,
                            (Job.status == "running")
                            | (Job.status.in_(PENDING) & (Job.scheduled_at <= utcnow())),
                        )
                    )
                    or 0
                )

        @rule(amount=st.integers(1, 300))
        def top_up(self, amount: int) -> None:
            async def grant() -> None:
                async with transaction(h.runtime.sessionmaker) as session:
                    await ledger.grant(session, self.acct.user_id, amount)

            h.run(grant())
            self.granted += amount

        @rule()
        def check_credits(self) -> None:
            snap = self.snapshot()
            item = self.request("GET", "/api/v2/credits").json()["item"]
            charged = sum(job["charged"] for job in snap.jobs.values())
            open_ = sum(
                snap.open_reservation(j) for j, job in snap.jobs.items() if job["status"] not in TERMINAL
            )
            assert item["balance"] == self.granted - charged, (item, self.granted, charged)
            assert item["reserved"] == open_, (item, open_)
            assert item["available"] == item["balance"] - item["reserved"] >= 0, item

        @precondition(lambda self: len(self.held) < 2)
        @rule(max_units=st.integers(0, 20), asked=st.integers(0, 30), fails=st.booleans())
        def hold_a_running_job(self, max_units: int, asked: int, fails: bool) -> None:
            """An echo job (test plugin) held running until its file exists; cancelling it is refused."""
            block = self.tmp / f"release-{uuid.uuid4().hex[:8]}"
            body: dict[str, Any] = {"block_file": str(block), "max_units": max_units, "units": asked}
            if fails:
                body["fail"] = "echo_failed"
            available = self.snapshot().available
            reserved = math.ceil(max_units * ECHO_PRICE)
            response = self.request("POST", "/api/v2/test/echo", json=body)
            if response.status_code == 402:
                assert reserved > available
                return
            assert response.status_code == 202, response.text
            job_id = response.json()["item"]["id"]
            self.created[job_id] = "test.echo"
            self.held[job_id] = block
            self.echo_expected[job_id] = (reserved, math.ceil(asked * ECHO_PRICE), fails)
            h.run(self._until(job_id, ("running",)))
            refused = self.request("POST", f"/api/v2/jobs/{job_id}/cancel")
            assert refused.status_code == 409 and refused.json()["error"]["code"] == "job_already_running"

        @precondition(lambda self: bool(self.held))
        @rule(data=st.data())
        def let_a_held_job_finish(self, data: st.DataObject) -> None:
            job_id = data.draw(st.sampled_from(sorted(self.held)))
            self.release(job_id)

        def release(self, job_id: str) -> None:
            self.held.pop(job_id).touch()
            item = h.run(self._until(job_id, TERMINAL))
            reserved, asked, fails = self.echo_expected[job_id]
            assert item["status"] == ("failed" if fails else "succeeded"), item
            assert item["billing"]["charged_credits"] == (0 if fails else min(asked, reserved)), item

        async def _until(self, job_id: str, statuses: tuple[str, ...]) -> dict[str, Any]:
            deadline = h.loop.time() + 30.0
            while True:
                response = await h.http.get(f"/api/v2/jobs/{job_id}", headers=self.headers)
                item: dict[str, Any] = response.json()["item"]
                if item["status"] in statuses:
                    return item
                assert h.loop.time() < deadline, f"job {job_id} stayed {item['status']}"
                await asyncio.sleep(0.02)

        # --- invariants ------------------------------------------------------------------------------

        @invariant()
        def responses_are_documented(self) -> None:
            assert not h.checker.failures, "responses outside the OpenAPI document:\n" + "\n".join(
                h.checker.failures
            )

        @invariant()
        def ledger_and_jobs_agree(self) -> None:
            snap = self.snapshot()
            # Every job is one a creation request made, or a list's run its preparation handed over to.
            extra = {j for j, job in snap.jobs.items() if j not in self.created}
            assert all(snap.jobs[j]["action"] == "websets.discover" for j in extra), extra
            assert set(self.created) <= set(snap.jobs)
            # An idempotency key answers with one job, and no two keys share one.
            assert len({key.job_id for key in self.keys.values()}) == len(self.keys)
            assert snap.granted == self.granted
            assert snap.available >= 0 and snap.granted - snap.charged >= 0, snap
            open_total = 0
            for job_id, job in snap.jobs.items():
                open_ = snap.open_reservation(job_id)
                charge = snap.entries.get((job_id, "charge"), 0)
                assert charge == job["charged"], (job_id, job, charge)
                if job["status"] in TERMINAL:
                    assert open_ == 0, (job_id, job, "a terminal job holds a reservation")
                    if job["status"] != "succeeded":
                        assert job["charged"] == 0, (job_id, job)
                    seen = self.final.setdefault(job_id, (job["status"], job["charged"]))
                    assert seen == (job["status"], job["charged"]), (job_id, seen, job)
                    assert job["charged"] <= snap.entries.get((job_id, "reserve"), 0), (job_id, job)
                else:
                    assert open_ == job["reserved"] >= 0 and job["charged"] == 0, (job_id, job, open_)
                    open_total += open_
            assert snap.reserved == open_total, (snap.reserved, open_total)
            assert snap.charged == sum(job["charged"] for job in snap.jobs.values())

        # --- teardown --------------------------------------------------------------------------------

        def teardown(self) -> None:
            try:
                for job_id in list(self.held):
                    self.release(job_id)
                h.run(self.drain())
                # A job an ending job hands over (a list's discovery after its preparation) may be
                # written just after the worker was seen idle: drain again while any is due.
                for _ in range(3):
                    if not h.run(self._busy()):
                        break
                    h.run(self.drain())
                # What is left waits for a later pacing slot: a client cancels it.
                for job_id, job in self.snapshot().jobs.items():
                    if job["status"] not in TERMINAL:
                        assert job["status"] in PENDING and job["scheduled_at"] > utcnow(), job
                        cancelled = self.request("POST", f"/api/v2/jobs/{job_id}/cancel")
                        assert cancelled.status_code == 200, cancelled.text
                        assert cancelled.json()["item"]["status"] == "cancelled"
                snap = self.snapshot()
                assert all(job["status"] in TERMINAL for job in snap.jobs.values()), snap.jobs
                self.ledger_and_jobs_agree()
                self.responses_are_documented()
                charges = sum(job["charged"] for job in snap.jobs.values())
                credits = self.request("GET", "/api/v2/credits").json()["item"]
                assert credits["reserved"] == 0
                assert credits["balance"] == credits["available"] == self.granted - charges, (
                    credits,
                    charges,
                )
            finally:
                h.run(self.echo_worker.shutdown(grace_seconds=2.0))
                h.run(self.echo_task)

    return ApiMachine


def test_api_state_machine(settings: Settings, indexed_world: Path) -> None:
    # A long lease: a held job must not be rescued from its worker when the machine is slow (lease
    # expiry is tested apart); that would be timing, not a rule of the API.
    config = settings.model_copy(update={"world_dir": indexed_world, "job_lease_seconds": 60.0})
    world = read_world(indexed_world)
    loop = asyncio.new_event_loop()
    try:
        harness = loop.run_until_complete(start_harness(loop, config, world))
        try:
            run_state_machine_as_test(
                make_machine(harness),
                settings=settings_for_ci(),
            )
        finally:
            loop.run_until_complete(stop_harness(harness))
    finally:
        loop.close()


def settings_for_ci() -> hypothesis_settings:
    # Derandomized under `make test`, fresh under `make fuzz` (the profiles of tests/support/fuzzing.py).
    return hypothesis_settings(max_examples=examples(EXAMPLES), stateful_step_count=STEPS)
