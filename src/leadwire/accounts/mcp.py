"""MCP tools of the connected-accounts capability: the accounts, and each one's sending policy."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import WithJsonSchema
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.accounts.operations import READ, WRITE
from leadwire.accounts.schemas import ConnectAccountOut, public_account
from leadwire.channels import connected, pausing, sending_policy
from leadwire.channels.sending_schemas import SendingPolicyIn, SendingPolicyOut
from leadwire.platform.http import ToolKit, given

# Published as the request model states them; taken as they come, so the permission is checked first and
# a malformed value gets the REST code (`invalid_sending_policy`), not the framework's error.
Cap = Annotated[Any, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 10000})]
Hours = Annotated[Any, WithJsonSchema({"type": "integer", "minimum": 0, "maximum": 720})]


def register_tools(kit: ToolKit) -> None:
    @kit.server.tool(description="Connected accounts; can_send=true keeps only those that can send now.")
    async def list_accounts(can_send: bool | None = None) -> list[ConnectAccountOut]:
        caller = await kit.allowed(READ)

        async def read(session: AsyncSession) -> list[ConnectAccountOut]:
            found = await connected.list_accounts(session, caller.user_id, can_send=can_send)
            return [public_account(a) for a in found]

        return await kit.read(read)

    @kit.server.tool(
        description="An account's sending policy (daily cap, warm-up ramp, window) and today's allowance."
    )
    async def get_sending_policy(account_id: str) -> SendingPolicyOut:
        caller = await kit.allowed(READ)

        async def read(session: AsyncSession) -> SendingPolicyOut:
            account = await connected.get_owned_account(session, caller.user_id, account_id)
            return await sending_policy.policy_view(session, account)

        return await kit.read(read)

    @kit.server.tool(
        description="Replace an account's sending policy: daily_cap 1-10000; ramp {start, step_per_day, "
        "max} or null; window {days [mon..sun], start HH:MM, end HH:MM, timezone IANA|recipient} or null; "
        "timezone (the account's, for its days); person_touch_interval_hours 0-720. Sends over the "
        "allowance or outside the window wait (their job's hold says why)."
    )
    async def set_sending_policy(
        account_id: str,
        daily_cap: Cap,
        ramp: dict[str, Any] | None = None,
        window: dict[str, Any] | None = None,
        timezone: str = "UTC",
        person_touch_interval_hours: Hours = 24,
    ) -> SendingPolicyOut:
        caller = await kit.allowed(WRITE)
        body = kit.validate(
            SendingPolicyIn,
            given(
                daily_cap=daily_cap,
                ramp=ramp,
                window=window,
                timezone=timezone,
                person_touch_interval_hours=person_touch_interval_hours,
            ),
        )

        async def write(session: AsyncSession) -> SendingPolicyOut:
            account = await connected.get_owned_account(session, caller.user_id, account_id)
            await sending_policy.set_policy(session, account, body)
            return await sending_policy.policy_view(session, account)

        return await kit.write(write)

    @kit.server.tool(
        description="Resume an auto-paused account now (its provider asked it to slow down); the sends that "
        "waited are placed again through pacing and the policy. Returns the account."
    )
    async def resume_account(account_id: str) -> ConnectAccountOut:
        caller = await kit.allowed(WRITE)

        async def write(session: AsyncSession) -> ConnectAccountOut:
            account = await connected.get_owned_account(session, caller.user_id, account_id)
            await pausing.resume(session, account)
            return public_account(account)

        return await kit.write(write)
