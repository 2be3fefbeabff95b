"""Imports every table module so the metadata (and Alembic) sees the whole schema."""

from leadwire.accounts import models as accounts_models
from leadwire.platform import delivery, idempotency_models, pacing, users
from leadwire.platform.billing import models as billing_models
from leadwire.platform.db import Base
from leadwire.platform.events import models as events_models
from leadwire.platform.jobs import models as jobs_models

__all__ = [
    "Base",
    "accounts_models",
    "billing_models",
    "delivery",
    "events_models",
    "idempotency_models",
    "jobs_models",
    "pacing",
    "users",
]
