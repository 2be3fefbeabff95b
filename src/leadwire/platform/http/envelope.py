"""The success and error envelopes (docs/api.md, Envelopes and request ids), rendered with orjson."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson
from starlette.responses import Response

from leadwire.platform.errors import ApiError
from leadwire.platform.pagination import page
from leadwire.platform.request_context import current_request_id


class JSONResponse(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def ok_item(item: Any) -> dict[str, Any]:
    return {"ok": True, "request_id": current_request_id(), "item": item}


def ok_items(items: Sequence[Any], **extras: Any) -> dict[str, Any]:
    return {"ok": True, "request_id": current_request_id(), "items": list(items), **extras}


def ok_page(items: Sequence[Any], next_cursor: str | None) -> dict[str, Any]:
    """A cursor-paged list's envelope (`platform.pagination.page`)."""
    return {"ok": True, "request_id": current_request_id(), **page(items, next_cursor)}


def error_body(code: str, *, param: str | None = None, detail: str | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": code, "request_id": current_request_id()}
    if param is not None:
        error["param"] = param
    if detail is not None:
        error["detail"] = detail
    return {"ok": False, "error": error}


def error_response(exc: ApiError) -> JSONResponse:
    return JSONResponse(
        error_body(exc.code, param=exc.param, detail=exc.detail),
        status_code=exc.status,
        headers=exc.headers,
    )


def json_response(
    body: Mapping[str, Any], status_code: int = 200, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(dict(body), status_code=status_code, headers=dict(headers or {}))
