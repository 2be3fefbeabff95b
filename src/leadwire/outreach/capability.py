"""The outreach capability: one-off sends through connected accounts (LinkedIn post likes are the
engagement capability's). The dispatch body limit is docs/api.md's, "5. Limits"."""

from __future__ import annotations

from leadwire.channels.errors import CHANNEL_ERRORS
from leadwire.channels.limits import SENDS
from leadwire.outreach import jobs
from leadwire.outreach.operations import OPERATIONS
from leadwire.platform.capability import Capability, Feature
from leadwire.platform.errors import ErrorCode

DISPATCH_BODY_LIMIT = 12 * 1024 * 1024
SUPPRESSIONS_CSV_LIMIT = 10 * 1024 * 1024 + 1  # one byte over: the route answers with its own code

ERRORS = (
    *CHANNEL_ERRORS,
    ErrorCode(
        "recipient_suppressed",
        409,
        when="the dispatch's recipient (its address, its address's domain, its phone or its profile) is "
        "on the account's suppression list for the channel or for any",
        remedy="do not contact them; if the entry is wrong, delete it at "
        "`DELETE /api/v2/outreach/suppressions/{id}`",
    ),
    ErrorCode(
        "invalid_suppression",
        400,
        when="a suppression's `channel` or `value` is not one the list takes, or a CSV cannot be read",
        remedy="send an address or domain for email, an international phone for WhatsApp, a profile URL "
        "for LinkedIn (any of them for `any`); a CSV with `channel` and `value` columns",
    ),
    ErrorCode(
        "suppression_not_found",
        404,
        when="no suppression entry of this account has the id",
        remedy="check the id with `GET /api/v2/outreach/suppressions`",
    ),
    ErrorCode(
        "suppression_limit_exceeded",
        409,
        when="the entries would pass the account's 1,000,000",
        remedy="remove entries that no longer matter, or suppress whole domains",
    ),
    ErrorCode(
        "suppression_import_too_large",
        413,
        when="a suppression CSV is over 10 MB or 100,000 lines",
        remedy="split it into several imports",
    ),
    ErrorCode(
        "suppression_import_in_progress",
        409,
        when="another suppression CSV of this account is being imported",
        remedy="send the file again once that import has answered",
    ),
    ErrorCode(
        "invalid_action",
        400,
        when="dispatch `action` is not `outreach`",
        remedy='send `"action": "outreach"`',
    ),
    ErrorCode(
        "recipient_address_required",
        400,
        when="email dispatch without `recipient.address`",
        remedy="send the recipient's address",
    ),
    ErrorCode(
        "recipient_profile_url_required",
        400,
        when="LinkedIn dispatch without `recipient.profile_url`",
        remedy="send the recipient's profile URL",
    ),
    ErrorCode(
        "recipient_phone_required",
        400,
        when="WhatsApp dispatch without `recipient.phone`",
        remedy="send the number in international form, e.g. `+4915123456789`",
    ),
    ErrorCode(
        "content_subject_required",
        400,
        when="email dispatch without `content.subject`",
        remedy="send a one-line subject",
    ),
    ErrorCode(
        "content_text_or_html_required",
        400,
        when="email dispatch with neither `content.text` nor `content.html`",
        remedy="send `text`, `html` or both",
    ),
    ErrorCode(
        "content_text_or_attachment_required",
        400,
        when="LinkedIn or WhatsApp dispatch with neither text nor an attachment",
        remedy="send `content.text` or one attachment",
    ),
    ErrorCode(
        "attachment_invalid",
        400,
        when=(
            "an attachment object is malformed: no usable `filename`, `contentBase64` not "
            "base64, or a bad `contentType` (`param` says which)"
        ),
        remedy="send `{filename, contentBase64, contentType?}` with standard base64",
    ),
    ErrorCode(
        "attachments_invalid",
        400,
        when=(
            "`content.attachments` is not a list, or has more files than the channel takes "
            "(email 10, LinkedIn and WhatsApp 1)"
        ),
        remedy="send a list within the channel's count",
    ),
    ErrorCode(
        "min_channel_task_interval_seconds_invalid",
        400,
        when="the interval is not a whole number from 60 to 86400",
        remedy="send 60-86400 seconds, or leave it out for 60",
    ),
)


CAPABILITY = Capability(
    name="outreach",
    scopes=("outreach:read", "outreach:write"),
    routers=(
        "leadwire.outreach.routes",
        "leadwire.outreach.suppression_routes",
        "leadwire.outreach.queue_routes",
    ),
    mcp_tools="leadwire.outreach.queue_mcp",
    actions=(jobs.DISPATCH_ACTION,),
    operations=OPERATIONS,
    features=(Feature("outreach"),),
    body_limits={
        "/api/v1/outreach/dispatches": DISPATCH_BODY_LIMIT,
        "/api/v2/outreach/dispatches": DISPATCH_BODY_LIMIT,
        "/api/v2/outreach/suppressions/import": SUPPRESSIONS_CSV_LIMIT,
    },
    errors=ERRORS,
    request_classes=(SENDS,),
)
