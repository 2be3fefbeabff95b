"""Reading JSON request bodies into the request models (`platform/validation.py`), with the public
error codes instead of framework errors, and documenting them in the OpenAPI document."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import orjson
from pydantic import BaseModel
from starlette.requests import Request  # FastAPI's Request, without importing FastAPI (see auth.py)

from leadwire.platform.errors import ApiError
from leadwire.platform.validation import DEPTH_DETAIL, check_body, validate

M = TypeVar("M", bound=BaseModel)


def _is_json(content_type: str | None) -> bool:
    if not content_type:
        return False
    media = content_type.split(";")[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


async def read_json_object(request: Request) -> dict[str, Any]:
    if not _is_json(request.headers.get("content-type")):
        raise ApiError("invalid_request", param="Content-Type", detail="send application/json")
    raw = await request.body()
    if not raw.strip():
        raise ApiError("invalid_request", detail="a JSON object body is required")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        # orjson stops past 1,024 levels: that is the depth rule broken, not malformed JSON.
        detail = DEPTH_DETAIL if str(exc).startswith("depth limit") else "malformed JSON"
        raise ApiError("invalid_request", detail=detail) from None
    if not isinstance(data, dict):
        raise ApiError("invalid_request", detail="the body must be a JSON object")
    check_body(raw, data)
    return data


def json_body(model: type[M]) -> Callable[[Request], Awaitable[M]]:
    """A dependency returning the validated body; declare it with `openapi_body(model)` on the route."""

    async def dependency(request: Request) -> M:
        return validate(model, await read_json_object(request))

    dependency.__name__ = f"body_{model.__name__}"
    return dependency


# The request models routes parse themselves, by name, for the OpenAPI document (see openapi.py).
BODY_MODELS: dict[str, type[BaseModel]] = {}


def openapi_body(model: type[BaseModel]) -> dict[str, Any]:
    """`openapi_extra` documenting the body the route parses itself (`json_body`), its schema filled in
    from the model when the document is built."""
    existing = BODY_MODELS.setdefault(model.__name__, model)
    if existing is not model:
        raise ValueError(f"two request models named {model.__name__}")
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{model.__name__}"}}},
        },
        "x-leadwire-body-model": model.__name__,
    }
