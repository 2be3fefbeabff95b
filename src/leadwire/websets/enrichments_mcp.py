"""MCP tools of enrichments: list, read, cancel and delete a list's columns, on the same services and
allowances as REST (adding one is a tool made from its operation)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.http import Deleted, ToolKit
from leadwire.websets import enrichments
from leadwire.websets.enrichment_schemas import EnrichmentOut
from leadwire.websets.operations import READ, WRITE


def register_tools(kit: ToolKit) -> None:
    @kit.server.tool(
        description="A prospect list's enrichments (its columns), oldest first, with their progress."
    )
    async def list_enrichments(webset_id: str) -> dict[str, Any]:
        caller = await kit.allowed(READ)

        async def read(session: AsyncSession) -> dict[str, Any]:
            return {"items": await enrichments.list_for(session, caller, webset_id)}

        return await kit.read(read)

    @kit.server.tool(description="An enrichment of a prospect list: its status and progress.")
    async def get_enrichment(webset_id: str, enrichment_id: str) -> EnrichmentOut:
        caller = await kit.allowed(READ)
        return await kit.read(lambda session: enrichments.read(session, caller, webset_id, enrichment_id))

    @kit.server.tool(
        description="Cancel an enrichment: cells found stay (and are charged), no more are filled."
    )
    async def cancel_enrichment(webset_id: str, enrichment_id: str) -> EnrichmentOut:
        caller = await kit.allowed(WRITE)
        notifier = kit.get_runtime().notifier
        return await kit.write(
            lambda session: enrichments.cancel(session, notifier, caller, webset_id, enrichment_id)
        )

    @kit.server.tool(description="Delete an enrichment: cancelled, and gone from the items and exports.")
    async def delete_enrichment(webset_id: str, enrichment_id: str) -> Deleted:
        caller = await kit.allowed(WRITE)
        notifier = kit.get_runtime().notifier

        async def remove(session: AsyncSession) -> Deleted:
            await enrichments.delete(session, notifier, caller, webset_id, enrichment_id)
            return Deleted(id=enrichment_id, deleted=True)

        return await kit.write(remove)
