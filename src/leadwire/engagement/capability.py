"""The engagement capability: liking a relevant recent LinkedIn post of a prospect (v1, v2, MCP).
Its request bodies are limited to 32 KB (docs/api.md, Limits)."""

from __future__ import annotations

from leadwire.channels.errors import CHANNEL_ERRORS
from leadwire.channels.limits import SENDS
from leadwire.engagement import jobs
from leadwire.engagement.operations import OPERATIONS
from leadwire.platform.capability import Capability, Feature
from leadwire.platform.errors import ErrorCode

POST_LIKE_BODY_LIMIT = 32 * 1024

ERRORS = (
    *CHANNEL_ERRORS,
    ErrorCode(
        "profile_url_required",
        400,
        when="post like without `profile_url`",
        remedy="send the target's LinkedIn profile URL",
    ),
    ErrorCode(
        "content_required",
        400,
        when="post like without `content`",
        remedy="send the topic that decides which post is relevant",
    ),
    ErrorCode(
        "invalid_profile_url",
        400,
        when=("`profile_url` or a LinkedIn `recipient.profile_url` is not a LinkedIn profile URL"),
        remedy="send `https://www.linkedin.com/in/<slug>`",
    ),
    ErrorCode(
        "post_limit_invalid",
        400,
        when="`post_limit` is not an integer from 1 to 50",
        remedy="send 1-50, or leave it out for 20",
    ),
    ErrorCode(
        "linkedin_account_not_found",
        400,
        when="post like: the account has no usable LinkedIn account",
        remedy=("connect a LinkedIn account (`leadwire admin account add`), or reconnect the one you have"),
    ),
    ErrorCode(
        "account_id_required_multiple_linkedin_accounts",
        400,
        when="v1 post like: several usable LinkedIn accounts and no `account_id`",
        remedy="send `account_id` of the account that should like",
    ),
    ErrorCode(
        "action_failed",
        502,
        when=("v1 post like: the like failed while you waited for it (`detail` names the job and its code)"),
        remedy="read the job for its error code and act on it",
    ),
)


CAPABILITY = Capability(
    name="engagement",
    scopes=("engagement:read", "engagement:write"),
    routers=("leadwire.engagement.routes",),
    actions=(jobs.POST_LIKE_ACTION,),
    features=(Feature("engagement"),),
    body_limits={
        "/api/v1/outreach/linkedin/post-likes": POST_LIKE_BODY_LIMIT,
        "/api/v2/outreach/linkedin/post-likes": POST_LIKE_BODY_LIMIT,
    },
    operations=OPERATIONS,
    errors=ERRORS,
    request_classes=(SENDS,),
)
