"""OpenAPI 3.1 document: real body schemas, both security schemes, each operation's error codes and the
request headers its dependencies read (`Prefer`, `Idempotency-Key`)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute, iter_route_contexts
from pydantic import BaseModel, TypeAdapter
from starlette.routing import BaseRoute

from leadwire.platform.errors import CATALOGUE
from leadwire.platform.http.body import BODY_MODELS
from leadwire.platform.http.creation import idempotent, prefer_wait
from leadwire.platform.http.schemas import errors
from leadwire.platform.jobs.registry import ActionSpec, registry

ERROR_ENVELOPE = {
    "type": "object",
    "required": ["ok", "error"],
    "properties": {
        "ok": {"const": False},
        "error": {
            "type": "object",
            "required": ["code", "message", "request_id"],
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "request_id": {"type": "string"},
                "param": {"type": "string"},
                "detail": {"type": "string"},
            },
        },
    },
}
# Every operation that reads a body can also answer these (the middleware enforces them).
BODY_CODES = ("request_payload_too_large", "request_timeout")


def _add_codes(operation: dict[str, Any], codes: tuple[str, ...]) -> None:
    for status, entry in errors(*codes).items():
        existing = operation.setdefault("responses", {}).setdefault(str(status), entry)
        if existing is not entry and "Error codes" in existing.get("description", ""):
            present = existing["description"].split(": ", 1)[1].split(", ")
            merged = sorted({*present, *(f"`{c}`" for c in codes if CATALOGUE[c] == status)})
            existing["description"] = "Error codes: " + ", ".join(merged)


def _fit_responses(schema: dict[str, Any]) -> None:
    """No 422 (the API never sends FastAPI's validation error: bad input is a 400 envelope); the
    codes of the body limits on every operation that reads a body."""
    for path in schema.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict):
                continue
            operation.get("responses", {}).pop("422", None)
            if "requestBody" in operation:
                _add_codes(operation, BODY_CODES)


IDEMPOTENCY_KEY: dict[str, Any] = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": (
        "1-255 printable ASCII characters. A retry with the same key, path and body gets the first "
        "response again (`Idempotent-Replayed: true`) and creates nothing; the same key with another body "
        "is 409 `idempotency_conflict`. Without a key every request is independent."
    ),
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[ -~]+$"},
    "example": "order-4711-retry-safe",
}
PREFER: dict[str, Any] = {
    "name": "Prefer",
    "in": "header",
    "required": False,
    "description": (
        "`wait=N` (RFC 7240): hold the response up to N seconds (at most the server's "
        "`LEADWIRE_PREFER_WAIT_CAP_SECONDS`, 60 by default) for the job to finish: 200 with the finished "
        "job, else 202 as without it. `Preference-Applied` says the wait applied. Other preferences are "
        "ignored."
    ),
    "schema": {"type": "string"},
    "example": "wait=20",
}
RESPONSE_HEADERS: dict[str, dict[str, Any]] = {
    "Idempotency-Key": {
        "Idempotent-Replayed": {
            "description": "`true` when this is the stored response of an earlier request with the key",
            "schema": {"type": "string", "const": "true"},
        }
    },
    "Prefer": {
        "Preference-Applied": {
            "description": "The wait applied, `wait=N`, when the request sent `Prefer: wait`",
            "schema": {"type": "string"},
        }
    },
}
# Every closure `idempotent()` returns runs this code: how a route's dependency is recognised as it.
_IDEMPOTENT_CODE = idempotent().__code__


def _dependency_calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for sub in dependant.dependencies:
        if sub.call is not None:
            yield sub.call
        yield from _dependency_calls(sub)


def honoured_headers(dependant: Dependant) -> list[dict[str, Any]]:
    """The request headers a route reads through its dependencies: `Prefer` where it waits for the job it
    created, `Idempotency-Key` where it claims the key (required where the route demands one)."""
    headers = []
    for call in _dependency_calls(dependant):
        if call is prefer_wait:
            headers.append({**PREFER})
        elif getattr(call, "__code__", None) is _IDEMPOTENT_CODE:
            required = inspect.getclosurevars(call).nonlocals.get("required", False)
            headers.append({**IDEMPOTENCY_KEY, "required": bool(required)})
    return headers


def _declare_headers(schema: dict[str, Any], routes: list[BaseRoute]) -> None:
    """Each operation's honoured request headers (unless the route declares them itself) and the
    response headers they bring."""
    for context in iter_route_contexts(routes):
        route = context.original_route
        if not isinstance(route, APIRoute) or not context.include_in_schema:
            continue
        dependant = getattr(context, "dependant", None) or route.dependant
        for method in context.methods or ():
            operation = schema.get("paths", {}).get(context.path_format, {}).get(method.lower())
            if operation is not None:
                _add_headers(operation, honoured_headers(dependant))


def _add_headers(operation: dict[str, Any], headers: list[dict[str, Any]]) -> None:
    parameters = operation.setdefault("parameters", [])
    declared = {(p.get("in"), p.get("name", "").lower()) for p in parameters}
    for header in headers:
        if ("header", header["name"].lower()) not in declared:
            parameters.append(header)
            declared.add(("header", header["name"].lower()))
        responses = operation.get("responses", {})
        for status, response in responses.items():
            if str(status).startswith("2"):  # a copy: operations may share a response object
                headers_out = {**response.get("headers", {}), **RESPONSE_HEADERS[header["name"]]}
                responses[status] = {**response, "headers": headers_out}
    if not parameters:
        operation.pop("parameters")


def _body_models(schema: dict[str, Any]) -> list[type[BaseModel]]:
    models = []
    for path in schema.get("paths", {}).values():
        for operation in path.values():
            name = operation.pop("x-leadwire-body-model", None) if isinstance(operation, dict) else None
            if name:
                models.append(BODY_MODELS[name])
    return models


SCHEMA_REF = "#/components/schemas/{model}"


def _add_component(schemas: dict[str, Any], name: str, schema: dict[str, Any]) -> None:
    if schemas.setdefault(name, schema) != schema:
        raise ValueError(f"two different schemas named {name} in the OpenAPI document")


def _result_schema(schemas: dict[str, Any], spec: ActionSpec) -> dict[str, Any]:
    """A reference to the action's declared result model, added to the components with the models it
    uses; a bare object for an action (an extension's) that declares none."""
    if spec.result is None:
        return {"type": "object"}
    schema = TypeAdapter(spec.result).json_schema(ref_template=SCHEMA_REF, mode="serialization")
    for name, nested in schema.pop("$defs", {}).items():
        _add_component(schemas, name, nested)
    _add_component(schemas, spec.result.__name__, schema)
    return {"$ref": SCHEMA_REF.format(model=spec.result.__name__)}


def _typed_job_results(schemas: dict[str, Any]) -> None:
    """`PublicJob` as a union discriminated by `action`: each registered action's job has the fields
    every job has (`JobFields`) and, as `result`, the model its capability declared with the action."""
    specs = registry.specs()
    if "PublicJob" not in schemas or not specs:
        return
    schemas["JobFields"] = {**schemas.pop("PublicJob"), "title": "JobFields"}
    mapping: dict[str, str] = {}
    for spec in specs:
        result = _result_schema(schemas, spec)
        name = f"Job.{spec.action}"
        schemas[name] = {
            "title": name,
            "description": f"A job of action `{spec.action}`: `result` when it succeeded, else null.",
            "allOf": [{"$ref": SCHEMA_REF.format(model="JobFields")}],
            "properties": {"action": {"const": spec.action}, "result": {"anyOf": [result, {"type": "null"}]}},
        }
        mapping[spec.action] = SCHEMA_REF.format(model=name)
    schemas["PublicJob"] = {
        "title": "PublicJob",
        "description": "A job. Its `action` names the variant, whose `result` is typed.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "action", "mapping": mapping},
    }


def install_openapi(app: FastAPI) -> None:
    def build() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(
            title=app.title, version=app.version, routes=app.routes, description=app.description
        )
        _fit_responses(schema)
        _declare_headers(schema, app.routes)
        components = schema.setdefault("components", {})
        schemas = components.setdefault("schemas", {})
        for unused in ("HTTPValidationError", "ValidationError"):
            schemas.pop(unused, None)
        schemas["ErrorEnvelope"] = ERROR_ENVELOPE
        for model in _body_models(schema):
            body_schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
            schemas.update(body_schema.pop("$defs", {}))
            schemas[model.__name__] = body_schema
        _typed_job_results(schemas)
        components["securitySchemes"] = {
            "bearerAuth": {"type": "http", "scheme": "bearer", "bearerFormat": "lw_live_…"},
            "apiKeyHeader": {"type": "apiKey", "in": "header", "name": "x-api-key"},
        }
        schema["security"] = [{"bearerAuth": []}, {"apiKeyHeader": []}]
        app.openapi_schema = schema
        return schema

    app.openapi = build  # type: ignore[method-assign]
