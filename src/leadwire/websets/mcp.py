"""MCP tools that read prospect lists: list, read, strategy and items, on the same services and
allowances as REST (creating a list and Find More are tools made from their `operations`)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import WithJsonSchema
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.errors import ApiError
from leadwire.platform.http import ToolKit, tool_error
from leadwire.platform.pagination import page
from leadwire.websets import enrichments_mcp, export, imports_mcp, monitors_mcp, service
from leadwire.websets.operations import READ
from leadwire.websets.schemas import (
    DETAIL_LIMITS,
    MATCHES,
    TARGET_KINDS,
)

# Published with the REST rules (the request models' schemas, the items query's values); the tools
# validate through the models and `check`, with the REST codes.
ListLimit = Annotated[int, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 100})]
TargetKindFilter = Annotated[
    str | None, WithJsonSchema({"anyOf": [{"type": "string", "enum": list(TARGET_KINDS)}, {"type": "null"}]})
]
Match = Annotated[str, WithJsonSchema({"type": "string", "enum": list(MATCHES)})]
Detail = Annotated[str, WithJsonSchema({"type": "string", "enum": list(DETAIL_LIMITS)})]
ExportFormat = Annotated[str, WithJsonSchema({"type": "string", "enum": list(export.FORMATS)})]
# What one tool answer carries; the REST export streams a list of any size.
MCP_EXPORT_ITEMS = 1000
ItemsLimit = Annotated[
    int,
    WithJsonSchema(
        {
            "type": "integer",
            "minimum": 1,
            "maximum": max(DETAIL_LIMITS.values()),
            "description": "at most "
            + ", ".join(f"{limit} for {detail}" for detail, limit in DETAIL_LIMITS.items()),
        }
    ),
]


def register_tools(kit: ToolKit) -> None:
    imports_mcp.register_tools(kit)
    enrichments_mcp.register_tools(kit)
    monitors_mcp.register_tools(kit)

    def check(condition: bool, code: str, param: str) -> None:
        if not condition:
            raise tool_error(ApiError(code, param=param))

    @kit.server.tool(description="List your prospect lists, newest first.")
    async def list_websets(
        limit: ListLimit = 20, target_kind: TargetKindFilter = None, cursor: str | None = None
    ) -> dict[str, Any]:
        caller = await kit.allowed(READ)
        check(1 <= limit <= 100, "invalid_request", "limit")
        check(
            target_kind is None or target_kind in TARGET_KINDS,
            "webset_target_kind_unsupported",
            "target_kind",
        )

        async def read(session: AsyncSession) -> dict[str, Any]:
            rows, next_cursor = await service.list_websets(
                session,
                service.cursor_codec(kit.get_runtime()),
                caller,
                limit=limit,
                target_kind=target_kind,
                cursor=cursor,
            )
            return page(rows, next_cursor)

        return await kit.read(read)

    @kit.server.tool(description="A prospect list with its progress, criteria and failure.")
    async def get_webset(webset_id: str) -> dict[str, Any]:
        caller = await kit.allowed(READ)
        return await kit.read(lambda session: service.detail(session, caller, webset_id))

    @kit.server.tool(description="The criteria and search strategy of a prospect list (no credits used).")
    async def get_webset_strategy(webset_id: str) -> dict[str, Any]:
        caller = await kit.allowed(READ)
        return await kit.read(lambda session: service.strategy(session, caller, webset_id))

    @kit.server.tool(
        description=(
            "One page of a prospect list's items, with the snapshot's stream checkpoint. match=full means "
            "every required criterion was shown by a specific fact; detail standard or full gives each "
            "criterion's verdict (yes, no or unclear), full also the reasoning and references."
        )
    )
    async def list_webset_items(
        webset_id: str,
        match: Match = "qualified",
        detail: Detail = "compact",
        limit: ItemsLimit = 10,
        cursor: str | None = None,
    ) -> dict[str, Any]:
        caller = await kit.allowed(READ)
        check(match in MATCHES, "invalid_request", "match")
        check(detail in DETAIL_LIMITS, "invalid_request", "detail")
        check(1 <= limit <= DETAIL_LIMITS.get(detail, 10), "invalid_request", "limit")

        async def read(session: AsyncSession) -> dict[str, Any]:
            snapshot = await service.items(
                session,
                service.cursor_codec(kit.get_runtime()),
                caller,
                webset_id,
                match=match,
                detail=detail,
                limit=limit,
                cursor=cursor,
            )
            return {
                "items": snapshot.items,
                "detail": detail,
                "next_cursor": snapshot.next_cursor,
                "has_more": snapshot.next_cursor is not None,
                "webset_status": snapshot.webset_status,
                "items_revision": snapshot.items_revision,
                "stream_cursor": snapshot.stream_cursor,
            }

        return await kit.read(read)

    @kit.server.tool(
        description=(
            f"A prospect list's items as CSV (a verdict column per criterion) or JSON lines text, at most "
            f"{MCP_EXPORT_ITEMS} items (`truncated` says when there are more; the REST export streams "
            "every item)."
        )
    )
    async def export_webset(
        webset_id: str, format: ExportFormat = "csv", match: Match = "qualified"
    ) -> dict[str, Any]:
        caller = await kit.allowed(READ)
        what = await kit.read(
            lambda session: export.prepare(session, caller, webset_id, match=match, format=format)
        )
        content, items, truncated = await export.text(kit.get_runtime().reader, what, limit=MCP_EXPORT_ITEMS)
        return {"format": format, "match": match, "items": items, "truncated": truncated, "content": content}
