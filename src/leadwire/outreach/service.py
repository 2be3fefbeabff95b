"""Outreach rules: accept a dispatch (account, pacing slot, job), then deliver it at most once.

Acceptance runs in the request's transaction: the account is resolved and checked, the channel's next
slot reserved (`platform/pacing`), and the job created `scheduled` at that slot. Delivery runs in the
worker when the slot is due, through the account's adapter, with the delivery record committed before
the provider is called (`platform/delivery`), so a job run twice never sends twice.
"""

from __future__ import annotations

import base64
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.channels import connected, delivery, pacing, pausing
from leadwire.outreach import suppressions
from leadwire.outreach.schemas import CHANNEL_FIELD, DispatchRequest
from leadwire.platform.callers import Caller
from leadwire.platform.db import transaction
from leadwire.platform.errors import ApiError
from leadwire.platform.ids import new_id
from leadwire.platform.jobs import JobContext, NewJob
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import iso
from leadwire.providers.channels import Attachment, ChannelError, DeliveryReceipt, OutboundMessage
from leadwire.providers.registry import channel_for

DISPATCH = "outreach.dispatch"


async def start_dispatch(
    session: AsyncSession, runtime: Runtime, caller: Caller, body: DispatchRequest, *, version: int = 2
) -> NewJob:
    """Accept one dispatch: 404 for an account that is not the caller's, `invalid_channel` for another
    channel's account, 409 when the account cannot send; else a job scheduled at the channel's slot —
    on v2 at the first instant after it the account's sending policy allows (v1 keeps its pacing only)."""
    account = await connected.get_owned_account(session, caller.user_id, body.account_id)
    if account.channel != body.channel:
        raise ApiError(
            "invalid_channel", param="channel", detail=f"account {account.id} is {account.channel}"
        )
    connected.require_sendable(account)
    await suppressions.check(session, caller.user_id, body.channel, body.recipient.model_dump())
    payload, blobs = _apart(body.model_dump(mode="json"))
    payload["api_version"] = version  # the job follows the policy only when v2 accepted it
    return await pacing.create_paced_job(
        session,
        runtime,
        caller,
        action=DISPATCH,
        payload=payload,
        channel=body.channel,
        interval_seconds=body.min_channel_task_interval_seconds,
        status="scheduled",
        blobs=blobs,
        sender=account if version >= 2 else None,
        recipient=payload["recipient"],
    )


def _apart(payload: dict[str, Any]) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The dispatch's payload with each attachment's content replaced by the id of a blob holding it:
    the job row stays small whatever it carries, and the content goes once the message is sent."""
    blobs: dict[str, bytes] = {}
    stored = []
    for attachment in payload["content"].get("attachments") or []:
        blob_id = new_id("blob")
        blobs[blob_id] = base64.b64decode(attachment["contentBase64"])
        stored.append({**attachment, "contentBase64": "", "blob": blob_id})
    return {**payload, "content": {**payload["content"], "attachments": stored}}, blobs


async def with_attachments(ctx: JobContext, payload: dict[str, Any]) -> dict[str, Any]:
    """The payload as it was sent: each attachment's content read back from its blob."""
    attachments = payload["content"].get("attachments") or []
    if not any(a.get("blob") for a in attachments):
        return payload  # a job created before attachments were stored apart
    restored = []
    for attachment in attachments:
        content = await ctx.blob(attachment["blob"])
        restored.append({**attachment, "contentBase64": base64.b64encode(content).decode()})
    return {**payload, "content": {**payload["content"], "attachments": restored}}


async def deliver(ctx: JobContext, body: DispatchRequest, *, api_version: int = 1) -> dict[str, Any]:
    """Send the message once; the result is the dispatch result (docs/api.md, Outreach dispatch by email).
    `api_version`: the version that accepted it (a job from before versions were recorded: 1, pacing
    only)."""
    account = await connected.account_for_job(ctx, body.account_id)
    await pausing.await_turn(
        ctx,
        account,
        channel=body.channel,
        interval_seconds=body.min_channel_task_interval_seconds,
        recipient=body.recipient.model_dump(),
        under_policy=api_version >= 2,
    )
    settings = ctx.runtime.settings
    # Built before the delivery record: a bad account setting fails the job with nothing recorded.
    adapter = channel_for(settings, **connected.adapter_arguments(account, settings.resolved_secret_key))
    recipient = _recipient_key(body)
    begun = await delivery.begin(ctx, channel=body.channel, recipient=recipient)
    if begun.receipt is not None:  # an earlier attempt sent it and its outcome was recorded
        return begun.receipt
    await ctx.progress("sending", 50.0)
    try:
        receipt = await adapter.send(_message(begun.delivery_id, body))
    except ChannelError as error:
        await delivery.fail(ctx, begun.delivery_id, error_code=error.code, sent_unknown=error.sent_unknown)
        await _learn(ctx, body, error)
        await connected.fail_action(ctx, account.id, error)
    except Exception:
        await delivery.fail_unforeseen(ctx, begun.delivery_id)
    result = dispatch_result(receipt, recipient)
    await delivery.finish(ctx, begun.delivery_id, receipt=result)
    return result


async def _learn(ctx: JobContext, body: DispatchRequest, error: ChannelError) -> None:
    """A refusal that means "never again" puts the recipient on the account's suppression list: a hard
    bounce (an SMTP reply with status 5.1.x) or a recipient who opted out."""
    learned = _lesson(body.channel, error)
    if learned is None:
        return
    source, reason = learned
    async with transaction(ctx.sessionmaker) as session:
        await suppressions.learn(
            session, ctx.user_id, body.channel, body.recipient.model_dump(), source=source, reason=reason
        )


def _lesson(channel: str, error: ChannelError) -> tuple[str, str] | None:
    detail = error.detail or error.code
    if error.code == "recipient_opted_out":
        return "opt_out", f"opted out: {detail}"
    if error.code == "recipient_blocked":
        return "blocked", f"blocked the sender: {detail}"
    if channel == "email" and error.code == "recipient_not_found" and suppressions.HARD_BOUNCE.search(detail):
        return "bounce", f"hard bounce: {detail}"
    return None


def dispatch_result(receipt: DeliveryReceipt, recipient: str) -> dict[str, Any]:
    return {
        "kind": receipt.kind,
        "provider": receipt.provider,
        "provider_message_id": receipt.provider_message_id,
        "recipient": recipient,
        "delivered_at": iso(receipt.delivered_at),
    }


def _recipient_key(body: DispatchRequest) -> str:
    return str(_own_recipient(body)[CHANNEL_FIELD[body.channel]])


def _own_recipient(body: DispatchRequest) -> dict[str, Any]:
    """What the channel sends to: its own field (and an email's display name), not the identifiers the
    dispatch gave of the person on other channels."""
    own = {CHANNEL_FIELD[body.channel], "name"} if body.channel == "email" else {CHANNEL_FIELD[body.channel]}
    return body.recipient.model_dump(include=own, exclude_none=True)


def _message(delivery_id: str, body: DispatchRequest) -> OutboundMessage:
    content = body.content
    return OutboundMessage(
        delivery_id=delivery_id,
        recipient=_own_recipient(body),
        subject=content.subject,
        text=content.text,
        html=content.html,
        attachments=[
            Attachment(
                a.filename, base64.b64decode(a.contentBase64), a.contentType or "application/octet-stream"
            )
            for a in content.attachments
        ],
    )
