"""The webhooks capability: endpoints an account registers, the outbox other slices' events fill, and
the delivery task a worker runs."""

from __future__ import annotations

from leadwire.platform.capability import Capability, Feature
from leadwire.platform.errors import ErrorCode
from leadwire.platform.jobs import BackgroundTask
from leadwire.webhooks import delivery, outbox
from leadwire.webhooks.service import DELIVERY_TASK

ERRORS = (
    ErrorCode(
        "invalid_webhook_url",
        400,
        when=(
            "webhooks: `url` is missing or not an absolute `https://` URL without user name, password "
            "or fragment (plain `http://` only for private receivers the operator allows)"
        ),
        remedy="send the receiver's full https URL",
    ),
    ErrorCode(
        "webhook_url_not_allowed",
        400,
        when=(
            "webhooks: `url` resolves to a private, loopback, link-local, multicast or cloud metadata "
            "address, which this server does not call"
        ),
        remedy=(
            "use the receiver's public address; an operator delivering inside their own network sets "
            "`LEADWIRE_WEBHOOK_ALLOW_PRIVATE_NETWORKS=true`"
        ),
    ),
    ErrorCode(
        "invalid_webhook_events",
        400,
        when="webhooks: `events` is empty or names a type that does not exist",
        remedy='list types from the Webhooks section\'s table, or `["*"]` for all',
    ),
    ErrorCode(
        "webhook_limit_exceeded",
        409,
        when="webhooks: the account already holds `LEADWIRE_WEBHOOK_LIMIT_PER_ACCOUNT` (20) webhooks",
        remedy="delete a webhook you no longer use, or subscribe one to more event types",
    ),
    ErrorCode(
        "webhook_not_found",
        404,
        when="webhooks: no webhook of this account has that id",
        remedy="list the account's webhooks for their ids",
    ),
    ErrorCode(
        "webhook_delivery_not_found",
        404,
        when="webhooks: the webhook has no delivery with that id",
        remedy="list the webhook's deliveries for their ids",
    ),
)

CAPABILITY = Capability(
    name="webhooks",
    scopes=("webhooks:read", "webhooks:write"),
    routers=("leadwire.webhooks.routes",),
    features=(Feature("webhooks"),),
    mcp_tools="leadwire.webhooks.mcp",
    errors=ERRORS,
    event_sinks=(outbox.record,),
    background=(BackgroundTask(DELIVERY_TASK, delivery.run),),
)
