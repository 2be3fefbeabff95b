"""The values a connected account takes: its channels, the providers of each channel, its statuses.

A module of its own, importing nothing, so the CLI can name them in its help and checks without
loading the service (`platform.connect` pulls in the database layer: a second per CLI start).
"""

from __future__ import annotations

CHANNELS = ("email", "linkedin", "whatsapp")
PROVIDERS_BY_CHANNEL = {
    "email": ("sandbox", "smtp"),
    "linkedin": ("sandbox", "unipile"),
    "whatsapp": ("sandbox", "whatsapp_cloud"),
}
STATUSES = ("connected", "paused", "reconnect_required", "disconnected")
