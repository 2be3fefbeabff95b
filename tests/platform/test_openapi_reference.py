"""The OpenAPI document as a reference that stands alone: every operation described, every request body
with examples the API accepts, and a job's `result` typed by its action (a union discriminated on
`action`, each variant's result the model its capability declared with the action)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from leadwire.capabilities import CAPABILITIES
from leadwire.platform.jobs.registry import registry
from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_ok
from tests.support.jobs import create_echo, running_worker
from tests.support.openapi_doc import (
    app_without_database,
    component,
    published_operations,
    request_example_problems,
    schema_problems,
    unknown_fields,
)
from tests.support.world_rows import company_with_people

BUILT_IN_ACTIONS = sorted(spec.action for capability in CAPABILITIES for spec in capability.actions)


@pytest.fixture(scope="module")
def document(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return app_without_database(tmp_path_factory.mktemp("openapi")).openapi()


def test_every_operation_has_a_summary_and_a_description(document: dict[str, Any]) -> None:
    operations = published_operations(document)
    assert len(operations) >= 30
    bare = [
        f"{method} {path}"
        for method, path, operation in operations
        if not operation.get("summary") or len(operation.get("description", "")) < 40
    ]
    assert not bare, f"operations without a summary or a description: {bare}"


def test_every_built_in_action_is_named_by_the_operation_that_creates_it(document: dict[str, Any]) -> None:
    described = " ".join(
        operation.get("description", "") for _, _, operation in published_operations(document)
    )
    assert [action for action in BUILT_IN_ACTIONS if f"`{action}`" not in described] == []


def test_every_request_body_has_examples_the_api_accepts(document: dict[str, Any]) -> None:
    bodies = [(f"{m} {p}", op) for m, p, op in published_operations(document) if "requestBody" in op]
    assert len(bodies) >= 15
    for name, operation in bodies:
        content = operation["requestBody"]["content"]
        if "application/json" not in content:  # a CSV-only body: its example is a CSV text
            assert content["text/csv"].get("example", "").count("\n") >= 2, f"{name}: no CSV example"
            continue
        media = content["application/json"]
        _, schema = component(document, media["schema"]["$ref"])
        examples = [*schema.get("examples", []), *(e["value"] for e in media.get("examples", {}).values())]
        assert examples, f"{name}: no request example"
        for example in examples:
            assert request_example_problems(document, operation, example) == [], f"{name}: {example}"


def test_an_example_with_a_misspelt_field_is_caught(document: dict[str, Any]) -> None:
    schema = document["components"]["schemas"]["PublicWebRequest"]
    misspelt = {"queries": ["freight"], "search_limits": 3, "include_domains": []}
    assert unknown_fields(document, schema, misspelt) == ["search_limits"]
    operation = document["paths"]["/api/v2/research/public-web"]["post"]
    assert request_example_problems(document, operation, {"queries": []})  # the API refuses it


def test_every_registered_action_has_its_result_schema(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    union = schemas["PublicJob"]
    mapping = union["discriminator"]["mapping"]
    assert union["discriminator"]["propertyName"] == "action"
    assert sorted(mapping) == registry.actions()
    assert sorted(ref["$ref"] for ref in union["oneOf"]) == sorted(mapping.values())
    for action, ref in mapping.items():
        _, variant = component(document, ref)
        assert variant["properties"]["action"] == {"const": action}
        assert variant["allOf"] == [{"$ref": "#/components/schemas/JobFields"}]
        typed, null = variant["properties"]["result"]["anyOf"]
        assert null == {"type": "null"}
        if action in BUILT_IN_ACTIONS:
            _, result = component(document, typed["$ref"])
            assert result["type"] == "object" and result["properties"], action
            assert result.get("description"), f"{action}: its result model says nothing"


def test_job_fields_keep_every_job_field(document: dict[str, Any]) -> None:
    fields = document["components"]["schemas"]["JobFields"]
    assert {"id", "action", "status", "result", "error", "billing"} <= set(fields["required"])


async def test_a_finished_echo_job_fits_its_action_and_no_other(
    client: httpx.AsyncClient, accounts: AccountFactory, runtime: Runtime, document: dict[str, Any]
) -> None:
    acct = await accounts.create()
    async with running_worker(runtime):
        created = await create_echo(client, acct.headers, {"message": "typed"}, Prefer="wait=20")
    job = assert_ok(created, 200)["item"]
    read = assert_ok(await client.get(f"/api/v2/jobs/{job['id']}", headers=acct.headers))["item"]
    assert read["status"] == "succeeded" and read["result"]["message"] == "typed"
    assert schema_problems(document, "Job.test.echo", read) == []
    assert schema_problems(document, "PublicJob", read) == []
    assert schema_problems(document, "PublicJob", {**read, "result": {**read["result"], "attempt": "one"}})
    assert schema_problems(document, "PublicJob", {**read, "action": "research.public_web"})


async def test_finished_research_jobs_fit_their_result_schemas(
    world_client: httpx.AsyncClient,
    world_runtime: Runtime,
    indexed_world: Path,
    document: dict[str, Any],
) -> None:
    acct = await AccountFactory(world_runtime).create(credits=200)
    company = company_with_people(indexed_world)
    requests = {
        "research.public_web": (
            "/api/v2/research/public-web",
            {"queries": [f"{company['industry']} {company['city']}", company["name"]], "search_limit": 3},
        ),
        "research.contacts": ("/api/v2/research/contacts", {"domain": company["domain"], "limit": 5}),
    }
    async with running_worker(world_runtime):
        for action, (path, body) in requests.items():
            created = await world_client.post(path, json=body, headers={**acct.headers, "Prefer": "wait=30"})
            job = assert_ok(created, 200)["item"]
            assert job["status"] == "succeeded" and job["action"] == action
            assert job["result"]["contacts" if action == "research.contacts" else "results"]
            assert schema_problems(document, f"Job.{action}", job) == [], action
            assert schema_problems(document, "PublicJob", job) == [], action
