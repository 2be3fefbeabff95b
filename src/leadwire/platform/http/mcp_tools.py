"""What a capability's MCP tools stand on: the caller of the current MCP request, the same
authorisation as REST (scopes, plan features, account-wide rate limits), tool errors carrying the
public code, and starting a job then waiting for it like `Prefer: wait`.

The MCP face (`leadwire/mcp/server.py`) builds one `ToolKit` and hands it to every capability's
`mcp_tools` declaration, so a slice adds its tools without the face naming it.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, WithJsonSchema
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from leadwire.platform.callers import Caller, Permission
from leadwire.platform.db import transaction
from leadwire.platform.errors import ApiError
from leadwire.platform.http.auth import authorize
from leadwire.platform.jobs.models import NewJob
from leadwire.platform.jobs.operations import Operation
from leadwire.platform.jobs.schemas import PublicJob
from leadwire.platform.jobs.views import public_job
from leadwire.platform.jobs.wait import wait_for_terminal
from leadwire.platform.runtime import Runtime
from leadwire.platform.validation import validate

# Tool arguments typed `Any` are validated by the tool itself, so a missing or mistyped one gets the same
# public code as the REST body would (the MCP library's own argument check would answer first, in its
# own words, or coerce "90" into 90); `field_schema` publishes what is expected.


@lru_cache(maxsize=64)
def _json_schema(model: type[BaseModel]) -> dict[str, Any]:
    # Built once per model, not once per tool argument: tools are declared at start-up.
    return model.model_json_schema()


_INLINE_DEPTH = 4  # request models nest two levels (dispatch content, attachments); deeper: plain object


def field_schema(model: type[BaseModel], field: str) -> WithJsonSchema:
    """For a tool argument (`Annotated[Any, field_schema(Model, "name")]`): the request model's own
    JSON schema of that field (types, enums, patterns, bounds, description, nested models inlined), so
    MCP clients see the REST rules while the tool still validates through the model and answers with
    REST codes."""
    full = _json_schema(model)
    schema = dict(full["properties"][field])
    reference = schema.get("$ref") or next((s["$ref"] for s in schema.get("anyOf", ()) if "$ref" in s), None)
    if reference is not None:  # a nested model (customs `filters`, dispatch `content`): its schema
        schema = {**_definition(full, reference), "description": schema.get("description")}
    schema = _inlined(schema, full, _INLINE_DEPTH)
    schema = {k: v for k, v in schema.items() if v is not None}
    schema.pop("title", None)
    return WithJsonSchema(schema)


def _definition(full: dict[str, Any], reference: str) -> dict[str, Any]:
    return dict(full.get("$defs", {})[reference.rsplit("/", 1)[-1]])


def _inlined(schema: Any, full: dict[str, Any], depth: int) -> Any:
    """`schema` with every `$ref` to the model's definitions replaced by the definition itself (MCP
    clients get one self-contained schema per argument), titles dropped; a plain object past `depth`."""
    if isinstance(schema, list):
        return [_inlined(item, full, depth) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        if depth == 0:
            return {"type": "object"}
        schema = {**_definition(full, schema["$ref"]), **{k: v for k, v in schema.items() if k != "$ref"}}
        depth -= 1
    inlined: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "properties":  # names of fields, not keywords: a field may be called `title`
            inlined[key] = {name: _inlined(field, full, depth) for name, field in value.items()}
        elif key in _VALUES:
            inlined[key] = value
        elif key != "title":
            inlined[key] = _inlined(value, full, depth)
    return inlined


_VALUES = frozenset({"default", "enum", "const", "examples"})  # data, not schemas: kept as they are


def given(**arguments: Any) -> dict[str, Any]:
    """The arguments a tool call actually gave: left-out ones take the request model's defaults."""
    return {name: value for name, value in arguments.items() if value is not None}


caller_var: ContextVar[Caller | None] = ContextVar("leadwire_mcp_caller", default=None)
# The runtime of the app serving the MCP request: the tools are built once per process (mcp/server.py)
# and serve every app of it, each setting its own runtime here with the caller.
runtime_var: ContextVar[Runtime | None] = ContextVar("leadwire_mcp_runtime", default=None)

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


def tool_error(exc: ApiError) -> ToolError:
    """The tool error's text: the public code, the field when there is one, and the detail (why) when
    there is one, as REST's envelope carries them: `code: param — detail`."""
    text = exc.code if exc.param is None else f"{exc.code}: {exc.param}"
    return ToolError(text if exc.detail is None else f"{text} — {exc.detail}")


@dataclass(frozen=True)
class ToolKit:
    server: MCPServer

    @staticmethod
    def get_runtime() -> Runtime:
        """The runtime of the app whose MCP request this tool call serves."""
        runtime = runtime_var.get()
        if runtime is None:
            raise RuntimeError("an MCP tool ran outside an MCP request")
        return runtime

    async def allowed(self, permission: Permission) -> Caller:
        """The caller, once authorised exactly as a REST request would be."""
        caller = caller_var.get()
        if caller is None:
            raise ToolError("api_key_missing")
        try:
            await authorize(self.get_runtime(), caller, permission)
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
        self, create: Callable[[AsyncSession], Awaitable[NewJob]], wait_seconds: int
    ) -> PublicJob:
        """Create the job in its own transaction, then wait for it up to `wait_seconds` (capped like
        `Prefer: wait`) and return it as it then stands."""
        job = await self.write(create)
        runtime = self.get_runtime()
        seconds = max(0, min(wait_seconds, int(runtime.settings.prefer_wait_cap_seconds)))
        finished = await wait_for_terminal(runtime, job.id, seconds) if seconds else None
        return public_job(finished or job)

    def operation_tool(self, operation: Operation[Any, Any]) -> None:
        """The MCP tool of a declared operation (none when it has no tool description): one argument per
        request-model field the operation does not set itself, published with the field's REST schema and
        validated by the model (REST codes); the resource id first when it acts on one; `wait_seconds`
        when it creates a job. Authorised before the arguments are read, as REST does."""
        if operation.tool_description is None:
            return
        run = self._runner(operation)
        run.__signature__ = _tool_signature(operation)  # type: ignore[attr-defined]
        run.__name__ = operation.name
        self.server.tool(name=operation.name, description=operation.tool_description)(run)

    def _runner(self, operation: Operation[Any, Any]) -> Callable[..., Awaitable[Any]]:
        async def run(**arguments: Any) -> Any:
            caller = await self.allowed(operation.permission)
            wait_seconds = arguments.pop("wait_seconds", 0)
            resource = {operation.resource: arguments.pop(operation.resource)} if operation.resource else {}
            body = self.validate(operation.body, {**given(**arguments), **operation.fixed})
            runtime = self.get_runtime()

            async def create(session: AsyncSession) -> Any:
                return await operation.start(session, runtime, caller, body, **resource)

            if operation.waits:
                return await self.start_job(create, wait_seconds)
            return operation.item(await self.write(create))

        return run


def _tool_signature(operation: Operation[Any, Any]) -> inspect.Signature:
    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = (
        [inspect.Parameter(operation.resource, keyword, annotation=str)] if operation.resource else []
    )
    parameters += [
        inspect.Parameter(
            name, keyword, default=None, annotation=Annotated[Any, field_schema(operation.body, name)]
        )
        for name in operation.tool_fields()
    ]
    if operation.waits:
        parameters.append(
            inspect.Parameter("wait_seconds", keyword, default=operation.tool_wait_seconds, annotation=int)
        )
    answer = PublicJob if operation.waits else dict[str, Any]
    return inspect.Signature(parameters, return_annotation=answer)
