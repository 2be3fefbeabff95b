"""What a capability's MCP tools stand on: the caller of the current MCP request, the same
authorisation as REST (scopes, plan features, account-wide rate limits), tool errors carrying the
public code, and starting a job then waiting for it like `Prefer: wait`.

The MCP face (`leadwire/mcp/server.py`) builds one `ToolKit` and hands it to every capability's
`mcp_tools` declaration, so a slice adds its tools without the face naming it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, WithJsonSchema
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from leadwire.platform.auth import Caller, authorize
from leadwire.platform.body import validate
from leadwire.platform.db import transaction
from leadwire.platform.errors import ApiError
from leadwire.platform.jobs.models import Job
from leadwire.platform.jobs.views import public_job
from leadwire.platform.jobs.wait import wait_for_terminal
from leadwire.platform.runtime import Runtime
from leadwire.platform.schemas import PublicJob

# Tool arguments the tool itself validates, so a missing or mistyped one gets the same public code as the
# REST body would (the MCP library's own argument check would answer first, in its own words, or
# coerce "90" into 90). The published schema still shows what is expected.
Text = Annotated[Any, WithJsonSchema({"type": "string"})]
Integer = Annotated[Any, WithJsonSchema({"type": "integer"})]
Object = Annotated[Any, WithJsonSchema({"type": "object"})]


@lru_cache(maxsize=64)
def _json_schema(model: type[BaseModel]) -> dict[str, Any]:
    # Built once per model, not once per tool argument: tools are declared at start-up.
    return model.model_json_schema()


def field_schema(model: type[BaseModel], field: str) -> WithJsonSchema:
    """For a loosely typed tool argument (`Annotated[Any, field_schema(Model, "name")]`): the request
    model's own JSON schema of that field (types, enums, patterns, bounds, description), so MCP clients
    see the REST rules while the tool still validates through the model and answers with REST codes."""
    full = _json_schema(model)
    schema = dict(full["properties"][field])
    reference = schema.get("$ref") or next((s["$ref"] for s in schema.get("anyOf", ()) if "$ref" in s), None)
    if reference is not None:  # a nested model (customs `filters`): inline its schema
        schema = {
            **full.get("$defs", {})[reference.rsplit("/", 1)[-1]],
            "description": schema.get("description"),
        }
    if "$ref" in str(schema):  # deeper nesting than that is published as a plain object
        schema = {"type": "object", "description": schema.get("description")}
    schema = {k: v for k, v in schema.items() if v is not None}
    schema.pop("title", None)
    return WithJsonSchema(schema)


def given(**arguments: Any) -> dict[str, Any]:
    """The arguments a tool call actually gave: left-out ones take the request model's defaults."""
    return {name: value for name, value in arguments.items() if value is not None}


caller_var: ContextVar[Caller | None] = ContextVar("leadwire_mcp_caller", default=None)

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


def tool_error(exc: ApiError) -> ToolError:
    """The public code, and the field when there is one, as the tool error's text."""
    return ToolError(exc.code if exc.param is None else f"{exc.code}: {exc.param}")


@dataclass(frozen=True)
class ToolKit:
    server: MCPServer
    get_runtime: Callable[[], Runtime]

    async def allowed(self, scope: str | None, request_class: str, feature: str | None = None) -> Caller:
        """The caller, once authorised exactly as a REST request would be."""
        caller = caller_var.get()
        if caller is None:
            raise ToolError("api_key_missing")
        needed = feature or (scope.split(":")[0] if scope else None)
        try:
            await authorize(
                self.get_runtime(), caller, scope=scope, request_class=request_class, capability=needed
            )
        except ApiError as exc:
            raise tool_error(exc) from None
        return caller

    @staticmethod
    def validate(model: type[M], body: dict[str, Any]) -> M:
        try:
            return validate(model, body)
        except ApiError as exc:
            raise tool_error(exc) from None

    @staticmethod
    async def refusing(work: Awaitable[T]) -> T:
        """A service call that needs no session of its own; refusals become tool errors."""
        try:
            return await work
        except ApiError as exc:
            raise tool_error(exc) from None

    async def read(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """Run a read in a read-only transaction; refusals become tool errors."""
        return await self._in_transaction(self.get_runtime().reader, work)

    async def write(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        return await self._in_transaction(self.get_runtime().sessionmaker, work)

    @staticmethod
    async def _in_transaction(
        maker: async_sessionmaker[AsyncSession], work: Callable[[AsyncSession], Awaitable[T]]
    ) -> T:
        try:
            async with transaction(maker) as session:
                return await work(session)
        except ApiError as exc:
            raise tool_error(exc) from None

    async def start_job(
        self, create: Callable[[AsyncSession], Awaitable[Job]], wait_seconds: int
    ) -> PublicJob:
        """Create the job in its own transaction, then wait for it up to `wait_seconds` (capped like
        `Prefer: wait`) and return it as it then stands."""
        job = await self.write(create)
        runtime = self.get_runtime()
        seconds = max(0, min(wait_seconds, int(runtime.settings.prefer_wait_cap_seconds)))
        finished = await wait_for_terminal(runtime, job.id, seconds) if seconds else None
        return public_job(finished or job)
