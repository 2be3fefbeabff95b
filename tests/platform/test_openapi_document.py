"""The published OpenAPI document is valid OpenAPI 3.1 and honest: it declares the `Prefer` and
`Idempotency-Key` headers on every operation that honours them, lists no status the API never sends
(FastAPI's 422: bad input is a 400 envelope) and asks no API key of the probes and the metrics scrape.

The operations that must declare the headers are derived from the app's own routes: every POST,
since idempotency applies to POST endpoints (docs/api.md, Idempotency keys), and every POST answering
202 with a job (a creation, which `Prefer: wait` turns into a 200 with the finished job)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi import Depends, FastAPI
from fastapi.routing import APIRoute, iter_route_contexts
from openapi_spec_validator import validate

from leadwire.app import create_app
from leadwire.config import Settings
from leadwire.platform.http import ItemEnvelope, documented
from leadwire.platform.http.creation import Idempotency, idempotent
from leadwire.platform.http.envelope import JSONResponse
from leadwire.platform.http.schemas import COMMON_CODES, PUBLIC_CODES
from leadwire.platform.idempotency import validate_key
from leadwire.platform.jobs import PublicJob
from leadwire.platform.jobs.wait import parse_prefer_wait

PROBES = ("/healthz", "/readyz", "/metrics")
JOB_SCHEMAS = ("#/components/schemas/PublicJob", "#/components/schemas/ReducedJob")


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    # The product's own routes (no test plugin); building the app and its document opens no database.
    return create_app(Settings(data_dir=tmp_path / "var", plugins=""))


def operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, op) for path, item in doc["paths"].items() for method, op in item.items()]


def header(operation: dict[str, Any], name: str) -> dict[str, Any] | None:
    found = [p for p in operation.get("parameters", []) if p["in"] == "header" and p["name"] == name]
    return found[0] if found else None


def answers_with_a_job(doc: dict[str, Any], operation: dict[str, Any], status: str) -> bool:
    """Whether the operation documents `status` as an envelope whose `item` is a job."""
    content = operation["responses"].get(status, {}).get("content", {}).get("application/json", {})
    ref = content.get("schema", {}).get("$ref", "")
    envelope = doc["components"]["schemas"].get(ref.rsplit("/", 1)[-1], {})
    return envelope.get("properties", {}).get("item", {}).get("$ref") in JOB_SCHEMAS


def undeclared_headers(app: FastAPI) -> list[str]:
    """`METHOD path: header` for each header a POST route of the app should declare and does not."""
    doc = app.openapi()
    missing = []
    for context in iter_route_contexts(app.routes):
        if not isinstance(context.original_route, APIRoute) or not context.include_in_schema:
            continue
        if "POST" not in (context.methods or ()):
            continue
        operation = doc["paths"][context.path_format]["post"]
        needed = ["Idempotency-Key"]
        if answers_with_a_job(doc, operation, "202"):
            needed.append("Prefer")
        missing += [f"POST {context.path_format}: {n}" for n in needed if header(operation, n) is None]
    return missing


def test_the_document_is_valid_openapi_3_1(app: FastAPI) -> None:
    doc = app.openapi()
    assert doc["openapi"].startswith("3.1")
    validate(doc)  # raises on any violation of the 3.1 specification (and on a dangling $ref)


def test_no_operation_lists_422(app: FastAPI) -> None:
    doc = app.openapi()
    assert [(m, p) for m, p, op in operations(doc) if "422" in op["responses"]] == []
    assert not {"HTTPValidationError", "ValidationError"} & set(doc["components"]["schemas"])
    # Bad input is documented as what it is: a 400 envelope naming `invalid_request`.
    research = doc["paths"]["/api/v2/research/public-web"]["post"]["responses"]
    assert "`invalid_request`" in research["400"]["description"]


def test_probes_and_metrics_ask_for_no_api_key(app: FastAPI) -> None:
    doc = app.openapi()
    assert doc["security"]  # every other operation inherits the API-key requirement
    key_only = set(COMMON_CODES) - set(PUBLIC_CODES) - {"api_key_missing", "api_key_invalid"}
    for path in PROBES:
        operation = doc["paths"][path]["get"]
        assert operation["security"] == [], path
        described = " ".join(r["description"] for r in operation["responses"].values())
        assert not [code for code in key_only if f"`{code}`" in described], path
    # The metrics scrape has its own token: a missing or wrong one is still 401.
    assert "`api_key_missing`" in doc["paths"]["/metrics"]["get"]["responses"]["401"]["description"]
    assert doc["paths"]["/api/v2/credits"]["get"].get("security") is None


def test_every_post_and_creation_declares_its_headers(app: FastAPI) -> None:
    doc = app.openapi()
    posts = [(path, op) for method, path, op in operations(doc) if method == "post"]
    creations = [path for path, op in posts if answers_with_a_job(doc, op, "202")]
    assert posts and creations  # derived from the app: there is something to check
    assert undeclared_headers(app) == []
    for path in creations:
        operation = doc["paths"][path]["post"]
        assert {"Preference-Applied", "Idempotent-Replayed"} <= set(operation["responses"]["202"]["headers"])
        assert answers_with_a_job(doc, operation, "200"), f"{path}: Prefer: wait answers 200 with the job"


def test_reads_declare_neither_header(app: FastAPI) -> None:
    doc = app.openapi()
    for method, path, operation in operations(doc):
        if method == "get":
            assert header(operation, "Prefer") is None and header(operation, "Idempotency-Key") is None, path


def test_the_key_is_required_exactly_where_its_absence_is_an_error(app: FastAPI) -> None:
    doc = app.openapi()
    for _, path, operation in operations(doc):
        declared = header(operation, "Idempotency-Key")
        demands = any(
            "`idempotency_key_required`" in r["description"] for r in operation["responses"].values()
        )
        if declared is not None:
            assert declared["required"] is demands, path
        else:
            assert not demands, path
    assert header(doc["paths"]["/api/v2/websets/{webset_id}/find-more"]["post"], "Idempotency-Key")


def test_the_documented_examples_are_values_the_server_accepts(app: FastAPI) -> None:
    operation = app.openapi()["paths"]["/api/v2/research/public-web"]["post"]
    prefer, key = header(operation, "Prefer"), header(operation, "Idempotency-Key")
    assert prefer is not None and key is not None
    assert parse_prefer_wait(prefer["example"]) == 20
    assert validate_key(key["example"]) == key["example"]
    assert re.fullmatch(key["schema"]["pattern"], key["example"])
    assert len(key["example"]) <= key["schema"]["maxLength"]


def test_a_creation_route_that_forgets_a_header_fails_the_check(app: FastAPI) -> None:
    async def no_wait(idem: Idempotency = Depends(idempotent())) -> JSONResponse:
        return JSONResponse({})

    async def neither() -> JSONResponse:
        return JSONResponse({})

    for path, endpoint in (("/api/v2/test/no-wait", no_wait), ("/api/v2/test/neither", neither)):
        accepted = documented(ItemEnvelope[PublicJob], 202, "Job accepted")
        app.router.add_api_route(path, endpoint, methods=["POST"], status_code=202, responses=accepted)
    app.openapi_schema = None
    assert undeclared_headers(app) == [
        "POST /api/v2/test/no-wait: Prefer",
        "POST /api/v2/test/neither: Idempotency-Key",
        "POST /api/v2/test/neither: Prefer",
    ]
