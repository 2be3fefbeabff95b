"""Imports on the SDK (sync and async), the CLI and MCP, against a served app: the same import as REST,
errors as LeadwireError, exit 1 or a tool error."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from typer.testing import Result

from leadwire.app import create_app
from leadwire.client import AsyncLeadwire, Leadwire, LeadwireError
from leadwire.platform.runtime import Runtime
from tests.mcp.test_mcp_server import call, error_code
from tests.support.accounts import AccountFactory
from tests.support.cli import run_cli
from tests.support.envelope import assert_ok
from tests.support.lifespan import served

CSV = "Firma,Web,Land\nAcme,acme.example,CH\n,,\nBeta,beta.example,Schweiz\n"


def _cli(base: str, key: str, *args: str) -> Result:
    return run_cli(base, key, "imports", *args)


async def test_the_sdk_and_the_cli_import_read_list_and_delete(runtime: Runtime, tmp_path: Path) -> None:
    acct = await AccountFactory(runtime).create()
    key = acct.headers["Authorization"].removeprefix("Bearer ")
    source = tmp_path / "customers.csv"
    source.write_text(CSV)
    columns = {"name": "Firma", "domain": "Web", "country": "Land"}
    async with served(create_app(runtime=runtime)) as base:

        def sync_calls() -> tuple[dict[str, object], dict[str, object]]:
            with Leadwire(key, base) as lw:
                made = lw.create_import(csv=CSV, title="Customers", columns=columns)
                return made, lw.get_import(str(made["id"]))

        made, read = await asyncio.to_thread(sync_calls)
        async with AsyncLeadwire(key, base) as alw:
            from_rows = await alw.create_import(rows=[{"name": "Gamma", "website": "https://gamma.example"}])
            page = await alw.list_imports(limit=1)
            deleted = await alw.delete_import(from_rows["id"])
            with pytest.raises(LeadwireError) as missing:
                await alw.get_import(from_rows["id"])
        printed = await asyncio.to_thread(
            _cli,
            base,
            key,
            "create",
            str(source),
            "--name-column",
            "Firma",
            "--domain-column",
            "Web",
            "--country-column",
            "Land",
        )
        listed = await asyncio.to_thread(_cli, base, key, "list", "--json")
        phones = tmp_path / "phones.csv"
        phones.write_text("Phone\n+41 44 000 00 00\n")
        refused = await asyncio.to_thread(_cli, base, key, "create", str(phones))
        removed = await asyncio.to_thread(_cli, base, key, "delete", str(made["id"]))
    assert made == read and (made["rows"], made["accepted"], made["rejected"]) == (3, 1, 2)
    assert made["errors"] == [
        {"line": 3, "field": "name", "code": "name_or_domain_required"},
        {"line": 4, "field": "country", "code": "invalid_country"},
    ]
    assert from_rows["accepted"] == 1 and from_rows["format"] == "json"
    assert page["items"][0]["id"] == from_rows["id"] and page["has_more"]
    assert deleted == {"id": from_rows["id"], "deleted": True}
    assert missing.value.status == 404 and missing.value.code == "import_not_found"
    assert printed.exit_code == 0, printed.output
    assert (
        "rows 3, accepted 1, rejected 2" in printed.stdout
        and "line 4: country invalid_country" in printed.stdout
    )
    assert listed.exit_code == 0 and '"accepted": 1' in listed.stdout
    assert refused.exit_code == 1 and "400 invalid_import (columns)" in refused.stderr
    assert removed.exit_code == 0 and removed.stdout.strip() == f"deleted {made['id']}"


async def test_the_mcp_tools_import_read_list_and_delete(client: httpx.AsyncClient, runtime: Runtime) -> None:
    acct = await AccountFactory(runtime).create()
    rows = [{"name": "Acme", "domain": "acme.example"}, {"name": "Bad", "domain": "not a domain"}]
    made = (await call(client, acct.headers, "create_import", rows=rows, title="t"))["structuredContent"]
    read = (await call(client, acct.headers, "get_import", import_id=made["id"]))["structuredContent"]
    listed = (await call(client, acct.headers, "list_imports"))["structuredContent"]
    rest = assert_ok(await client.get(f"/api/v2/imports/{made['id']}", headers=acct.headers))["item"]
    deleted = (await call(client, acct.headers, "delete_import", import_id=made["id"]))["structuredContent"]
    missing = await call(client, acct.headers, "get_import", import_id=made["id"])
    invalid = await call(client, acct.headers, "create_import", rows=[{"phone": "1"}])
    assert made == read == rest and (made["accepted"], made["rejected"]) == (1, 1)
    assert [i["id"] for i in listed["items"]] == [made["id"]]
    assert deleted == {"id": made["id"], "deleted": True}
    assert error_code(missing) == "import_not_found" and error_code(invalid) == "invalid_import"


async def test_the_mcp_import_tool_refuses_past_its_bounds(
    client: httpx.AsyncClient, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    from leadwire.websets import imports

    monkeypatch.setattr(imports, "MAX_IMPORT_ROWS", 2)
    monkeypatch.setattr(imports, "MAX_IMPORTS_PER_ACCOUNT", 1)
    acct = await AccountFactory(runtime).create()
    rows = [{"name": f"Company {n}"} for n in range(3)]
    too_large = await call(client, acct.headers, "create_import", rows=rows)
    assert (await call(client, acct.headers, "create_import", rows=rows[:1]))["isError"] is False
    too_many = await call(client, acct.headers, "create_import", rows=rows[:1])
    assert error_code(too_large) == "import_too_large" and error_code(too_many) == "import_limit_exceeded"
