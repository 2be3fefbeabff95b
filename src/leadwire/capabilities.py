"""The one list of capability slices. The app, the worker, the MCP server and the OpenAPI document
iterate over it; adding a capability is a package with its declaration plus one line here."""

from __future__ import annotations

import importlib

from leadwire.accounts.capability import CAPABILITY as ACCOUNTS
from leadwire.console.capability import CAPABILITY as CONSOLE
from leadwire.credits.capability import CAPABILITY as CREDITS
from leadwire.customs.capability import CAPABILITY as CUSTOMS
from leadwire.engagement.capability import CAPABILITY as ENGAGEMENT
from leadwire.jobs.capability import CAPABILITY as JOBS
from leadwire.keys.capability import CAPABILITY as KEYS
from leadwire.outreach.capability import CAPABILITY as OUTREACH
from leadwire.platform.capability import Capability, install, plugin_capability
from leadwire.platform.runtime import Runtime
from leadwire.providers.registry import build_providers
from leadwire.research.capability import CAPABILITY as RESEARCH
from leadwire.webhooks.capability import CAPABILITY as WEBHOOKS
from leadwire.websets.capability import CAPABILITY as WEBSETS

CAPABILITIES: tuple[Capability, ...] = (
    ACCOUNTS,
    CREDITS,
    JOBS,
    OUTREACH,
    ENGAGEMENT,
    RESEARCH,
    CUSTOMS,
    WEBSETS,
    WEBHOOKS,
    KEYS,
    CONSOLE,
)


def enabled(plugins: tuple[str, ...] = ()) -> tuple[Capability, ...]:
    """The built-in capabilities plus the operator's extensions (`LEADWIRE_PLUGINS`), installed."""
    found = (*CAPABILITIES, *(plugin_capability(importlib.import_module(name)) for name in plugins))
    install(found)
    return found


def install_adapters(runtime: Runtime) -> None:
    """The provider adapters job handlers reach through `ctx.adapter(name)`, each built at first use."""
    build_providers(runtime.settings, runtime.adapters)
