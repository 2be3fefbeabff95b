"""HTTP: what keeps a connected account's sending safe (v2) — its sending policy (daily cap, warm-up
ramp, sending window) and resuming it early after an auto-pause."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path

from leadwire.accounts.operations import READ, WRITE
from leadwire.accounts.schemas import ConnectAccountOut, public_account
from leadwire.channels import connected, pausing, sending_policy
from leadwire.channels.sending_schemas import SendingPolicyIn, SendingPolicyOut
from leadwire.platform.callers import Caller
from leadwire.platform.http import (
    Idempotency,
    ItemEnvelope,
    JSONResponse,
    Session,
    documented,
    errors,
    idempotent,
    json_body,
    json_response,
    ok_item,
    openapi_body,
    require,
    respond,
)

router = APIRouter(prefix="/api/v2/connect/accounts/{account_id}", tags=["connect"])
Reader = Annotated[Caller, Depends(require(READ))]
Writer = Annotated[Caller, Depends(require(WRITE))]
AccountId = Path(description="the connected account's id (`acct_...`)")


@router.get(
    "/sending-policy",
    summary="Read an account's sending policy",
    description=(
        "The daily cap, warm-up ramp and sending window v2 dispatches and post likes through this account "
        "follow, with `default: true` until one is set (the channel's defaults: email 50 a day, LinkedIn "
        "80, WhatsApp 250; no ramp, no window), and `today`: the account's day, its allowance and the sends "
        "already placed on it. Needs `accounts:read`."
    ),
    responses={**documented(ItemEnvelope[SendingPolicyOut]), **errors("account_not_found")},
)
async def get_sending_policy(session: Session, caller: Reader, account_id: str = AccountId) -> JSONResponse:
    account = await connected.get_owned_account(session, caller.user_id, account_id)
    return json_response(ok_item(await sending_policy.policy_view(session, account)))


@router.put(
    "/sending-policy",
    summary="Set an account's sending policy",
    description=(
        "Replaces the policy: `daily_cap` (1-10000 sends a day, counted in `timezone`, the account's IANA "
        "zone, default UTC), `ramp` `{start, step_per_day, max}` (counted from the day it is first set or "
        "changed) or null, `window` `{days, start, end, timezone}` (HH:MM, `end` exclusive, `timezone` an "
        "IANA name or `recipient`) or null, `person_touch_interval_hours` (0-720, default 24). A send over "
        "the day's allowance or outside the window is not refused: it waits for the next allowed instant, "
        "and its job says so in `hold`. Sends already placed keep their times. Needs `accounts:write`."
    ),
    openapi_extra=openapi_body(SendingPolicyIn),
    responses={
        **documented(ItemEnvelope[SendingPolicyOut]),
        **errors(
            "invalid_request", "account_not_found", "invalid_sending_policy", "request_payload_too_large"
        ),
    },
)
async def put_sending_policy(
    session: Session,
    caller: Writer,
    account_id: str = AccountId,
    body: SendingPolicyIn = Depends(json_body(SendingPolicyIn)),
) -> JSONResponse:
    account = await connected.get_owned_account(session, caller.user_id, account_id)
    await sending_policy.set_policy(session, account, body)
    return json_response(ok_item(await sending_policy.policy_view(session, account)))


@router.post(
    "/resume",
    summary="Resume an auto-paused account now",
    description=(
        "An account its provider asked to slow down (HTTP 429, WhatsApp 130429/131056/131048, SMTP 421 or "
        "4.7.x) is `paused` until `resume_at`; this ends the pause now. The sends that waited for it "
        "come due and each is placed again through the channel's pacing and the account's policy, so "
        "they do not go out in a burst. An account that is not paused is answered as it is. Needs "
        "`accounts:write`."
    ),
    responses={
        **documented(ItemEnvelope[ConnectAccountOut]),
        **errors("account_not_found", "idempotency_conflict", "idempotency_key_in_progress"),
    },
)
async def resume_account(
    session: Session,
    caller: Writer,
    account_id: str = AccountId,
    idem: Idempotency = Depends(idempotent()),
) -> JSONResponse:
    account = await connected.get_owned_account(session, caller.user_id, account_id)
    await pausing.resume(session, account)
    return await respond(session, idem, ok_item(public_account(account)))
