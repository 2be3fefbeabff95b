"""Imports every table module so the metadata (and Alembic) sees the whole schema."""

from leadwire.engagement import models as engagement_models
from leadwire.platform import connect, delivery, idempotency_models, pacing, users
from leadwire.platform.billing import models as billing_models
from leadwire.platform.db import Base
from leadwire.platform.events import models as events_models
from leadwire.platform.jobs import models as jobs_models
from leadwire.websets import models as websets_models

__all__ = [
    "Base",
    "billing_models",
    "connect",
    "delivery",
    "engagement_models",
    "events_models",
    "idempotency_models",
    "jobs_models",
    "pacing",
    "users",
    "websets_models",
]
