"""OpenAPI 3.1 document: real body schemas, both security schemes and each operation's error codes."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

from leadwire.platform.body import BODY_MODELS
from leadwire.platform.errors import CATALOGUE

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
COMMON_CODES = (
    "invalid_request",  # every route: a Host outside the allowed hosts, NUL in the path or query
    "task_unavailable",  # every route: the database unavailable, hung or a lost lock race
    "api_key_missing",
    "api_key_invalid",
    "api_key_expired",
    "api_key_revoked",
    "permission_denied",
    "api_key_rate_limit_exceeded",
    "api_rate_limit_exceeded",
    "internal_error",
)


def errors(*codes: str) -> dict[int | str, dict[str, Any]]:
    """`responses=` for a route: its error codes grouped by status, plus the codes every route has."""
    by_status: dict[int, list[str]] = {}
    for code in (*codes, *COMMON_CODES):
        by_status.setdefault(CATALOGUE[code], []).append(code)
    return {
        status: {
            "description": "Error codes: " + ", ".join(f"`{c}`" for c in sorted(set(group))),
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}},
        }
        for status, group in sorted(by_status.items())
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


def _body_models(schema: dict[str, Any]) -> list[type[BaseModel]]:
    models = []
    for path in schema.get("paths", {}).values():
        for operation in path.values():
            name = operation.pop("x-leadwire-body-model", None) if isinstance(operation, dict) else None
            if name:
                models.append(BODY_MODELS[name])
    return models


def install_openapi(app: FastAPI) -> None:
    def build() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(
            title=app.title, version=app.version, routes=app.routes, description=app.description
        )
        _fit_responses(schema)
        components = schema.setdefault("components", {})
        schemas = components.setdefault("schemas", {})
        for unused in ("HTTPValidationError", "ValidationError"):
            schemas.pop(unused, None)
        schemas["ErrorEnvelope"] = ERROR_ENVELOPE
        for model in _body_models(schema):
            body_schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
            schemas.update(body_schema.pop("$defs", {}))
            schemas[model.__name__] = body_schema
        components["securitySchemes"] = {
            "bearerAuth": {"type": "http", "scheme": "bearer", "bearerFormat": "lw_live_…"},
            "apiKeyHeader": {"type": "apiKey", "in": "header", "name": "x-api-key"},
        }
        schema["security"] = [{"bearerAuth": []}, {"apiKeyHeader": []}]
        app.openapi_schema = schema
        return schema

    app.openapi = build  # type: ignore[method-assign]
