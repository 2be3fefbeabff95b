"""The MCP face: every capability's tools over stateless streamable HTTP at `/mcp/`.

Same API keys, and through `authorize()` the same scopes, plans and account-wide rate limits as REST,
so one account's allowances are shared by v1, v2 and MCP. A refusal is a tool error whose text is the
public error code. Each capability registers its own tools (`Capability.mcp_tools`) on the shared
`ToolKit` (`platform/http/mcp_tools.py`); this module names none of them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable

import orjson
from mcp.server.mcpserver import MCPServer
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from leadwire.config import Settings
from leadwire.platform.capability import Capability
from leadwire.platform.errors import ApiError
from leadwire.platform.http.auth import authenticate_headers
from leadwire.platform.http.mcp_tools import ToolKit, caller_var, runtime_var
from leadwire.platform.http.middleware import send_error
from leadwire.platform.runtime import Runtime
from leadwire.platform.validation import check_body

INSTRUCTIONS = (
    "Leadwire: B2B research and outreach. Research tools run as jobs: they wait up to wait_seconds and "
    "return the job; if it is not finished yet, poll get_job with its id."
)


# The tool servers of this process, by the capabilities they carry (their ids, with the objects kept).
_TOOL_SERVERS: dict[tuple[int, ...], tuple[tuple[Capability, ...], MCPServer]] = {}


def tool_server(capabilities: Iterable[Capability]) -> MCPServer:
    """The MCP server with these capabilities' tools, built once per process: a tool reads the runtime
    of the request it serves (`runtime_var`), so every app of the process mounts the same tools. Building
    them (a pydantic model and schema per tool) took ~0.1 s per app, which a test process paid per test."""
    carried = tuple(capabilities)
    key = tuple(id(capability) for capability in carried)
    if key not in _TOOL_SERVERS:
        server = MCPServer(name="leadwire", instructions=INSTRUCTIONS, version="0.1.0")
        kit = ToolKit(server=server)
        for capability in carried:
            capability.register_mcp_tools(kit)
        _TOOL_SERVERS[key] = (carried, server)
    return _TOOL_SERVERS[key][1]


def build_mcp(
    get_runtime: Callable[[], Runtime], settings: Settings, capabilities: Iterable[Capability]
) -> tuple[StreamableHTTPSessionManager, ASGIApp]:
    """An app's MCP face: its own session manager (run by the app's lifespan) over the process's tool
    server, behind `McpAuth`, which gives the tools the app's runtime."""
    server = tool_server(capabilities)
    app = server.streamable_http_app(
        streamable_http_path="/",
        stateless_http=True,
        json_response=True,
        # McpAuth checks Host (through the app's allowed hosts), Origin and Content-Type with envelopes.
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    manager = server.session_manager  # this app's: the server's next app gets another
    return manager, McpAuth(app, get_runtime, allowed_origins=settings.allowed_origin_list)


class McpAuth:
    """Guards every MCP HTTP request before the MCP app sees it, answering refusals as envelopes. A GET
    (the optional server-to-client stream) is 405: stateless, the server never has anything to send on it.

    Browser origins are refused unless allowed (`LEADWIRE_ALLOWED_ORIGINS`): with the Host check of the
    app, this is the DNS-rebinding protection the MCP transport asks for. The body is read here, within
    the app's size limit and read timeout, and refused if it carries NUL; then the caller's API key is
    authenticated.
    """

    def __init__(
        self, app: ASGIApp, get_runtime: Callable[[], Runtime], *, allowed_origins: tuple[str, ...] = ()
    ) -> None:
        self.app = app
        self.get_runtime = get_runtime
        self.allowed_origins = frozenset(allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        try:
            if scope.get("method") == "GET":
                # A stateless server has nothing to push: no session outlives its request. The transport
                # lets a server refuse the GET stream with 405, so no connection is held open for nothing.
                raise ApiError(
                    "method_not_allowed",
                    detail="this MCP server sends no server-initiated messages: POST requests only",
                    headers={"Allow": "POST, DELETE"},
                )
            self._check_headers(scope, headers)
            body = await _read_body(receive)
            client = scope.get("client")
            caller = await authenticate_headers(headers, self.get_runtime(), client[0] if client else None)
        except ApiError as exc:
            await send_error(send, exc)
            return
        token = caller_var.set(caller)
        runtime_token = runtime_var.set(self.get_runtime())
        try:
            await self.app(scope, _replay(body, receive), send)
        finally:
            runtime_var.reset(runtime_token)
            caller_var.reset(token)

    def _check_headers(self, scope: Scope, headers: dict[str, str]) -> None:
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in self.allowed_origins:
            raise ApiError("permission_denied", param="Origin", detail="this origin may not call /mcp/")
        if scope.get("method") == "POST" and not headers.get("content-type", "").lower().startswith(
            "application/json"
        ):
            raise ApiError("invalid_request", param="Content-Type", detail="send application/json")


async def _read_body(receive: Receive) -> bytes:
    """The whole body (the app's middleware bounds its size and read time); NUL-bearing text refused."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnect()
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    with contextlib.suppress(orjson.JSONDecodeError):
        check_body(body, orjson.loads(body))
    return body


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
