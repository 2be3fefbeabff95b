"""A worker SIGKILLed while it holds a job of every kind (research public web and contacts, customs
sections and a trade report, a list's preparation and a Find More run, LinkedIn post likes, an email
dispatch batch): once another worker took over, every job is terminal, nothing was sent twice, no item
is there twice and the credits are what the jobs say they charged (PostgreSQL, real `leadwire api` /
`leadwire worker` processes, the sandbox world, a real SMTP server on loopback).

Most of these jobs finish in milliseconds, so the test holds them mid-job itself, without touching the
product: a metered job's outcome is committed with its account's `credit_balances` row locked
(`ledger.lock_accounts`), so a test transaction holding that row keeps research, customs and webset
jobs `running` between their work and their commit (a preparation waits while handing its reservation
over to the run it starts); a delivery's `sent` state is written to its
`deliveries` row, so a test transaction holding the rows of the post likes and dispatches keeps those
jobs between the provider call (the like in the sandbox outbox, the message accepted by the SMTP
server) and its record. The worker is killed while the locks are held: what it did is lost except what
the providers saw.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import signal
import socket
import sqlite3
import subprocess
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any, BinaryIO

import asyncpg
import duckdb
import httpx
import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import Envelope, Session

from leadwire.customs.jobs import PRICE_PER_ROW
from leadwire.customs.service import billable_rows, report_rows
from leadwire.platform.billing.prices import per_kind
from leadwire.providers.sandbox_channels import Outbox
from leadwire.providers.trade_schema import DUCKDB_FILE, DUCKDB_TABLE
from leadwire.research.service import contacts_units, public_web_units
from leadwire.websets.service import DISCOVER, FIND_MORE
from tests.conftest import _empty_pg
from tests.e2e.test_dispatch_processes import HoldingInbox
from tests.engagement.test_post_like_jobs import _authors
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.jobs import with_runtime
from tests.support.processes import free_port, leadwire_process, process_env, wait_for, wait_ready

pytestmark = pytest.mark.e2e

CREDITS = 1000
TERMINAL = ("succeeded", "failed", "cancelled")
LIKES = 4  # post likes, one account each (a LinkedIn account's likes are paced a minute apart)
DISPATCHES = 4  # email dispatches, one account each, for the same reason


@pytest.fixture
def pg_url(pg_database: str) -> str:
    asyncio.run(_empty_pg(pg_database))
    return pg_database


class RecordingInbox(HoldingInbox):
    """Holds every DATA until released (the send is in flight), then keeps who was sent what."""

    def __init__(self) -> None:
        super().__init__()
        self.accepted: list[str] = []

    async def handle_DATA(self, server: Any, session: Session, envelope: Envelope) -> str:
        reply = await super().handle_DATA(server, session, envelope)
        self.accepted.extend(envelope.rcpt_tos)
        return reply


@contextlib.contextmanager
def smtp_inbox() -> Iterator[tuple[RecordingInbox, int]]:
    inbox, port = RecordingInbox(), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        inbox.release.set()
        controller.stop()


def outbox_locked(path: Path) -> BinaryIO:
    """The sandbox outbox file, its lock held until closed: a like being written waits for it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = path.open("ab")
    fcntl.flock(handle, fcntl.LOCK_EX)
    return handle


class Db:
    """A connection of the test's own, on an event loop of its own (the test body is synchronous)."""

    def __init__(self, url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.conn: asyncpg.Connection = self.loop.run_until_complete(
            asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
        )
        self.pid: int = self.run(self.conn.fetchval("SELECT pg_backend_pid()"))

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def close(self) -> None:
        self.run(self.conn.close())
        self.loop.close()


def _blocked_by(db: Db, locker: Db) -> int:
    """How many backends wait for a lock `locker` holds."""
    return int(
        db.run(
            db.conn.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", locker.pid
            )
        )
    )


def _sending(db: Db, job_ids: list[str]) -> int:
    """Deliveries of these jobs committed as being sent (the intent recorded before the provider call)."""
    statement = "SELECT count(*) FROM deliveries WHERE job_id = ANY($1::text[]) AND state = 'sending'"
    return int(db.run(db.conn.fetchval(statement, job_ids)))


def _jobs(db: Db, job_ids: list[str]) -> dict[str, asyncpg.Record]:
    rows = db.run(
        db.conn.fetch(
            "SELECT id, status, lease_owner, attempt_count FROM jobs WHERE id = ANY($1::text[])", job_ids
        )
    )
    return {row["id"]: row for row in rows}


def _ok(response: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    return body


def _companies(world: Path) -> list[sqlite3.Row]:
    """World companies with enough people for a contacts search that returns several."""
    con = sqlite3.connect(f"file:{world / 'world.db'}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    try:
        rows: list[sqlite3.Row] = con.execute(
            "SELECT c.* FROM companies c "
            "WHERE (SELECT count(*) FROM people p WHERE p.company_id = c.id) >= 5 ORDER BY c.id LIMIT 3"
        ).fetchall()
        return rows
    finally:
        con.close()


def _importer(world: Path) -> tuple[str, date]:
    """The busiest importer of the world's trade store and its last shipment date."""
    con = duckdb.connect(str(world / DUCKDB_FILE), read_only=True)
    try:
        name, last = con.execute(
            f"SELECT importer_name, max(date) FROM {DUCKDB_TABLE} GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
        ).fetchone()  # type: ignore[misc]
    finally:
        con.close()
    return str(name), last


def _accounts(url: str, smtp_port: int) -> dict[str, Any]:
    async def work(runtime: Any) -> dict[str, Any]:
        factory = AccountFactory(runtime)
        made: dict[str, Any] = {
            kind: await factory.create(credits=CREDITS) for kind in ("research", "customs", "websets")
        }
        made["likes"], made["dispatches"] = [], []
        for _ in range(LIKES):
            acct = await factory.create(credits=CREDITS)
            await factory.connect(acct.user_id, "linkedin")
            made["likes"].append(acct)
        for _ in range(DISPATCHES):
            acct = await factory.create(credits=CREDITS)
            account_id = await factory.connect_smtp(acct.user_id, smtp_port, password=None)
            made["dispatches"].append((acct, account_id))
        return made

    made: dict[str, Any] = asyncio.run(with_runtime(url, work))
    return made


def _post(http: httpx.Client, acct: TestAccount, path: str, body: dict[str, Any]) -> str:
    item = _ok(http.post(path, json=body, headers=acct.headers), 202)["item"]
    return str(item["id"])


def _job(http: httpx.Client, acct: TestAccount, job_id: str) -> dict[str, Any]:
    item: dict[str, Any] = _ok(http.get(f"/api/v2/jobs/{job_id}", headers=acct.headers))["item"]
    return item


def _webset(http: httpx.Client, acct: TestAccount, webset_id: str) -> dict[str, Any]:
    item: dict[str, Any] = _ok(http.get(f"/api/v2/websets/{webset_id}", headers=acct.headers))["item"]
    return item


def _webset_items(http: httpx.Client, acct: TestAccount, webset_id: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        params = {"match": "verified", "limit": "50", **({"cursor": cursor} if cursor else {})}
        page = _ok(http.get(f"/api/v2/websets/{webset_id}/items", params=params, headers=acct.headers))
        items.extend(page["items"])
        cursor = page["next_cursor"]
        if not cursor:
            return items


def _kill(process: subprocess.Popen[bytes]) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def test_a_worker_killed_holding_every_kind_of_job_leaves_nothing_doubled(
    pg_url: str, indexed_world: Path, tmp_path: Path
) -> None:
    data_dir = tmp_path / "var"
    env = process_env(
        data_dir,
        pg_url,
        LEADWIRE_WORLD_DIR=str(indexed_world),
        # Long enough that worker A, starved of CPU beside the rest of the suite on two cores, still
        # renews every lease while the test holds its jobs (3 s lapsed in 2 of 6 full runs); worker B
        # takes them at once anyway, since A's process is dead.
        LEADWIRE_JOB_LEASE_SECONDS="10",
        LEADWIRE_WORKER_POLL_SECONDS="0.2",
        # A's jobs wait on the rows the test holds locked for as long as its steps take; at the 5 s
        # default a slow run timed their statements out and they were handed back ("database
        # unavailable"), so they were no longer A's when the test looked.
        LEADWIRE_DB_STATEMENT_TIMEOUT_SECONDS="120",
        LEADWIRE_DB_LOCK_TIMEOUT_SECONDS="120",
    )
    likes_file = Outbox(data_dir).dir / "linkedin_likes.jsonl"
    companies = _companies(indexed_world)
    importer, last_shipment = _importer(indexed_world)
    year = {
        "company_name": importer,
        "company_role": "importer",
        "start_date": (last_shipment - timedelta(days=364)).isoformat(),
        "end_date": last_shipment.isoformat(),
    }
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    db, locker = Db(pg_url), Db(pg_url)
    with (
        smtp_inbox() as (inbox, smtp_port),
        leadwire_process(["api", "--port", str(port)], env, tmp_path / "api.log") as api,
        httpx.Client(base_url=base, timeout=30) as http,
    ):
        accts = _accounts(pg_url, smtp_port)
        research, customs, websets = accts["research"], accts["customs"], accts["websets"]
        wait_ready(base, api, tmp_path / "api.log")

        # A finished list to find more for (built by a worker that then stops gracefully).
        created = _ok(
            http.post(
                "/api/v2/websets",
                json={"query": "manufacturing companies", "count": 25},
                headers=websets.headers,
            ),
            202,
        )["item"]
        webset_id = created["webset"]["id"]
        with leadwire_process(["worker"], env, tmp_path / "worker-0.log"):
            wait_for(lambda: _webset(http, websets, webset_id)["status"] in ("completed", "failed"), 90, 0.2)
        first_run = _webset(http, websets, webset_id)
        assert first_run["status"] == "completed", first_run
        before = _webset_items(http, websets, webset_id)
        earlier_jobs = [first_run["preparation_job_id"], first_run["run_job_id"]]

        # Every job created while no worker runs: nothing can finish before the locks are in place.
        metered: dict[str, tuple[TestAccount, str]] = {}
        for company in companies:
            web = {
                "queries": [f"{company['industry']} {company['city']}", company["name"]],
                "search_limit": 3,
            }
            metered[_post(http, research, "/api/v2/research/public-web", web)] = (research, "public_web")
            contacts = {"domain": company["domain"], "limit": 50}
            metered[_post(http, research, "/api/v2/research/contacts", contacts)] = (research, "contacts")
        for section in ("counterparties", "categories", "countries", "trends"):
            metered[_post(http, customs, f"/api/v2/customs/{section}", year)] = (customs, section)
        metered[_post(http, customs, "/api/v2/customs/trade-reports", year)] = (customs, "report")
        more = _ok(
            http.post(
                f"/api/v2/websets/{webset_id}/find-more",
                json={"count": 25},
                headers={**websets.headers, "Idempotency-Key": "more-1"},
            ),
            202,
        )["item"]
        metered[str(more["id"])] = (websets, "find_more")
        second = _ok(
            http.post(
                "/api/v2/websets", json={"query": "software companies", "count": 25}, headers=websets.headers
            ),
            202,
        )["item"]["webset"]["id"]
        metered[_webset(http, websets, second)["preparation_job_id"]] = (websets, "prepare")
        likes: dict[str, TestAccount] = {}
        for acct, (profile, topic, _posts) in zip(
            accts["likes"], _authors(indexed_world, "en", LIKES), strict=True
        ):
            body = {"profile_url": profile, "content": topic}
            likes[_post(http, acct, "/api/v2/outreach/linkedin/post-likes", body)] = acct
        dispatches: dict[str, tuple[TestAccount, str]] = {}
        for n, (acct, account_id) in enumerate(accts["dispatches"]):
            recipient = f"person{n}@acme.example"
            body = {
                "account_id": account_id,
                "channel": "email",
                "action": "outreach",
                "recipient": {"address": recipient},
                "content": {"subject": f"Hello {n}", "text": "Only once, please."},
            }
            dispatches[_post(http, acct, "/api/v2/outreach/dispatches", body)] = (acct, recipient)
        sends = [*likes, *dispatches]
        every = [*metered, *sends]

        # The metered accounts' balances locked: their jobs can do their work, not commit its outcome.
        locker.run(locker.conn.execute("BEGIN"))
        locker.run(
            locker.conn.execute(
                "SELECT 1 FROM credit_balances WHERE user_id = ANY($1::text[]) FOR UPDATE",
                [research.user_id, customs.user_id, websets.user_id],
            )
        )
        likes_lock = outbox_locked(likes_file)
        try:
            with leadwire_process(["worker", "--concurrency", "32"], env, tmp_path / "worker-a.log") as a:
                owner = f"{socket.gethostname()}:{a.pid}:"

                def held_by_a() -> bool:
                    rows = _jobs(db, every).values()
                    return len(rows) == len(every) and all(
                        r["status"] == "running" and (r["lease_owner"] or "").startswith(owner) for r in rows
                    )

                # Every job claimed by A; the likes and messages in the providers' hands (their intent
                # to send committed); a metered outcome waiting for a balance.
                wait_for(held_by_a, timeout=60, interval=0.1)
                wait_for(lambda: _sending(db, sends) == len(sends), timeout=60, interval=0.1)
                wait_for(lambda: inbox.data_attempts == DISPATCHES, timeout=60, interval=0.1)
                wait_for(lambda: _blocked_by(db, locker) >= 1, timeout=60, interval=0.1)
                # Hold the deliveries' rows, then let the providers act: the likes are written and the
                # messages accepted, and neither can be recorded as sent.
                locker.run(
                    locker.conn.execute(
                        "SELECT 1 FROM deliveries WHERE job_id = ANY($1::text[]) FOR UPDATE", sends
                    )
                )
                likes_lock.close()  # closing the file releases its lock: A writes the likes
                wait_for(lambda: len(Outbox(data_dir).read("linkedin_likes")) == LIKES, timeout=30)
                inbox.release.set()
                wait_for(lambda: len(inbox.accepted) == DISPATCHES, timeout=30)
                # Nothing A did is committed: every job is still its own.
                assert held_by_a(), {k: (r["status"], r["lease_owner"]) for k, r in _jobs(db, every).items()}
                _kill(a)
        finally:
            likes_lock.close()
        locker.run(locker.conn.execute("ROLLBACK"))
        killed = _jobs(db, every)
        assert all(r["status"] == "running" for r in killed.values())  # the lease is still out there

        with leadwire_process(["worker", "--concurrency", "8"], env, tmp_path / "worker-b.log"):

            def finished() -> bool:
                return all(r["status"] in TERMINAL for r in _jobs(db, every).values())

            wait_for(finished, timeout=90, interval=0.2)
            # The list whose preparation was interrupted goes on to its own run, on this worker.
            wait_for(lambda: _webset(http, websets, second)["status"] in ("completed", "failed"), 90, 0.2)
        owners = {job_id: acct for job_id, (acct, _) in metered.items()}
        owners |= likes | {job_id: acct for job_id, (acct, _) in dispatches.items()}
        jobs = {job_id: _job(http, owners[job_id], job_id) for job_id in every}
        earlier = {job_id: _job(http, websets, job_id) for job_id in earlier_jobs}
        after = _webset(http, websets, webset_id)
        items = _webset_items(http, websets, webset_id)
        prepared = _webset(http, websets, second)
        second_run = _job(http, websets, prepared["run_job_id"])
        second_items = _webset_items(http, websets, second)
        balances = {
            name: _ok(http.get("/api/v2/credits", headers=acct.headers))["item"]
            for name, acct in (("research", research), ("customs", customs), ("websets", websets))
        }
        table = db.run(
            db.conn.fetch("SELECT user_id, action, status, resource_id, charged_credits FROM jobs")
        )
    db.close()
    locker.close()

    # Every job was held by A when it died, and was taken over: a second attempt, then terminal.
    assert {j["status"] for j in jobs.values()} <= set(TERMINAL)
    assert all(j["attempt_count"] == 2 for j in jobs.values()), {
        k: j["attempt_count"] for k, j in jobs.items()
    }

    # Metered jobs ran again from the start and charged what their results hold, once.
    for job_id, (_acct, kind) in metered.items():
        job = jobs[job_id]
        assert job["status"] == "succeeded", job
        result = job["result"]
        if kind == "public_web":
            units = public_web_units(result)
            for per_query in result["results"]:
                urls = [s["url"] for s in per_query["sources"]]
                assert len(urls) == len(set(urls)), "a source twice"
        elif kind == "contacts":
            units = contacts_units(result)
            emails = [c["email"] for c in result["contacts"] if c["email"]]
            assert len(emails) == len(set(emails)), "a contact twice"
            assert len({n["id"] for n in result["nodes"]}) == len(result["nodes"])
        elif kind == "report":
            units = per_kind(**PRICE_PER_ROW).credits(report_rows(result))
        elif kind in ("find_more", "prepare"):
            continue  # below, against the lists' items
        else:
            units = per_kind(**PRICE_PER_ROW).credits({kind: billable_rows(kind, result["data"])})
            keys = [str(sorted(row.items())) for row in result["data"]["items"]]
            assert len(keys) == len(set(keys)), f"a {kind} row twice"
        assert job["billing"]["status"] == "settled" and job["billing"]["charged_credits"] == units, job

    # Find More: more companies, none twice, a credit per newly released qualified item.
    find_more = jobs[str(more["id"])]
    assert after["status"] == "completed", after
    websites = [i["entity"].get("website") or i["entity"].get("domain") for i in items]
    assert all(websites) and len(websites) == len(set(websites)), "a company twice in the list"
    assert len({i["id"] for i in items}) == len(items)
    assert {i["id"] for i in before} <= {i["id"] for i in items}
    new_qualified = [
        i
        for i in items
        if i["id"] not in {b["id"] for b in before} and i["match"]["status"] in ("full", "partial")
    ]
    assert new_qualified and find_more["billing"]["charged_credits"] == len(new_qualified), find_more[
        "billing"
    ]

    # The list whose preparation was interrupted: prepared once, run once, its items once each.
    assert prepared["status"] == "completed" and second_run["status"] == "succeeded", prepared
    assert second_run["attempt_count"] == 1  # one run, started by the preparation that completed
    sites = [i["entity"].get("website") or i["entity"].get("domain") for i in second_items]
    assert all(sites) and len(sites) == len(set(sites)), "a company twice in the prepared list"
    qualified = [i for i in second_items if i["match"]["status"] in ("full", "partial")]
    prepare_charge = jobs[prepared["preparation_job_id"]]["billing"]["charged_credits"]
    assert prepare_charge + second_run["billing"]["charged_credits"] == len(qualified)

    # Credits: each account's balance is its grant minus what its jobs say they charged; nothing reserved.
    charged: dict[str, int] = {"research": 0, "customs": 0, "websets": 0}
    for job_id, (acct, _) in metered.items():
        name = next(
            n for n, a in (("research", research), ("customs", customs), ("websets", websets)) if a is acct
        )
        charged[name] += jobs[job_id]["billing"]["charged_credits"]
    charged["websets"] += sum(j["billing"]["charged_credits"] for j in earlier.values())
    charged["websets"] += second_run["billing"]["charged_credits"]
    for name, credits in balances.items():
        assert charged[name] > 0, f"{name}: nothing charged, the comparison would prove nothing"
        assert credits["reserved"] == 0 and credits["balance"] == CREDITS - charged[name], (name, credits)
    # The same from the jobs table, counting every job of the accounts (one the test did not create, a
    # second run of a list, would show here): all terminal, their charges the accounts' whole spend.
    assert {r["status"] for r in table} <= set(TERMINAL), [
        dict(r) for r in table if r["status"] not in TERMINAL
    ]
    for name, acct in (("research", research), ("customs", customs), ("websets", websets)):
        assert sum(r["charged_credits"] for r in table if r["user_id"] == acct.user_id) == charged[name]
    runs = sorted((r["resource_id"], r["action"]) for r in table if r["action"] in (DISCOVER, FIND_MORE))
    assert runs == sorted([(webset_id, DISCOVER), (webset_id, FIND_MORE), (second, DISCOVER)]), runs

    # Sends: each like written and each message accepted exactly once; the rescued jobs, not knowing
    # whether the provider acted, failed `delivery_unknown` instead of acting again.
    written = Outbox(data_dir).read("linkedin_likes")
    assert len(written) == LIKES and len({(w["account"], w["post_id"]) for w in written}) == LIKES, written
    assert sorted(inbox.accepted) == sorted(r for _, r in dispatches.values())
    assert inbox.data_attempts == DISPATCHES
    for job_id in sends:
        assert (jobs[job_id]["status"], jobs[job_id]["error"]["code"]) == ("failed", "delivery_unknown")
