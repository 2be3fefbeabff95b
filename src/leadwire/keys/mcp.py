"""MCP tools of the account's API keys: the same services, permissions and codes as REST."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import WithJsonSchema
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.keys import service
from leadwire.keys.operations import READ, WRITE
from leadwire.keys.schemas import KeyCreate, KeyRevoked, KeyWithSecret
from leadwire.platform.errors import ApiError
from leadwire.platform.http import ToolKit, given, tool_error
from leadwire.platform.pagination import page

ListLimit = Annotated[int, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 100})]
# The body's arguments are published with the REST model's own schema and validated by the model (none
# is required by the tool itself), so a missing or mistyped one gets the REST code.
_FIELDS = KeyCreate.model_json_schema()["properties"]
Scopes = Annotated[Any, WithJsonSchema(_FIELDS["scopes"])]
Name = Annotated[Any, WithJsonSchema(_FIELDS["name"])]


def register_tools(kit: ToolKit) -> None:
    @kit.server.tool(
        description="The account's API keys, newest first (revoked and expired ones too): id, name, prefix, "
        "mode, scopes, status (active, revoked, expired), current (the key calling), dates. Never a key."
    )
    async def list_api_keys(limit: ListLimit = 20, cursor: str | None = None) -> dict[str, Any]:
        caller = await kit.allowed(READ)
        if not 1 <= limit <= 100:
            raise tool_error(ApiError("invalid_request", param="limit"))
        codec = service.cursor_codec(kit.get_runtime())

        async def read(session: AsyncSession) -> dict[str, Any]:
            items, next_cursor = await service.list_keys(session, codec, caller, limit=limit, cursor=cursor)
            return page(items, next_cursor)

        return await kit.read(read)

    @kit.server.tool(
        description="Create an API key with the given scopes (each held by the key calling) and an optional "
        "name. The answer's key is shown only this once: keep it now."
    )
    async def create_api_key(scopes: Scopes = None, name: Name = None) -> KeyWithSecret:
        caller = await kit.allowed(WRITE)
        body = kit.validate(KeyCreate, given(scopes=scopes, name=name))
        return await kit.write(lambda session: service.create_key(session, caller, body))

    @kit.server.tool(
        description="Revoke one of the account's API keys (the calling key too): it is refused from now on, "
        "with the keys it created (revoked_with counts them), and its monitors pause. A key already "
        "revoked is returned as it stands."
    )
    async def revoke_api_key(key_id: str) -> KeyRevoked:
        caller = await kit.allowed(WRITE)
        notifier = kit.get_runtime().notifier
        return await kit.write(lambda session: service.revoke(session, notifier, caller, key_id))
