"""OpenAPI 3.1 document: real body schemas, both security schemes and each operation's error codes."""

from __future__ import annotations

import importlib
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

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


def _body_models(schema: dict[str, Any]) -> list[type[BaseModel]]:
    models = []
    for path in schema.get("paths", {}).values():
        for operation in path.values():
            target = operation.pop("x-leadwire-body-model", None) if isinstance(operation, dict) else None
            if target:
                module, _, name = target.partition(":")
                models.append(getattr(importlib.import_module(module), name))
    return models


def install_openapi(app: FastAPI) -> None:
    def build() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(
            title=app.title, version=app.version, routes=app.routes, description=app.description
        )
        components = schema.setdefault("components", {})
        schemas = components.setdefault("schemas", {})
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
