"""MCP tools of imports: bring a list of companies as rows, read, list and delete imports, on the same
services and allowances as REST (a CSV file is for REST, the SDK and the CLI)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import WithJsonSchema
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.errors import ApiError
from leadwire.platform.http import Deleted, ToolKit, given, tool_error
from leadwire.platform.offload import in_child
from leadwire.platform.pagination import page
from leadwire.websets import imports, service
from leadwire.websets.operations import READ, WRITE
from leadwire.websets.schemas import ImportOut, ImportRequest

ListLimit = Annotated[int, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 100})]
# Published as the request model states them; taken as they come, so that the permission is checked
# first and a malformed value gets the REST code (`invalid_import`), not the framework's error.
Rows = Annotated[list[Any], WithJsonSchema({"type": "array", "minItems": 1, "items": {"type": "object"}})]
Columns = Annotated[
    Any,
    WithJsonSchema(
        {
            "anyOf": [
                {
                    "type": "object",
                    "properties": {f: {"type": "string"} for f in ("name", "domain", "country")},
                },
                {"type": "null"},
            ]
        }
    ),
]


def register_tools(kit: ToolKit) -> None:
    @kit.server.tool(
        description=(
            "Import a list of companies (rows with name, domain or website, country) that prospect lists "
            "can leave out with exclude: [{source: 'import', id}]. Bad rows are reported by line."
        )
    )
    async def create_import(rows: Rows, title: str | None = None, columns: Columns = None) -> ImportOut:
        caller = await kit.allowed(WRITE)
        body = kit.validate(ImportRequest, given(rows=rows, title=title, columns=columns))

        async def create() -> ImportOut:
            checked = await in_child(imports.from_rows, body.rows, body.columns, imports.MAX_IMPORT_ROWS)
            return await imports.create(
                kit.get_runtime().sessionmaker, caller, title=body.title, source_format="json", rows=checked
            )

        return await kit.refusing(create())

    @kit.server.tool(description="List your imports, newest first.")
    async def list_imports(limit: ListLimit = 20, cursor: str | None = None) -> dict[str, Any]:
        caller = await kit.allowed(READ)
        if not 1 <= limit <= 100:
            raise tool_error(ApiError("invalid_request", param="limit"))

        async def read(session: AsyncSession) -> dict[str, Any]:
            codec = service.cursor_codec(kit.get_runtime())
            found, next_cursor = await imports.list_imports(
                session, codec, caller, limit=limit, cursor=cursor
            )
            return page(found, next_cursor)

        return await kit.read(read)

    @kit.server.tool(description="An import: its counts and the first 100 lines it rejected.")
    async def get_import(import_id: str) -> ImportOut:
        caller = await kit.allowed(READ)

        async def read(session: AsyncSession) -> ImportOut:
            return imports.view(await imports.get_owned(session, caller, import_id))

        return await kit.read(read)

    @kit.server.tool(description="Delete an import and its rows.")
    async def delete_import(import_id: str) -> Deleted:
        caller = await kit.allowed(WRITE)

        async def remove() -> Deleted:
            await imports.delete(kit.get_runtime().sessionmaker, caller, import_id)
            return Deleted(id=import_id, deleted=True)

        return await kit.refusing(remove())
