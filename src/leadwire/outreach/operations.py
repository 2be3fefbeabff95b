"""What the outreach capability lets a caller do: its permissions and the dispatch, declared once for
REST (v1 and v2 share it: same body, same reduced item), MCP and (through OpenAPI) the SDK and CLI."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from leadwire.channels.limits import SENDS
from leadwire.outreach import service
from leadwire.outreach.schemas import DispatchRequest
from leadwire.platform.callers import Permission
from leadwire.platform.jobs import ReducedJob, job_operation

WRITE = Permission("outreach:write", SENDS.name)
READ_JOB = Permission(None, "poll")
# Reading what the account sends and refuses: its queue, its sent messages, its suppression list.
READ = Permission("outreach:read", "read")
SUPPRESSIONS_WRITE = Permission(
    "outreach:write", "read"
)  # v1's read of its jobs: any key, under the polling limit

DISPATCH = job_operation(
    name="dispatch_outreach",
    body=DispatchRequest,
    permission=WRITE,
    start=partial(service.start_dispatch, version=2),
    fixed={"action": "outreach"},
    created=(ReducedJob, "Dispatch accepted: scheduled at the channel's next slot"),
    error_codes=(
        "account_id_required",
        "invalid_channel",
        "invalid_action",
        "recipient_address_required",
        "recipient_profile_url_required",
        "recipient_phone_required",
        "invalid_profile_url",
        "content_subject_required",
        "content_text_or_html_required",
        "content_text_or_attachment_required",
        "attachment_invalid",
        "attachments_invalid",
        "queued_bytes_limit_exceeded",
        "min_channel_task_interval_seconds_invalid",
        "account_not_found",
        "connect_account_not_sendable",
        "connect_account_reconnect_required",
        "recipient_suppressed",
        "sending_queue_full",
    ),
    summary="Send one email, LinkedIn or WhatsApp action through a connected account",
    description=(
        "Creates an `outreach.dispatch` job that sends one email, LinkedIn or WhatsApp message through "
        "the connected account `account_id` (its channel must be `channel`); on LinkedIn a connection "
        "gets a message, anyone else a connection request with the text as its note. The job is "
        "`scheduled` at the channel's next free slot — at least `min_channel_task_interval_seconds` "
        "(60-86400, default 60) after the previous job of this user on this channel — so 202 means "
        "accepted, not sent. The 202 item is the reduced `{id, status, action, channel, scheduled_at}`; "
        "the outcome is read at `GET /api/v2/jobs/{id}` (v1: `/api/v1/outreach/jobs/{id}`). A message "
        "is sent at most once: a worker lost mid-send fails the job `delivery_unknown` rather than send "
        "again. A recipient on the account's suppression list is refused with 409 "
        "`recipient_suppressed`, before any job. On v2 the account's sending policy (`GET "
        "/api/v2/connect/accounts/{id}/sending-policy`: daily cap, warm-up ramp, sending window) may "
        "place the job later than the slot: it is not refused, and the item's `hold: {reason, until}` "
        "says why and until when. Not metered (`billing.status: not_metered`). Needs `outreach:write`. "
        "Body limit 12 MB."
    ),
    tool_description=(
        "Send one outreach action through a connected account: an email (recipient.address, "
        "content.subject, content.text or html), a LinkedIn message or invitation (recipient.profile_url, "
        "content.text, a note at most 300 characters) or a WhatsApp message (recipient.phone in E.164). "
        "account_id, channel, recipient and content are required. Paced per channel by "
        "min_channel_task_interval_seconds (60-86400). Returns the job."
    ),
)
# v1: the same body and item, paced only: the sending policy is v2's (v1 keeps its behaviour).
DISPATCH_V1 = replace(
    DISPATCH,
    start=partial(service.start_dispatch, version=1),
    error_codes=tuple(code for code in DISPATCH.error_codes if code != "sending_queue_full"),
    tool_description=None,
)
OPERATIONS = (DISPATCH, DISPATCH_V1)
