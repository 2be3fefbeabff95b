"""Imports: a list brought as CSV or JSON rows, every bad line reported with its code while the rest are
kept, the codes of a bad import, and a prospect list that leaves an import's companies out (SQLite and
PostgreSQL)."""

from __future__ import annotations

import httpx
import pytest

from leadwire.platform.runtime import Runtime
from leadwire.websets import imports
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import poll_job, running_worker
from tests.websets.conftest import SWISS_CHEMICALS, all_items, create_webset, domain, wait_finished

CSV_HEADERS = {"Content-Type": "text/csv"}


async def _import_csv(
    client: httpx.AsyncClient, headers: dict[str, str], text: str, **params: str
) -> httpx.Response:
    return await client.post(
        "/api/v2/imports", content=text.encode(), params=params, headers={**headers, **CSV_HEADERS}
    )


async def test_a_csv_import_keeps_good_lines_and_reports_every_bad_one(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    acct = await AccountFactory(runtime).create()
    text = (
        "\ufeffCompany,Website,Country\n"
        "Acme Chemicals AG,https://www.acme-chemicals.example/about,ch\n"
        "Rheinwerk GmbH,,DE\n"
        ",,DE\n"  # line 4: neither name nor domain
        "Bad Domain Ltd,not a domain,GB\n"  # line 5
        "Nowhere Inc,nowhere.example,USA\n"  # line 6: not an alpha-2 code
        '"Quoted, Name",quoted.example,FR\n'
    )
    created = assert_ok(await _import_csv(client, acct.headers, text, title="Customers"), 201)["item"]
    read = assert_ok(await client.get(f"/api/v2/imports/{created['id']}", headers=acct.headers))["item"]
    assert created == read
    assert created["format"] == "csv" and created["title"] == "Customers" and created["status"] == "completed"
    assert (created["rows"], created["accepted"], created["rejected"]) == (6, 3, 3)
    assert created["errors"] == [
        {"line": 4, "field": "name", "code": "name_or_domain_required"},
        {"line": 5, "field": "domain", "code": "invalid_domain"},
        {"line": 6, "field": "country", "code": "invalid_country"},
    ]


async def test_errors_past_the_first_hundred_are_counted_not_listed(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    acct = await AccountFactory(runtime).create()
    rows = [{"name": f"Company {n}", "country": "XYZ"} for n in range(150)] + [{"domain": "ok.example"}]
    created = assert_ok(await client.post("/api/v2/imports", json={"rows": rows}, headers=acct.headers), 201)[
        "item"
    ]
    assert (created["rows"], created["accepted"], created["rejected"]) == (151, 1, 150)
    assert len(created["errors"]) == imports.MAX_ERRORS
    assert [e["line"] for e in created["errors"]] == list(range(1, 101))


async def test_columns_are_mapped_by_name_when_they_are_not_the_fields_own(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    acct = await AccountFactory(runtime).create()
    text = "Firma;Web\nAcme,acme.example\n".replace(";", ",")
    created = assert_ok(
        await _import_csv(client, acct.headers, text, name_column="firma", domain_column="Web"), 201
    )["item"]
    mapped = {"rows": [{"org": "Acme", "site": "acme.example"}], "columns": {"name": "org", "domain": "site"}}
    from_json = assert_ok(await client.post("/api/v2/imports", json=mapped, headers=acct.headers), 201)[
        "item"
    ]
    assert created["accepted"] == from_json["accepted"] == 1 and from_json["format"] == "json"


@pytest.mark.parametrize(
    ("body", "code", "param"),
    [
        ({"rows": []}, "invalid_import", "rows"),
        ({"rows": "a,b"}, "invalid_import", "rows"),
        ({"rows": [{"phone": "1"}]}, "invalid_import", "columns"),
        ({"rows": [{"name": "A"}], "columns": {"domain": "site"}}, "invalid_import", "columns.domain"),
        ({}, "invalid_import", "rows"),
    ],
    ids=["empty", "not-a-list", "no-name-or-domain", "missing-mapped-column", "no-rows"],
)
async def test_a_bad_json_import_is_refused_with_its_code(
    client: httpx.AsyncClient, runtime: Runtime, body: dict[str, object], code: str, param: str
) -> None:
    acct = await AccountFactory(runtime).create()
    response = await client.post("/api/v2/imports", json=body, headers=acct.headers)
    assert_error(response, 400, code, param=param)
    assert assert_ok(await client.get("/api/v2/imports", headers=acct.headers))["items"] == []


async def test_a_bad_csv_import_is_refused_with_its_code(client: httpx.AsyncClient, runtime: Runtime) -> None:
    acct = await AccountFactory(runtime).create()
    not_utf8 = await client.post(
        "/api/v2/imports", content="Name\nMüller\n".encode("latin-1"), headers={**acct.headers, **CSV_HEADERS}
    )
    assert_error(not_utf8, 400, "invalid_import")
    assert_error(await _import_csv(client, acct.headers, ""), 400, "invalid_import")
    assert_error(
        await _import_csv(client, acct.headers, "Phone\n1\n"), 400, "invalid_import", param="columns"
    )


async def test_an_import_past_its_rows_is_import_too_large_and_leaves_nothing(
    client: httpx.AsyncClient, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(imports, "MAX_IMPORT_ROWS", 5)
    acct = await AccountFactory(runtime).create()
    text = "name\n" + "".join(f"Company {n}\n" for n in range(6))
    assert_error(await _import_csv(client, acct.headers, text), 413, "import_too_large")
    assert assert_ok(await client.get("/api/v2/imports", headers=acct.headers))["items"] == []


async def test_the_account_s_imports_are_bounded(
    client: httpx.AsyncClient, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(imports, "MAX_IMPORTS_PER_ACCOUNT", 2)
    acct = await AccountFactory(runtime).create()
    made = [
        assert_ok(await _import_csv(client, acct.headers, "name\nA\n"), 201)["item"]["id"] for _ in range(2)
    ]
    assert_error(await _import_csv(client, acct.headers, "name\nA\n"), 409, "import_limit_exceeded")
    assert_ok(await client.delete(f"/api/v2/imports/{made[0]}", headers=acct.headers))
    assert_ok(await _import_csv(client, acct.headers, "name\nA\n"), 201)


async def test_imports_are_listed_newest_first_and_belong_to_their_account(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    owner, other = await AccountFactory(runtime).create(), await AccountFactory(runtime).create()
    made = [
        assert_ok(await _import_csv(client, owner.headers, f"name\nCompany {n}\n"), 201)["item"]["id"]
        for n in range(3)
    ]
    first = assert_ok(await client.get("/api/v2/imports", params={"limit": 2}, headers=owner.headers))
    rest = assert_ok(
        await client.get("/api/v2/imports", params={"cursor": first["next_cursor"]}, headers=owner.headers)
    )
    assert [i["id"] for i in first["items"] + rest["items"]] == made[::-1] and not rest["has_more"]
    assert_error(
        await client.get(f"/api/v2/imports/{made[0]}", headers=other.headers), 404, "import_not_found"
    )
    assert_error(
        await client.delete(f"/api/v2/imports/{made[0]}", headers=other.headers), 404, "import_not_found"
    )
    assert assert_ok(await client.get("/api/v2/imports", headers=other.headers))["items"] == []


async def test_a_list_excluding_an_import_leaves_its_companies_out(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=200)
    # Ten of the Swiss chemical companies by domain, five more by name and country only.
    text = "name,domain,country\n" + "".join(f",alpen{n}.example,\n" for n in range(10))
    text += "".join(f"Alpen Chemie {n} AG,,CH\n" for n in range(10, 15))
    text += "Alpen Chemie 15,,DE\n"  # another country's company of that name: not this one
    brought = assert_ok(await _import_csv(pool_client, acct.headers, text), 201)["item"]
    async with running_worker(pool_runtime):
        created = await create_webset(
            pool_client,
            acct.headers,
            query="chemical companies in Switzerland",
            exclude=[{"source": "import", "id": brought["id"]}],
        )
        webset = await wait_finished(pool_client, acct.headers, created["webset"]["id"])
        found = {
            domain(i) for i in await all_items(pool_client, acct.headers, webset["id"], match="verified")
        }
    left_out = {f"alpen{n}.example" for n in range(15)}
    assert not found & left_out
    qualified = {f"alpen{n}.example" for n in range(SWISS_CHEMICALS)} - left_out
    assert qualified <= found and webset["progress"]["qualified"] == len(qualified)
    assert webset["exclude"] == [{"source": "import", "id": brought["id"]}]


async def test_an_import_of_another_account_cannot_be_excluded(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    owner, other = await AccountFactory(runtime).create(), await AccountFactory(runtime).create()
    theirs = assert_ok(await _import_csv(client, owner.headers, "name\nA\n"), 201)["item"]["id"]
    response = await client.post(
        "/api/v2/websets",
        json={"query": "banks", "exclude": [{"source": "import", "id": theirs}]},
        headers=other.headers,
    )
    assert_error(response, 404, "exclusion_not_found", param="exclude.0.id")


@pytest.mark.parametrize(
    "text",
    ["name,domain\n" + "A" * 140_000 + ",\n", "name,domain\nAc\x00me,\n", "name,domain\n"],
    ids=["field-past-the-csv-limit", "nul", "header-only"],
)
async def test_csv_no_reader_takes_is_invalid_import(
    client: httpx.AsyncClient, runtime: Runtime, text: str
) -> None:
    acct = await AccountFactory(runtime).create()
    assert_error(await _import_csv(client, acct.headers, text), 400, "invalid_import")
    assert assert_ok(await client.get("/api/v2/imports", headers=acct.headers))["items"] == []


async def test_json_rows_are_each_read_by_their_own_names(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    acct = await AccountFactory(runtime).create()
    rows = [{"domain": "a.example"}, {"Website": "https://b.example"}, {"Company": "C", "COUNTRY": "ch"}]
    created = assert_ok(await client.post("/api/v2/imports", json={"rows": rows}, headers=acct.headers), 201)
    assert (created["item"]["accepted"], created["item"]["rejected"]) == (3, 0)


async def test_a_json_import_past_ten_mib_is_request_payload_too_large(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    acct = await AccountFactory(runtime).create()
    rows = [{"name": "x" * 200, "domain": f"company-{n}.example"} for n in range(50_000)]
    response = await client.post("/api/v2/imports", json={"rows": rows}, headers=acct.headers)
    assert_error(response, 413, "request_payload_too_large")


async def test_a_retried_import_with_its_key_is_the_same_import(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    acct = await AccountFactory(runtime).create()
    headers = {**acct.headers, **CSV_HEADERS, "Idempotency-Key": "customers-1"}
    first = assert_ok(await client.post("/api/v2/imports", content=b"name\nA\n", headers=headers), 201)
    again = await client.post("/api/v2/imports", content=b"name\nA\n", headers=headers)
    other = await client.post("/api/v2/imports", content=b"name\nB\n", headers=headers)
    assert again.status_code == 201 and again.json()["item"] == first["item"]  # the stored answer
    assert_error(other, 409, "idempotency_conflict")
    assert len(assert_ok(await client.get("/api/v2/imports", headers=acct.headers))["items"]) == 1


async def test_a_list_seeded_from_an_import_verifies_its_rows_instead_of_searching(
    pool_client: httpx.AsyncClient, pool_runtime: Runtime
) -> None:
    acct = await AccountFactory(pool_runtime).create(credits=200)
    text = "name,domain,country\n" + "".join(f",alpen{n}.example,\n" for n in range(5))
    text += ",bergbank0.example,\n,bergbank1.example,\n"  # Swiss banks: not chemical companies
    text += "Alpen Chemie 7,,CH\n"  # known by name and country only
    text += "Nowhere AG,nowhere.example,CH\n"  # a company the world does not know
    brought = assert_ok(await _import_csv(pool_client, acct.headers, text), 201)["item"]
    async with running_worker(pool_runtime):
        created = await create_webset(
            pool_client,
            acct.headers,
            query="chemical companies in Switzerland",
            seed={"type": "import", "id": brought["id"]},
        )
        webset = await wait_finished(pool_client, acct.headers, created["webset"]["id"])
        verified = await all_items(pool_client, acct.headers, webset["id"], match="verified")
        # The list completes inside its run; the run's job settles its charge just after.
        await poll_job(pool_client, acct.headers, webset["run_job_id"], until=("succeeded",))
        credits = assert_ok(await pool_client.get("/api/v2/credits", headers=acct.headers))["item"]
        # Find More walks the rows again: every one is in the list already, so nothing is added.
        more = await pool_client.post(
            f"/api/v2/websets/{webset['id']}/find-more",
            json={"count": 25},
            headers={**acct.headers, "Idempotency-Key": "seeded-more"},
        )
        again = await poll_job(
            pool_client, acct.headers, assert_ok(more, 202)["item"]["id"], until=("succeeded",)
        )
        after = await all_items(pool_client, acct.headers, webset["id"], match="verified")
    assert again["result"]["released"] == 0 and again["billing"]["charged_credits"] == 0
    assert sorted(i["id"] for i in after) == sorted(i["id"] for i in verified)
    by_domain = {domain(i): i["match"]["status"] for i in verified if i["entity"].get("website")}
    chemical = {f"alpen{n}.example" for n in (0, 1, 2, 3, 4, 7)}
    # Every row verified, and nothing else: the list's candidates are the import's rows.
    assert set(by_domain) == chemical | {"bergbank0.example", "bergbank1.example", "nowhere.example"}
    assert {d for d, status in by_domain.items() if status == "full"} == chemical
    assert by_domain["bergbank0.example"] == by_domain["bergbank1.example"] == "rejected"
    assert by_domain["nowhere.example"] != "full"  # no record, no pages: never shown as verified
    assert webset["seed"] == {"type": "import", "id": brought["id"]}
    assert webset["progress"]["stop_reason"] == "exhausted"
    assert credits["balance"] == 200 - webset["progress"]["qualified"] and credits["reserved"] == 0


@pytest.mark.parametrize(
    ("seed", "status", "code"),
    [
        ({"type": "customs", "id": "imp_x"}, 400, "webset_seed_invalid"),
        ({"type": "import"}, 400, "webset_seed_invalid"),
        ({"type": "import", "id": "imp_nothing"}, 404, "webset_seed_not_found"),
    ],
    ids=["unknown-type", "no-id", "unknown-import"],
)
async def test_a_bad_seed_is_refused_with_its_code(
    client: httpx.AsyncClient, runtime: Runtime, seed: dict[str, str], status: int, code: str
) -> None:
    acct = await AccountFactory(runtime).create()
    response = await client.post(
        "/api/v2/websets", json={"query": "banks", "seed": seed}, headers=acct.headers
    )
    assert_error(response, status, code)
    assert assert_ok(await client.get("/api/v2/websets", headers=acct.headers))["items"] == []


async def test_imports_at_once_never_pass_the_account_s_bound_together(
    client: httpx.AsyncClient, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    monkeypatch.setattr(imports, "MAX_IMPORTS_PER_ACCOUNT", 1)
    acct = await AccountFactory(runtime).create()
    answers = await asyncio.gather(
        *(_import_csv(client, acct.headers, f"name\nCompany {n}\n") for n in range(4))
    )
    assert sorted(a.status_code for a in answers) == [201, 409, 409, 409]
