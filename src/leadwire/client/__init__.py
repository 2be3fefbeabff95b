"""Python SDK for the Leadwire HTTP API (sync `Leadwire`, async `AsyncLeadwire`); HTTP only, httpx only.

The names below load on first use, so a module of the package that needs no HTTP (the webhook
signatures, `leadwire.client.webhooks`, which the server signs with) imports without the client.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from leadwire.client.asyncio import AsyncLeadwire
    from leadwire.client.core import LeadwireError, attachment_from_file
    from leadwire.client.state import WebsetState, WebsetUpdate
    from leadwire.client.sync import Leadwire
    from leadwire.client.websets import AsyncWebsetFollow, WebsetFollow

_HOMES = {
    "AsyncLeadwire": "leadwire.client.asyncio",
    "AsyncWebsetFollow": "leadwire.client.websets",
    "Leadwire": "leadwire.client.sync",
    "LeadwireError": "leadwire.client.core",
    "WebsetFollow": "leadwire.client.websets",
    "WebsetState": "leadwire.client.state",
    "WebsetUpdate": "leadwire.client.state",
    "attachment_from_file": "leadwire.client.core",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'leadwire.client' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)


__all__ = [
    "AsyncLeadwire",
    "AsyncWebsetFollow",
    "Leadwire",
    "LeadwireError",
    "WebsetFollow",
    "WebsetState",
    "WebsetUpdate",
    "attachment_from_file",
]
