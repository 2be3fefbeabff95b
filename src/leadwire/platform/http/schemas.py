"""The wire shapes of the response envelopes (docs/api.md, Envelopes and request ids), each defined once;
the public job's are in `platform/jobs/schemas.py`.

A wire shape is a `TypedDict`: the renderer that produces a response is typed to return it (so mypy
holds it to exactly these keys and types), and the OpenAPI document derives its schema from the same
class (pydantic reads TypedDicts). Responses stay plain dicts rendered with orjson — no model is
constructed on the hot read paths — and the test suite validates every response it receives against
the published schema (`tests/support/conformance.py`).
"""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel
from typing_extensions import TypedDict

from leadwire.platform.errors import CATALOGUE

T = TypeVar("T")


class Deleted(TypedDict):
    """The item of a DELETE that removed a resource."""

    id: str
    deleted: bool


class ItemEnvelope(BaseModel, Generic[T]):
    ok: Literal[True]
    request_id: str
    item: T


class ItemsEnvelope(BaseModel, Generic[T]):
    ok: Literal[True]
    request_id: str
    items: list[T]


class PageEnvelope(BaseModel, Generic[T]):
    """A cursor-paged list: pass `next_cursor` back unchanged as `cursor` while `has_more`."""

    ok: Literal[True]
    request_id: str
    items: list[T]
    next_cursor: str | None
    has_more: bool


# `responses=` of a route that answers a server-sent-events stream.
SSE_DOC: dict[int | str, dict[str, Any]] = {
    200: {"description": "Server-sent events", "content": {"text/event-stream": {}}}
}


def documented(
    model: Any, status: int = 200, description: str = "Success"
) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": model, "description": description}}


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
# What a route without the API key (`security: []`: probes, metrics) can answer besides its own codes:
# NUL in the query, and the last-resort 500.
PUBLIC_CODES = ("invalid_request", "internal_error")


def errors(*codes: str, public: bool = False) -> dict[int | str, dict[str, Any]]:
    """`responses=` for a route: its error codes grouped by status, plus the codes every route has (every
    route behind the API key, with `public=False`)."""
    by_status: dict[int, list[str]] = {}
    for code in (*codes, *(PUBLIC_CODES if public else COMMON_CODES)):
        by_status.setdefault(CATALOGUE[code], []).append(code)
    return {
        status: {
            "description": "Error codes: " + ", ".join(f"`{c}`" for c in sorted(set(group))),
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}},
        }
        for status, group in sorted(by_status.items())
    }
