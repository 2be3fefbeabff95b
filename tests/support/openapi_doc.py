"""Reading the app's OpenAPI document in tests: the published operations, validation of a value against
a component schema, and the check that a request example is one the API accepts as written."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from leadwire.app import create_app
from leadwire.config import Settings
from leadwire.platform.errors import ApiError
from leadwire.platform.http.body import BODY_MODELS
from leadwire.platform.validation import validate
from tests.support.conformance import UNDOCUMENTED_PREFIXES

METHODS = ("get", "post", "put", "patch", "delete")


def app_without_database(data_dir: Path) -> FastAPI:
    """The app as a server builds it; its document (what `/openapi.json` serves) needs no database."""
    settings = Settings(
        data_dir=data_dir,
        database_url=f"sqlite+aiosqlite:///{data_dir / 'unused.db'}",
        plugins="tests.support.echo",
    )
    return create_app(settings)


def published_operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(method, path template, operation) of every operation of the published API."""
    return [
        (method.upper(), path, operation)
        for path, item in document["paths"].items()
        if not path.startswith(UNDOCUMENTED_PREFIXES)
        for method, operation in item.items()
        if method in METHODS
    ]


def operation_for(document: dict[str, Any], method: str, path: str) -> dict[str, Any] | None:
    """The operation a concrete request (`POST /api/v2/websets/ws_1/find-more`) is served by."""
    for candidate_method, template, operation in published_operations(document):
        pattern = "^" + re.sub(r"\{[^/]+\}", "[^/]+", template) + "$"
        if candidate_method == method and re.match(pattern, path):
            return operation
    return None


def schema_problems(document: dict[str, Any], component: str, value: Any) -> list[str]:
    """Why `value` does not validate against `#/components/schemas/<component>` (empty when it does)."""
    resources = Registry().with_resource(  # type: ignore[call-arg]
        "urn:openapi", Resource.from_contents(document, default_specification=DRAFT202012)
    )
    schema = {"$ref": f"urn:openapi#/components/schemas/{component}"}
    validator = Draft202012Validator(schema, registry=resources)  # type: ignore[call-arg]
    return [f"{e.message} at {list(e.absolute_path)}" for e in validator.iter_errors(value)]


def component(document: dict[str, Any], ref: str) -> tuple[str, dict[str, Any]]:
    name = ref.rsplit("/", 1)[1]
    return name, document["components"]["schemas"][name]


def _fields(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any] | None:
    """The properties an object schema names (over `$ref`, `allOf`, `anyOf`), or None if free-form."""
    if "$ref" in schema:
        return _fields(document, component(document, schema["$ref"])[1])
    found: dict[str, Any] = dict(schema.get("properties", {}))
    free = not found
    for branch in (*schema.get("allOf", []), *schema.get("anyOf", [])):
        named = _fields(document, branch)
        if named is not None:
            found.update(named)
            free = False
    return None if free else found


def unknown_fields(document: dict[str, Any], schema: dict[str, Any], value: Any, at: str = "") -> list[str]:
    """Fields of `value` its schema does not name: request models ignore unknown fields, so a misspelt
    optional field in an example would pass validation and mislead the reader."""
    if isinstance(value, list):
        items = next((b["items"] for b in (schema, *schema.get("anyOf", [])) if "items" in b), {})
        return [u for i, v in enumerate(value) for u in unknown_fields(document, items, v, f"{at}{i}.")]
    if not isinstance(value, dict):
        return []
    fields = _fields(document, schema)
    if fields is None:
        return []  # a free-form object such as `metadata`
    unknown = [f"{at}{key}" for key in value if key not in fields]
    for key, item in value.items():
        if key in fields:
            unknown += unknown_fields(document, fields[key], item, f"{at}{key}.")
    return unknown


def request_example_problems(document: dict[str, Any], operation: dict[str, Any], body: Any) -> list[str]:
    """Why the API would refuse `body` on `operation`, or would silently ignore part of it."""
    name, schema = component(
        document, operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    )
    problems = schema_problems(document, name, body)
    problems += [f"unknown field {field}" for field in unknown_fields(document, schema, body)]
    try:
        validate(BODY_MODELS[name], body)
    except ApiError as error:
        problems.append(f"refused: {error.code} {error.param or ''} {error.detail or ''}")
    return problems
