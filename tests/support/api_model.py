"""The model behind tests/platform/test_api_state_machine.py: the world's names the requests use, the
in-process harness (app, runtime, loop), request bodies of every job kind with the reservation each
should make, and a snapshot of an account's jobs and ledger."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import sqlite3
from collections.abc import Awaitable
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import httpx
from fastapi import FastAPI
from hypothesis import strategies as st

from leadwire.app import create_app
from leadwire.config import Settings
from leadwire.platform.runtime import Runtime, build_runtime
from leadwire.providers.trade_schema import DUCKDB_FILE, DUCKDB_TABLE
from tests.engagement.test_post_like_jobs import _authors
from tests.support import log_secrets
from tests.support.conformance import ResponseConformance
from tests.support.lifespan import app_lifespan

T = TypeVar("T")

EXAMPLES = int(os.environ.get("LEADWIRE_FUZZ_EXAMPLES", "8"))
STEPS = 14
TERMINAL = ("succeeded", "failed", "cancelled")
PENDING = ("queued", "scheduled")
INITIAL_CREDITS = 60
DRAIN_TIMEOUT = 90.0

# Prices of customs per returned row (docs/api.md, Jobs and their statuses) and of the test plugin's
# echo action.
CUSTOMS_PRICE = {
    "counterparties": Decimal("3.6"),
    "categories": Decimal("3.0"),
    "countries": Decimal("3.0"),
    "trends": Decimal("3.6"),
}
CUSTOMS_PRICE["trade-reports"] = sum(CUSTOMS_PRICE.values(), Decimal(0))
ECHO_PRICE = Decimal("1.5")

QUERIES = (
    "logistics software companies in Germany",
    "manufacturing companies",
    "software companies",
    "food producers in France",
    "construction firms in Spain",
)


@dataclass(frozen=True)
class World:
    """What valid bodies need from the sandbox world."""

    domains: list[str]
    importer: str
    year: dict[str, str]
    authors: list[tuple[str, str]]


def read_world(world: Path) -> World:
    con = sqlite3.connect(f"file:{world / 'world.db'}?mode=ro", uri=True)
    try:
        domains = [
            row[0]
            for row in con.execute(
                "SELECT c.domain FROM companies c "
                "WHERE (SELECT count(*) FROM people p WHERE p.company_id = c.id) >= 3 ORDER BY c.id LIMIT 4"
            )
        ]
    finally:
        con.close()
    trade = duckdb.connect(str(world / DUCKDB_FILE), read_only=True)
    try:
        name, last = trade.execute(
            f"SELECT importer_name, max(date) FROM {DUCKDB_TABLE} GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
        ).fetchone()  # type: ignore[misc]
    finally:
        trade.close()
    last_day: date = last
    year = {"start_date": (last_day - timedelta(days=364)).isoformat(), "end_date": last_day.isoformat()}
    authors = [(url, topic) for url, topic, _posts in _authors(world, "en", 3)]
    assert domains and authors
    return World(domains=domains, importer=str(name), year=year, authors=authors)


@dataclass
class Harness:
    """One runtime, app and client on one event loop, shared by every sequence (each its own account)."""

    loop: asyncio.AbstractEventLoop
    runtime: Runtime
    app: FastAPI
    http: httpx.AsyncClient
    checker: ResponseConformance
    world: World
    stack: contextlib.AsyncExitStack = field(default_factory=contextlib.AsyncExitStack)

    def run(self, work: Awaitable[T]) -> T:
        return self.loop.run_until_complete(work)


async def start_harness(loop: asyncio.AbstractEventLoop, config: Settings, world: World) -> Harness:
    runtime = await build_runtime(config)
    app = create_app(runtime=runtime)
    checker = ResponseConformance(app)
    stack = contextlib.AsyncExitStack()
    await stack.enter_async_context(app_lifespan(app))

    async def register_secrets(request: httpx.Request) -> None:
        if request.method == "POST" and "/outreach/" in request.url.path:
            with contextlib.suppress(ValueError):
                log_secrets.register_outreach_body(json.loads(request.content or b"null"))

    http = await stack.enter_async_context(
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, raise_app_exceptions=False),
            base_url="http://leadwire.test",
            event_hooks={"request": [register_secrets], "response": [checker.hook()]},
        )
    )
    return Harness(loop, runtime, app, http, checker, world, stack)


async def stop_harness(harness: Harness) -> None:
    await harness.stack.aclose()
    await harness.runtime.close()


# --- bodies of every capability ------------------------------------------------------------------------


@dataclass(frozen=True)
class Kind:
    name: str
    path: str  # `{webset}` is filled in for Find More
    reservation: Any  # body -> credits reserved at creation


def _customs(section: str) -> Kind:
    return Kind(
        f"customs.{section}",
        f"/api/v2/customs/{section}",
        lambda body: math.ceil(body["page_size"] * CUSTOMS_PRICE[section]),
    )


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind(
            "research.public_web",
            "/api/v2/research/public-web",
            lambda body: len(body["queries"]) * body["search_limit"],
        ),
        Kind("research.contacts", "/api/v2/research/contacts", lambda body: body["limit"]),
        *(_customs(section) for section in CUSTOMS_PRICE),
        Kind("outreach.email", "/api/v2/outreach/dispatches", lambda body: 0),
        Kind("outreach.linkedin", "/api/v2/outreach/dispatches", lambda body: 0),
        Kind("outreach.whatsapp", "/api/v2/outreach/dispatches", lambda body: 0),
        Kind("outreach.post_like", "/api/v2/outreach/linkedin/post-likes", lambda body: 0),
        Kind("websets.create", "/api/v2/websets", lambda body: body["count"]),
        Kind("websets.find_more", "/api/v2/websets/{webset}/find-more", lambda body: body["count"]),
    )
}
RESEARCH = ("research.public_web", "research.contacts")
CUSTOMS = tuple(f"customs.{section}" for section in CUSTOMS_PRICE)
OUTREACH = ("outreach.email", "outreach.linkedin", "outreach.whatsapp", "outreach.post_like")
MODES = ("none", "fresh", "same_body", "other_body", "other_path")
KEY_MODES = st.sampled_from(MODES)


def make_body(kind: str, variant: int, world: World, accounts: dict[str, str]) -> dict[str, Any]:
    """A valid body of `kind`; two variants (mod 4; mod 2 for Find More) are never the same body."""
    v = variant % 4
    if kind == "research.public_web":
        queries = [QUERIES[v]] if v % 2 == 0 else [QUERIES[v], QUERIES[(v + 1) % len(QUERIES)]]
        return {"queries": queries, "search_limit": 1 + 3 * v}
    if kind == "research.contacts":
        return {"domain": world.domains[v % len(world.domains)], "limit": (5, 20, 50, 1)[v]}
    if kind.startswith("customs."):
        return {
            "company_name": world.importer,
            "company_role": "importer",
            **world.year,
            "page_size": (1, 5, 20, 2)[v],
        }
    if kind == "outreach.email":
        return {
            "account_id": accounts["email"],
            "channel": "email",
            "action": "outreach",
            "recipient": {"address": f"person{v}@acme.example", "name": "Jane Doe"},
            "content": {"subject": f"Hello {v}", "text": "Plain body"},
        }
    if kind == "outreach.linkedin":
        return {
            "account_id": accounts["linkedin"],
            "channel": "linkedin",
            "action": "outreach",
            "recipient": {"profile_url": f"https://www.linkedin.com/in/jane-doe-{v}"},
            "content": {"text": f"Hi Jane ({v})"},
        }
    if kind == "outreach.whatsapp":
        return {
            "account_id": accounts["whatsapp"],
            "channel": "whatsapp",
            "action": "outreach",
            "recipient": {"phone": f"+491512345678{v}"},
            "content": {"text": "Hallo"},
        }
    if kind == "outreach.post_like":
        profile, topic = world.authors[v % len(world.authors)]
        return {"profile_url": profile, "content": topic if v < len(world.authors) else f"{topic} trends"}
    if kind == "websets.create":
        return {"query": QUERIES[v], "count": 25}
    if kind == "websets.find_more":
        return {"count": (25, 100)[v % 2]}
    raise AssertionError(kind)


# --- the state machine -----------------------------------------------------------------------------------


@dataclass
class Key:
    """The first 2xx answer to (path, Idempotency-Key)."""

    kind: str
    path: str
    variant: int
    body: dict[str, Any]
    status: int
    job_id: str


@dataclass
class Snapshot:
    """The account as the database holds it, read while no worker runs."""

    granted: int
    charged: int
    reserved: int
    jobs: dict[str, Any]
    entries: dict[tuple[str, str], int]

    def open_reservation(self, job_id: str) -> int:
        return self.entries.get((job_id, "reserve"), 0) - self.entries.get((job_id, "release"), 0)

    @property
    def available(self) -> int:
        return self.granted - self.charged - self.reserved
