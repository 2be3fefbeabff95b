"""MCP tools of monitors: keep a prospect list fresh on a schedule; create, list, read, change, delete
and read runs, on the same services and allowances as REST."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import WithJsonSchema
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.errors import ApiError
from leadwire.platform.http import Deleted, ToolKit, given, tool_error
from leadwire.platform.pagination import page
from leadwire.websets import monitors, service
from leadwire.websets.monitor_schemas import MonitorCreate, MonitorOut, MonitorUpdate
from leadwire.websets.operations import READ, WRITE

ListLimit = Annotated[int, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 100})]
# Published as the request models state them; taken as they come, so the permission is checked first
# and a malformed value gets the REST code.
CadenceArg = Annotated[
    Any,
    WithJsonSchema(
        {
            "type": "object",
            "properties": {"cron": {"type": "string"}, "timezone": {"type": "string"}},
            "required": ["cron"],
        }
    ),
]


def register_tools(kit: ToolKit) -> None:
    def page_limit(limit: int) -> int:
        if not 1 <= limit <= 100:
            raise tool_error(ApiError("invalid_request", param="limit"))
        return limit

    @kit.server.tool(
        description=(
            "Keep a prospect list fresh: at each slot of a cron cadence (at most hourly, in a time zone) "
            "a Find More of `count` new items runs (behavior search, billed per item), or its items are "
            "re-verified and its enrichments re-run (behavior refresh, 0.2 credit per item)."
        )
    )
    async def create_monitor(
        webset_id: str,
        cadence: CadenceArg,
        behavior: str = "search",
        count: int = 25,
        metadata: dict[str, str] | None = None,
    ) -> MonitorOut:
        caller = await kit.allowed(WRITE)
        fields = given(
            webset_id=webset_id, cadence=cadence, behavior=behavior, count=count, metadata=metadata
        )
        body = kit.validate(MonitorCreate, fields)
        return await kit.write(lambda session: monitors.create(session, caller, body))

    @kit.server.tool(description="List your monitors, newest first (optionally of one list).")
    async def list_monitors(
        webset_id: str | None = None, limit: ListLimit = 20, cursor: str | None = None
    ) -> dict[str, Any]:
        caller = await kit.allowed(READ)
        size = page_limit(limit)

        async def read(session: AsyncSession) -> dict[str, Any]:
            codec = service.cursor_codec(kit.get_runtime())
            found, next_cursor = await monitors.list_monitors(
                session, codec, caller, webset_id=webset_id, limit=size, cursor=cursor
            )
            return page(found, next_cursor)

        return await kit.read(read)

    @kit.server.tool(description="A monitor: its cadence, status and next slot.")
    async def get_monitor(monitor_id: str) -> MonitorOut:
        caller = await kit.allowed(READ)

        async def read(session: AsyncSession) -> MonitorOut:
            return monitors.view(await monitors.get_owned(session, caller, monitor_id))

        return await kit.read(read)

    @kit.server.tool(
        description="Change a monitor: its cadence, status (active or paused), count or metadata. One paused "
        "with pause_reason key_revoked resumes only with a key also holding keys:write, and then runs as it."
    )
    async def update_monitor(
        monitor_id: str,
        cadence: CadenceArg = None,
        status: str | None = None,
        count: int | None = None,
        metadata: dict[str, str] | None = None,
    ) -> MonitorOut:
        caller = await kit.allowed(WRITE)
        body = kit.validate(
            MonitorUpdate, given(cadence=cadence, status=status, count=count, metadata=metadata)
        )
        return await kit.write(lambda session: monitors.update(session, caller, monitor_id, body))

    @kit.server.tool(description="Delete a monitor; a run already started goes on.")
    async def delete_monitor(monitor_id: str) -> Deleted:
        caller = await kit.allowed(WRITE)

        async def remove(session: AsyncSession) -> Deleted:
            await monitors.delete(session, caller, monitor_id)
            return Deleted(id=monitor_id, deleted=True)

        return await kit.write(remove)

    @kit.server.tool(
        description="A monitor's runs, newest first: each slot's Find More job, or why it was skipped."
    )
    async def list_monitor_runs(
        monitor_id: str, limit: ListLimit = 20, cursor: str | None = None
    ) -> dict[str, Any]:
        caller = await kit.allowed(READ)
        size = page_limit(limit)

        async def read(session: AsyncSession) -> dict[str, Any]:
            codec = service.cursor_codec(kit.get_runtime())
            found, next_cursor = await monitors.runs(
                session, codec, caller, monitor_id, limit=size, cursor=cursor
            )
            return page(found, next_cursor)

        return await kit.read(read)
