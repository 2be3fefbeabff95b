"""The HTTP face's machinery, as the capabilities' routes and MCP tools use it: permissions, bodies,
envelopes, job-creation routes with idempotency and `Prefer: wait`, streams, OpenAPI documentation,
and the MCP tool kit.

This module is the room's public face; the middleware, the health endpoints, the OpenAPI document
and the server settings belong to the app that assembles them. A worker never imports this room.
"""

from leadwire.platform.http.auth import authenticate_headers, authorize, caller_for_digest, require
from leadwire.platform.http.body import json_body, openapi_body, read_json_object
from leadwire.platform.http.creation import (
    Idempotency,
    add_creation_route,
    idempotent,
    prefer_wait,
    respond,
    respond_with_job,
)
from leadwire.platform.http.download import owned_download
from leadwire.platform.http.envelope import JSONResponse, json_response, ok_item, ok_items, ok_page
from leadwire.platform.http.flat_route import flat_get
from leadwire.platform.http.mcp_tools import ToolKit, given, tool_error
from leadwire.platform.http.schemas import (
    SSE_DOC,
    Deleted,
    ItemEnvelope,
    ItemsEnvelope,
    PageEnvelope,
    documented,
    errors,
)
from leadwire.platform.http.session import Session
from leadwire.platform.http.sse import StillAllowed, control, owned_stream, resume_point, to_sse

__all__ = [
    "SSE_DOC",
    "Deleted",
    "Idempotency",
    "ItemEnvelope",
    "ItemsEnvelope",
    "JSONResponse",
    "PageEnvelope",
    "Session",
    "StillAllowed",
    "ToolKit",
    "add_creation_route",
    "authenticate_headers",
    "authorize",
    "caller_for_digest",
    "control",
    "documented",
    "errors",
    "flat_get",
    "given",
    "idempotent",
    "json_body",
    "json_response",
    "ok_item",
    "ok_items",
    "ok_page",
    "openapi_body",
    "owned_download",
    "owned_stream",
    "prefer_wait",
    "read_json_object",
    "require",
    "respond",
    "respond_with_job",
    "resume_point",
    "to_sse",
    "tool_error",
]
