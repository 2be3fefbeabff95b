"""HTTP: create public-web and contacts research jobs (v2)."""

from __future__ import annotations

from fastapi import APIRouter

from leadwire.platform.http import add_creation_route
from leadwire.research.operations import CONTACTS, PUBLIC_WEB

router = APIRouter(prefix="/api/v2/research", tags=["research"])
add_creation_route(router, "/public-web", PUBLIC_WEB)
add_creation_route(router, "/contacts", CONTACTS)
