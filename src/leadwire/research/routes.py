"""HTTP: create public-web and contacts research jobs (v2)."""

from __future__ import annotations

from fastapi import APIRouter

from leadwire.platform.auth import require
from leadwire.platform.job_routes import add_job_route
from leadwire.research import service
from leadwire.research.schemas import ContactsRequest, PublicWebRequest

router = APIRouter(prefix="/api/v2/research", tags=["research"])

add_job_route(
    router,
    "/public-web",
    name="create_public_web",
    body=PublicWebRequest,
    permission=require("research:write", "task"),
    start=service.start,
)
add_job_route(
    router,
    "/contacts",
    name="create_contacts",
    body=ContactsRequest,
    permission=require("research:write", "task", capability="contacts"),
    start=service.start,
    error_codes=("invalid_domain", "locale_invalid", "membership_tier_insufficient"),
)
