"""Exclusions: a list created or continued with `exclude` never shows (nor verifies, nor charges) what
the named lists hold, across Find More; every malformed or foreign source has its code (SQLite and
PostgreSQL)."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from leadwire.platform.runtime import Runtime
from leadwire.providers.reasoner import Prospect
from leadwire.websets.exclusions import Excluded, name_key
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import poll_job, running_worker
from tests.websets.conftest import SWISS_CHEMICALS, all_items, create_webset, domain, wait_finished

QUERY = "chemical companies in Switzerland"


async def _find_more(client: httpx.AsyncClient, headers: dict[str, str], webset_id: str, **body: Any) -> Any:
    return await client.post(
        f"/api/v2/websets/{webset_id}/find-more",
        json={"count": 25, **body},
        headers={**headers, "Idempotency-Key": uuid.uuid4().hex},
    )


async def test_a_list_excluding_another_leaves_its_companies_out_and_charges_only_what_is_new(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=200)
    async with running_worker(pool_runtime):
        first = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
        done = await wait_finished(pool_client, acct.headers, first)
        await poll_job(pool_client, acct.headers, done["run_job_id"], until=("succeeded",))
        held = {domain(i) for i in await all_items(pool_client, acct.headers, first)}
        second = (
            await create_webset(
                pool_client, acct.headers, query=QUERY, count=25, exclude=[{"source": "webset", "id": first}]
            )
        )["webset"]["id"]
        webset = await wait_finished(pool_client, acct.headers, second)
        shown = await all_items(pool_client, acct.headers, second, match="verified")
        await poll_job(pool_client, acct.headers, webset["run_job_id"], until=("succeeded",))
        # Find More on the second list: the first list stays excluded, and nothing else qualifies.
        more = assert_ok(await _find_more(pool_client, acct.headers, second), 202)["item"]
        finished = await poll_job(pool_client, acct.headers, more["id"], until=("succeeded",), timeout=60)
        after = await all_items(pool_client, acct.headers, second, match="verified")
    assert len(held) == 25
    assert webset["exclude"] == [{"source": "webset", "id": first}]
    found = {domain(i) for i in shown}
    # The five Swiss chemical companies the first list does not hold, and never one it does.
    assert not found & held
    assert {domain(i) for i in shown if i["match"]["status"] != "rejected"} == {
        f"alpen{n}.example" for n in range(SWISS_CHEMICALS)
    } - held
    assert webset["progress"]["stop_reason"] == "exhausted"
    assert not {domain(i) for i in after} & held and finished["billing"]["charged_credits"] == 0
    credits = assert_ok(await pool_client.get("/api/v2/credits", headers=acct.headers))["item"]
    assert credits["balance"] == 200 - SWISS_CHEMICALS and credits["reserved"] == 0


async def test_find_more_adds_exclusions_that_hold_for_its_run(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=200)
    async with running_worker(pool_runtime):
        banks = (await create_webset(pool_client, acct.headers, query="Swiss banks", count=25))["webset"][
            "id"
        ]
        await wait_finished(pool_client, acct.headers, banks)
        chemicals = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
        await wait_finished(pool_client, acct.headers, chemicals)
        before = {domain(i) for i in await all_items(pool_client, acct.headers, chemicals)}
        # A second list of Swiss chemical companies, continued with the first one excluded.
        other = (await create_webset(pool_client, acct.headers, query=QUERY, count=25))["webset"]["id"]
        await wait_finished(pool_client, acct.headers, other)
        exclusions = [{"source": "webset", "id": chemicals}, {"source": "webset", "id": banks}]
        more = assert_ok(await _find_more(pool_client, acct.headers, other, exclude=exclusions), 202)["item"]
        await poll_job(pool_client, acct.headers, more["id"], until=("succeeded",), timeout=60)
        webset = await wait_finished(pool_client, acct.headers, other)
        run_two = await all_items(pool_client, acct.headers, other, match="verified")
    assert webset["exclude"] == exclusions
    assert len(before) == 25
    # Its first run found the same 25 the excluded list holds (it ran before the exclusion); the run
    # Find More started adds only the five companies neither list holds.
    added = {domain(i) for i in run_two} - before
    assert added == {f"alpen{n}.example" for n in range(SWISS_CHEMICALS)} - before


@pytest.mark.parametrize(
    ("exclude", "code", "param"),
    [
        ("ws_x", "invalid_exclusion", "exclude"),
        ([{"source": "crm", "id": "crm_1"}], "invalid_exclusion", "exclude.0.source"),
        ([{"source": "webset"}], "invalid_exclusion", "exclude.0.id"),
        ([{"source": "webset", "id": f"ws_{n}"} for n in range(11)], "invalid_exclusion", "exclude"),
        ([{"source": "webset", "id": "ws_nothing"}], "exclusion_not_found", "exclude.0.id"),
    ],
    ids=["not-a-list", "unknown-source", "no-id", "too-many", "unknown-list"],
)
async def test_a_bad_exclusion_is_refused_with_its_code(
    client: httpx.AsyncClient, runtime: Runtime, exclude: Any, code: str, param: str
) -> None:
    acct = await AccountFactory(runtime).create()
    response = await client.post(
        "/api/v2/websets", json={"query": QUERY, "exclude": exclude}, headers=acct.headers
    )
    assert_error(response, 404 if code == "exclusion_not_found" else 400, code, param=param)
    listed = assert_ok(await client.get("/api/v2/websets", headers=acct.headers))
    assert listed["items"] == []  # nothing half-made: no list, no job


async def test_another_accounts_list_cannot_be_excluded(client: httpx.AsyncClient, runtime: Runtime) -> None:
    owner, other = await AccountFactory(runtime).create(), await AccountFactory(runtime).create()
    theirs = (await create_webset(client, owner.headers, query=QUERY))["webset"]["id"]
    response = await client.post(
        "/api/v2/websets",
        json={"query": QUERY, "exclude": [{"source": "webset", "id": theirs}]},
        headers=other.headers,
    )
    assert_error(response, 404, "exclusion_not_found", param="exclude.0.id")


async def _cancelled_list(client: httpx.AsyncClient, headers: dict[str, str]) -> str:
    """A list of the account that never runs: a source to name, cheaply."""
    created = await create_webset(client, headers, query="Swiss banks")
    job_id = created["preparation_job"]["id"]
    assert_ok(await client.post(f"/api/v2/jobs/{job_id}/cancel", headers=headers))
    return str(created["webset"]["id"])


async def test_find_more_may_not_take_a_list_past_ten_sources(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=500)
    sources = [await _cancelled_list(pool_client, acct.headers) for _ in range(11)]
    named = [{"source": "webset", "id": i} for i in sources]
    async with running_worker(pool_runtime):
        target = (await create_webset(pool_client, acct.headers, query=QUERY, exclude=named[:8]))["webset"]
        await wait_finished(pool_client, acct.headers, target["id"])
        too_many = await _find_more(pool_client, acct.headers, target["id"], exclude=named[8:])
        assert_error(too_many, 400, "invalid_exclusion", param="exclude")
        unchanged = assert_ok(await pool_client.get(f"/api/v2/websets/{target['id']}", headers=acct.headers))
        # Sources the list already excludes count once: eight and two new ones make ten.
        more = await _find_more(pool_client, acct.headers, target["id"], exclude=named[:1] + named[8:10])
        job = assert_ok(more, 202)["item"]
        await poll_job(pool_client, acct.headers, job["id"], until=("succeeded",), timeout=60)
        webset = await wait_finished(pool_client, acct.headers, target["id"])
    assert unchanged["item"]["exclude"] == named[:8]
    assert webset["exclude"] == named[:10]


def _company(name: str, website: str | None, country: str = "CH") -> Prospect:
    return Prospect(key=website or name, kind="company", name=name, website=website, country=country)


def test_a_company_is_excluded_by_domain_else_by_name_and_country() -> None:
    excluded = Excluded(
        domains=frozenset({"acme.ch"}), names=frozenset({name_key("Zürcher Präzision AG", "ch")})
    )
    assert not excluded.keeps(_company("Acme", "https://www.ACME.ch/about"))
    assert not excluded.keeps(_company("Zurcher Prazision", None))
    assert not excluded.keeps(_company("zürcher präzision, ag", "zp.example"))
    assert excluded.keeps(_company("Zürcher Präzision", None, country="DE"))  # another country's
    assert excluded.keeps(_company("Acme", "acme.de"))


def test_a_name_without_a_country_is_excluded_in_every_country_and_an_empty_name_in_none() -> None:
    excluded = Excluded(names=frozenset({name_key("Acme GmbH", None)}))
    assert not excluded.keeps(_company("Acme", None, country="CH"))
    assert not excluded.keeps(_company("ACME", None, country="DE"))
    assert Excluded(names=frozenset({name_key("-", "CH")})).keeps(_company("", None))


def test_a_name_keeps_a_legal_form_word_that_is_all_there_is() -> None:
    assert name_key("Limited", "GB") == ("limited", "GB")
    assert name_key("Müller & Co. KG", None) == name_key("Muller", "") == ("muller", "")
