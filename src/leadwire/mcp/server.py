"""The MCP face: v2's services as MCP tools over stateless streamable HTTP at `/mcp/`.

Same API keys, and through `authorize()` the same scopes, plans and account-wide rate limits as REST,
so one account's allowances are shared by v1, v2 and MCP. A refusal is a tool error whose text is the
public error code. Creation tools wait like `Prefer: wait` and return the job as it then stands.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

import orjson
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from leadwire.accounts import service as accounts
from leadwire.accounts.schemas import public_account
from leadwire.config import Settings
from leadwire.platform.auth import Caller, authenticate_headers, authorize
from leadwire.platform.billing import ledger
from leadwire.platform.body import reject_nul, validate
from leadwire.platform.db import transaction
from leadwire.platform.errors import ApiError
from leadwire.platform.jobs import service as jobs
from leadwire.platform.jobs.views import public_job
from leadwire.platform.jobs.wait import wait_for_terminal
from leadwire.platform.middleware import send_error
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import iso
from leadwire.research import service as research
from leadwire.research.schemas import ContactsRequest, PublicWebRequest

caller_var: ContextVar[Caller | None] = ContextVar("leadwire_mcp_caller", default=None)

INSTRUCTIONS = (
    "Leadwire: B2B research and outreach. Research tools run as jobs: they wait up to wait_seconds and "
    "return the job; if it is not finished yet, poll get_job with its id."
)


def build_mcp(get_runtime: Callable[[], Runtime], settings: Settings) -> tuple[MCPServer, ASGIApp]:
    server = MCPServer(name="leadwire", instructions=INSTRUCTIONS, version="0.1.0")

    async def allowed(scope: str | None, request_class: str, capability: str | None = None) -> Caller:
        caller = caller_var.get()
        if caller is None:
            raise ToolError("api_key_missing")
        try:
            await authorize(
                get_runtime(), caller, scope=scope, request_class=request_class, capability=capability
            )
        except ApiError as exc:
            raise ToolError(exc.code) from None
        return caller

    @server.tool(description="Credits of the account: balance, reserved, available.")
    async def get_credits() -> dict[str, Any]:
        caller = await allowed("credits:read", "read")
        async with transaction(get_runtime().reader) as session:
            view = await ledger.read_balance(session, caller.user_id)
        return {
            "balance": view.balance,
            "reserved": view.reserved,
            "available": view.available,
            "updated_at": iso(view.updated_at),
        }

    @server.tool(description="Connected accounts; can_send=true keeps only those that can send now.")
    async def list_accounts(can_send: bool | None = None) -> list[dict[str, Any]]:
        caller = await allowed("accounts:read", "read")
        async with transaction(get_runtime().reader) as session:
            found = await accounts.list_accounts(session, caller.user_id, can_send=can_send)
        return [public_account(a) for a in found]

    @server.tool(description="Search public-web sources (1-2 queries). Returns the research job.")
    async def research_public_web(
        queries: list[str],
        search_limit: int = 10,
        category: str | None = None,
        include_domains: list[str] | None = None,
        user_location: str | None = None,
        wait_seconds: int = 20,
    ) -> dict[str, Any]:
        body = {
            "queries": queries,
            "search_limit": search_limit,
            "category": category,
            "include_domains": include_domains or [],
            "user_location": user_location,
        }
        return await _start(
            validate_or_tool_error(PublicWebRequest, body), "research:write", None, wait_seconds
        )

    @server.tool(description="Contacts of a company by its official domain, with an inferred hierarchy.")
    async def research_contacts(
        domain: str,
        positions: list[str] | None = None,
        limit: int = 20,
        locale: str = "en",
        wait_seconds: int = 20,
    ) -> dict[str, Any]:
        body = {"domain": domain, "positions": positions or [], "limit": limit, "locale": locale}
        return await _start(
            validate_or_tool_error(ContactsRequest, body), "research:write", "contacts", wait_seconds
        )

    async def _start(
        body: PublicWebRequest | ContactsRequest, scope: str, capability: str | None, wait_seconds: int
    ) -> dict[str, Any]:
        caller = await allowed(scope, "task", capability)
        runtime = get_runtime()
        try:
            async with transaction(runtime.sessionmaker) as session:
                job = await research.start(session, runtime, caller, body)
        except ApiError as exc:
            raise ToolError(exc.code) from None
        seconds = max(0, min(wait_seconds, int(runtime.settings.prefer_wait_cap_seconds)))
        finished = await wait_for_terminal(runtime, job.id, seconds) if seconds else None
        return public_job(finished or job)

    @server.tool(description="A job by id (research and other jobs of this account).")
    async def get_job(job_id: str) -> dict[str, Any]:
        caller = await allowed(None, "poll")
        try:
            async with transaction(get_runtime().reader) as session:
                return public_job(await jobs.get_owned_job(session, caller, job_id))
        except ApiError as exc:
            raise ToolError(exc.code) from None

    @server.tool(description="Cancel a queued or scheduled job; a running job cannot be cancelled.")
    async def cancel_job(job_id: str) -> dict[str, Any]:
        caller = await allowed(None, "task")
        runtime = get_runtime()
        try:
            async with transaction(runtime.sessionmaker) as session:
                return public_job(await jobs.cancel_job(session, runtime.notifier, caller, job_id))
        except ApiError as exc:
            raise ToolError(exc.code) from None

    app = server.streamable_http_app(
        streamable_http_path="/",
        stateless_http=True,
        json_response=True,
        # McpAuth checks Host (through the app's allowed hosts), Origin and Content-Type with envelopes.
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    return server, McpAuth(app, get_runtime, allowed_origins=settings.allowed_origin_list)


def validate_or_tool_error(model: Any, body: dict[str, Any]) -> Any:
    try:
        return validate(model, body)
    except ApiError as exc:
        raise ToolError(exc.code if exc.param is None else f"{exc.code}: {exc.param}") from None


class McpAuth:
    """Guards every MCP HTTP request before the MCP app sees it, answering refusals as envelopes.

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
            self._check_headers(scope, headers)
            body = await _read_body(receive)
            runtime = self.get_runtime()
            async with transaction(runtime.reader) as session:
                caller = await authenticate_headers(headers, session, runtime)
        except ApiError as exc:
            await send_error(send, exc)
            return
        token = caller_var.set(caller)
        try:
            await self.app(scope, _replay(body, receive), send)
        finally:
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
    if b"\\u0000" in body:
        with contextlib.suppress(orjson.JSONDecodeError):
            reject_nul(body, orjson.loads(body))
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
