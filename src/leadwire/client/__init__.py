"""Python SDK for the Leadwire HTTP API (sync `Leadwire`, async `AsyncLeadwire`); HTTP only, httpx only."""

from leadwire.client.asyncio import AsyncLeadwire
from leadwire.client.core import LeadwireError, attachment_from_file
from leadwire.client.sync import Leadwire

__all__ = ["AsyncLeadwire", "Leadwire", "LeadwireError", "attachment_from_file"]
