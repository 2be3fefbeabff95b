"""Builds the provider adapters a process uses from its settings (sandbox by default)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from leadwire.config import Settings


def build_providers(settings: Settings) -> dict[str, Any]:
    search = _search(settings)
    return {
        "search": search,
        "contacts": _contacts(settings),
        "trade": _trade(settings),
        "prospects": _prospects(settings, search),
        "reasoner": _reasoner(settings),
    }


def _prospects(settings: Settings, search: Any) -> Any:
    """The sandbox world's companies, or companies read out of the configured public-web search."""
    if settings.search_provider == "sandbox":
        from leadwire.providers.sandbox_prospects import SandboxProspectSource

        return SandboxProspectSource(settings.resolved_world_dir)
    from leadwire.providers.prospects import SearchProspectSource

    return SearchProspectSource(search)


def _reasoner(settings: Settings) -> Any:
    from leadwire.providers.rules_reasoner import RulesReasoner

    def openai() -> Any:
        from leadwire.providers.openai_reasoner import OpenAIReasoner
        from leadwire.providers.reasoner import FallbackReasoner

        model = OpenAIReasoner(
            settings.llm_base_url,
            settings.llm_api_key,
            settings.llm_model,
            timeout_seconds=settings.llm_timeout_seconds,
        )
        return FallbackReasoner(model, RulesReasoner())

    return _choose("LEADWIRE_REASONER", settings.reasoner, {"rules": RulesReasoner, "openai": openai})


def _choose(variable: str, choice: str, adapters: dict[str, Callable[[], Any]]) -> Any:
    if choice not in adapters:
        raise ValueError(f"unknown {variable} {choice!r}")
    return adapters[choice]()


def _required(value: str | None, variable: str, because: str) -> str:
    if not value:
        raise ValueError(f"{variable} is required with {because}")
    return value


def _search(settings: Settings) -> Any:
    def exa() -> Any:
        from leadwire.providers.exa import ExaSearchProvider

        key = _required(settings.exa_api_key, "LEADWIRE_EXA_API_KEY", "LEADWIRE_SEARCH_PROVIDER=exa")
        return ExaSearchProvider(key, settings.exa_base_url)

    def sandbox() -> Any:
        from leadwire.providers.sandbox_search import SandboxSearchProvider

        return SandboxSearchProvider(settings.resolved_world_dir)

    return _choose("LEADWIRE_SEARCH_PROVIDER", settings.search_provider, {"exa": exa, "sandbox": sandbox})


def _contacts(settings: Settings) -> Any:
    def hunter() -> Any:
        from leadwire.providers.hunter import HunterContactsProvider

        key = _required(
            settings.hunter_api_key, "LEADWIRE_HUNTER_API_KEY", "LEADWIRE_CONTACTS_PROVIDER=hunter"
        )
        return HunterContactsProvider(key, settings.hunter_base_url)

    def sandbox() -> Any:
        from leadwire.providers.sandbox_contacts import SandboxContactsProvider

        return SandboxContactsProvider(settings.resolved_world_dir)

    return _choose(
        "LEADWIRE_CONTACTS_PROVIDER", settings.contacts_provider, {"hunter": hunter, "sandbox": sandbox}
    )


def _trade(settings: Settings) -> Any:
    def duckdb() -> Any:
        from leadwire.providers.trade_duckdb import DuckDBTradeStore
        from leadwire.providers.trade_schema import DUCKDB_FILE

        return DuckDBTradeStore(
            settings.resolved_world_dir / DUCKDB_FILE,
            memory_limit=settings.trade_memory_limit,
            threads=settings.trade_threads,
        )

    def postgres() -> Any:
        from leadwire.providers.trade_postgres import PostgresTradeStore

        dsn = _required(
            settings.resolved_trade_database_url,
            "LEADWIRE_TRADE_DATABASE_URL (or a PostgreSQL LEADWIRE_DATABASE_URL)",
            "LEADWIRE_TRADE_STORE=postgres",
        )
        return PostgresTradeStore(
            dsn,
            timeout_seconds=settings.db_statement_timeout_seconds * 6,
            max_connections=settings.trade_pool_size,
        )

    return _choose("LEADWIRE_TRADE_STORE", settings.trade_store, {"duckdb": duckdb, "postgres": postgres})


def channel_for(
    settings: Settings,
    *,
    channel: str,
    provider: str,
    identifier: str,
    account_settings: dict[str, Any],
    secret: dict[str, Any] | None,
) -> Any:
    """The outreach channel adapter of one connected account (its clear settings + decrypted secret)."""
    secret = secret or {}
    if provider == "sandbox":
        from leadwire.providers import sandbox_channels as sandbox

        outbox = sandbox.Outbox(settings.data_dir)
        if channel == "linkedin":
            return sandbox.SandboxLinkedIn(settings.resolved_world_dir, outbox, identifier)
        return (
            sandbox.SandboxEmailChannel(outbox, identifier)
            if channel == "email"
            else (sandbox.SandboxWhatsAppChannel(outbox, identifier))
        )
    if (channel, provider) == ("email", "smtp"):
        from leadwire.providers.smtp import SmtpEmailChannel

        return SmtpEmailChannel(
            host=account_settings["smtp_host"],
            port=int(account_settings.get("smtp_port") or 587),
            from_address=account_settings["from_address"],
            username=account_settings.get("smtp_username"),
            password=secret.get("smtp_password"),
            tls=account_settings.get("smtp_tls") or "starttls",
        )
    if (channel, provider) == ("linkedin", "unipile"):
        from leadwire.providers.unipile import UnipileLinkedIn

        return UnipileLinkedIn(
            account_settings["unipile_dsn"], secret["api_key"], account_settings["unipile_account_id"]
        )
    if (channel, provider) == ("whatsapp", "whatsapp_cloud"):
        from leadwire.providers.whatsapp_cloud import WhatsAppCloud

        return WhatsAppCloud(account_settings["phone_number_id"], secret["access_token"])
    raise ValueError(f"no {channel} adapter for provider {provider!r}")
