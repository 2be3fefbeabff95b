"""Imports every table module so the metadata (and Alembic) sees the whole schema."""

from leadwire.channels import connected, delivery, pacing, queue, sending_policy, touches
from leadwire.console import models as console_models
from leadwire.engagement import models as engagement_models
from leadwire.outreach import models as outreach_models
from leadwire.platform import idempotency_models, users
from leadwire.platform.billing import models as billing_models
from leadwire.platform.db import Base
from leadwire.platform.events import models as events_models
from leadwire.platform.jobs import models as jobs_models
from leadwire.webhooks import models as webhooks_models
from leadwire.websets import models as websets_models

__all__ = [
    "Base",
    "billing_models",
    "connected",
    "console_models",
    "delivery",
    "engagement_models",
    "events_models",
    "idempotency_models",
    "jobs_models",
    "outreach_models",
    "pacing",
    "queue",
    "sending_policy",
    "touches",
    "users",
    "webhooks_models",
    "websets_models",
]
