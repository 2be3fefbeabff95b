"""Python SDK for the Leadwire HTTP API (sync `Leadwire`, async `AsyncLeadwire`); HTTP only, httpx only."""

from leadwire.client.asyncio import AsyncLeadwire
from leadwire.client.core import LeadwireError, attachment_from_file
from leadwire.client.state import WebsetState, WebsetUpdate
from leadwire.client.sync import Leadwire
from leadwire.client.websets import AsyncWebsetFollow, WebsetFollow

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
