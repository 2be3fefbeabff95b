"""Builds the provider adapters a process uses from its settings (sandbox by default)."""

from __future__ import annotations

from typing import Any

from leadwire.config import Settings


def build_providers(settings: Settings) -> dict[str, Any]:
    return {"search": _search(settings), "contacts": _contacts(settings)}


def _search(settings: Settings) -> Any:
    if settings.search_provider == "exa":
        from leadwire.providers.exa import ExaSearchProvider

        if not settings.exa_api_key:
            raise ValueError("LEADWIRE_EXA_API_KEY is required with LEADWIRE_SEARCH_PROVIDER=exa")
        return ExaSearchProvider(settings.exa_api_key, settings.exa_base_url)
    if settings.search_provider != "sandbox":
        raise ValueError(f"unknown LEADWIRE_SEARCH_PROVIDER {settings.search_provider!r}")
    from leadwire.providers.sandbox_search import SandboxSearchProvider

    return SandboxSearchProvider(settings.resolved_world_dir)


def _contacts(settings: Settings) -> Any:
    if settings.contacts_provider == "hunter":
        from leadwire.providers.hunter import HunterContactsProvider

        if not settings.hunter_api_key:
            raise ValueError("LEADWIRE_HUNTER_API_KEY is required with LEADWIRE_CONTACTS_PROVIDER=hunter")
        return HunterContactsProvider(settings.hunter_api_key, settings.hunter_base_url)
    if settings.contacts_provider != "sandbox":
        raise ValueError(f"unknown LEADWIRE_CONTACTS_PROVIDER {settings.contacts_provider!r}")
    from leadwire.providers.sandbox_contacts import SandboxContactsProvider

    return SandboxContactsProvider(settings.resolved_world_dir)
