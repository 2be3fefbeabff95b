"""MCP tools of webhooks: the same services, permissions and codes as REST."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import WithJsonSchema
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.errors import ApiError
from leadwire.platform.http import ToolKit, given, tool_error
from leadwire.platform.pagination import page
from leadwire.webhooks import service
from leadwire.webhooks.operations import READ, RETRY, WRITE
from leadwire.webhooks.schemas import (
    DELIVERY_STATUSES,
    EVENT_TYPES,
    DeliveryOut,
    WebhookCreate,
    WebhookOut,
    WebhookUpdate,
    WebhookWithSecret,
)

ListLimit = Annotated[int, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 100})]
EVENT_ITEMS = {"type": "string", "enum": [*EVENT_TYPES, "*"]}
Events = Annotated[list[str], WithJsonSchema({"type": "array", "items": EVENT_ITEMS, "minItems": 1})]
OptionalEvents = Annotated[
    list[str] | None,
    WithJsonSchema({"anyOf": [{"type": "array", "items": EVENT_ITEMS, "minItems": 1}, {"type": "null"}]}),
]
DeliveryStatus = Annotated[
    str | None,
    WithJsonSchema({"anyOf": [{"type": "string", "enum": list(DELIVERY_STATUSES)}, {"type": "null"}]}),
]


def register_tools(kit: ToolKit) -> None:
    def check_limit(limit: int) -> None:
        if not 1 <= limit <= 100:
            raise tool_error(ApiError("invalid_request", param="limit"))

    @kit.server.tool(
        description=(
            "Register a webhook: Leadwire POSTs signed events of the given types (or ['*']) to the https "
            "url. The answer's secret is shown only once."
        )
    )
    async def create_webhook(
        url: str, events: Events, description: str | None = None, metadata: dict[str, str] | None = None
    ) -> WebhookWithSecret:
        caller = await kit.allowed(WRITE)
        body = kit.validate(
            WebhookCreate, given(url=url, events=events, description=description, metadata=metadata)
        )
        runtime = kit.get_runtime()

        async def create(session: AsyncSession) -> WebhookWithSecret:
            return await service.create(
                session,
                service.secret_box(runtime),
                caller,
                body,
                allow_private=runtime.settings.webhook_allow_private_networks,
                lookup_timeout=runtime.settings.egress_lookup_timeout_seconds,
                limit=runtime.settings.webhook_limit_per_account,
            )

        return await kit.write(create)

    @kit.server.tool(description="List your webhooks, newest first.")
    async def list_webhooks(limit: ListLimit = 20, cursor: str | None = None) -> dict[str, Any]:
        caller = await kit.allowed(READ)
        check_limit(limit)
        codec = service.cursor_codec(kit.get_runtime())

        async def read(session: AsyncSession) -> dict[str, Any]:
            return page(*await service.list_webhooks(session, codec, caller, limit=limit, cursor=cursor))

        return await kit.read(read)

    @kit.server.tool(description="A webhook by id, with its status and, when disabled, why.")
    async def get_webhook(webhook_id: str) -> WebhookOut:
        caller = await kit.allowed(READ)
        return await kit.read(lambda session: service.detail(session, caller, webhook_id))

    @kit.server.tool(
        description="Change a webhook's url, events, status (active | disabled), description or metadata."
    )
    async def update_webhook(
        webhook_id: str,
        url: str | None = None,
        events: OptionalEvents = None,
        status: str | None = None,
        description: str | None = None,
        metadata: dict[str, str] | None = None,
    ) -> WebhookOut:
        caller = await kit.allowed(WRITE)
        body = kit.validate(
            WebhookUpdate,
            given(url=url, events=events, status=status, description=description, metadata=metadata),
        )
        runtime = kit.get_runtime()

        async def change(session: AsyncSession) -> WebhookOut:
            return await service.update(
                session,
                runtime.notifier,
                caller,
                webhook_id,
                body,
                allow_private=runtime.settings.webhook_allow_private_networks,
                lookup_timeout=runtime.settings.egress_lookup_timeout_seconds,
            )

        return await kit.write(change)

    @kit.server.tool(description="Delete a webhook and its delivery log.")
    async def delete_webhook(webhook_id: str) -> dict[str, Any]:
        caller = await kit.allowed(WRITE)

        async def remove(session: AsyncSession) -> dict[str, Any]:
            await service.delete(session, caller, webhook_id)
            return {"id": webhook_id, "deleted": True}

        return await kit.write(remove)

    @kit.server.tool(
        description="A new secret for a webhook; the old one keeps signing beside it for 24 hours."
    )
    async def rotate_webhook_secret(webhook_id: str) -> WebhookWithSecret:
        caller = await kit.allowed(WRITE)
        box = service.secret_box(kit.get_runtime())
        return await kit.write(lambda session: service.rotate_secret(session, box, caller, webhook_id))

    @kit.server.tool(description="A webhook's deliveries, newest first, with their attempts and last answer.")
    async def list_webhook_deliveries(
        webhook_id: str, status: DeliveryStatus = None, limit: ListLimit = 20, cursor: str | None = None
    ) -> dict[str, Any]:
        caller = await kit.allowed(READ)
        check_limit(limit)
        if status is not None and status not in DELIVERY_STATUSES:
            raise tool_error(ApiError("invalid_request", param="status"))
        codec = service.cursor_codec(kit.get_runtime())

        async def read(session: AsyncSession) -> dict[str, Any]:
            found = await service.list_deliveries(
                session, codec, caller, webhook_id, limit=limit, cursor=cursor, status=status
            )
            return page(*found)

        return await kit.read(read)

    @kit.server.tool(description="Send one of a webhook's deliveries again now, with the same webhook-id.")
    async def retry_webhook_delivery(webhook_id: str, delivery_id: str) -> DeliveryOut:
        caller = await kit.allowed(RETRY)
        notifier = kit.get_runtime().notifier
        return await kit.write(
            lambda session: service.retry_delivery(session, notifier, caller, webhook_id, delivery_id)
        )
