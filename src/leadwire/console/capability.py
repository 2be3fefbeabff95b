"""The console capability: Leadwire's own pages in a browser, on the services the API uses."""

from __future__ import annotations

from leadwire.platform.capability import Capability

CAPABILITY = Capability(
    name="console",
    routers=(
        "leadwire.console.routes",
        "leadwire.console.websets_routes",
        "leadwire.console.job_routes",
        "leadwire.console.account_routes",
    ),
)
