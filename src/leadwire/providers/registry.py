"""Builds the provider adapters a process uses from its settings (sandbox by default)."""

from __future__ import annotations

from typing import Any

from leadwire.config import Settings
from leadwire.platform.adapters import Adapters, Factory


def build_providers(settings: Settings, adapters: Adapters | None = None) -> Adapters:
    """The adapters the settings choose, checked now and each built at its first use, into `adapters`
    (a new one by default): the prospect source reads the search adapter from there, so both use one."""
    adapters = Adapters() if adapters is None else adapters
    adapters.defer("search", _search(settings))
    adapters.defer("contacts", _contacts(settings))
    adapters.defer("trade", _trade(settings))
    adapters.defer("prospects", _prospects(settings, lambda: adapters["search"]))
    adapters.defer("reasoner", _reasoner(settings))
    return adapters


def _prospects(settings: Settings, search: Factory) -> Factory:
    """The sandbox world's companies, or companies read out of the configured public-web search."""

    def sandbox() -> Any:
        from leadwire.providers.sandbox_prospects import SandboxProspectSource

        return SandboxProspectSource(settings.resolved_world_dir)

    def from_search() -> Any:
        from leadwire.providers.prospects import SearchProspectSource

        return SearchProspectSource(search())

    return sandbox if settings.search_provider == "sandbox" else from_search


def _reasoner(settings: Settings) -> Factory:
    def rules() -> Any:
        from leadwire.providers.rules_reasoner import RulesReasoner

        return RulesReasoner()

    def openai() -> Any:
        from leadwire.providers.openai_reasoner import OpenAIReasoner
        from leadwire.providers.reasoner import FallbackReasoner

        model = OpenAIReasoner(
            settings.llm_base_url,
            settings.llm_api_key,
            settings.llm_model,
            timeout_seconds=settings.llm_timeout_seconds,
        )
        return FallbackReasoner(model, rules())

    return _choose("LEADWIRE_REASONER", settings.reasoner, {"rules": rules, "openai": openai})


def _choose(variable: str, choice: str, adapters: dict[str, Factory]) -> Factory:
    if choice not in adapters:
        raise ValueError(f"unknown {variable} {choice!r}")
    return adapters[choice]


def _required(value: str | None, variable: str, because: str) -> str:
    if not value:
        raise ValueError(f"{variable} is required with {because}")
    return value


def _search(settings: Settings) -> Factory:
    if settings.search_provider == "exa":
        key = _required(settings.exa_api_key, "LEADWIRE_EXA_API_KEY", "LEADWIRE_SEARCH_PROVIDER=exa")

    def exa() -> Any:
        from leadwire.providers.exa import ExaSearchProvider

        return ExaSearchProvider(key, settings.exa_base_url)

    def sandbox() -> Any:
        from leadwire.providers.sandbox_search import SandboxSearchProvider

        return SandboxSearchProvider(settings.resolved_world_dir)

    return _choose("LEADWIRE_SEARCH_PROVIDER", settings.search_provider, {"exa": exa, "sandbox": sandbox})


def _contacts(settings: Settings) -> Factory:
    if settings.contacts_provider == "hunter":
        key = _required(
            settings.hunter_api_key, "LEADWIRE_HUNTER_API_KEY", "LEADWIRE_CONTACTS_PROVIDER=hunter"
        )

    def hunter() -> Any:
        from leadwire.providers.hunter import HunterContactsProvider

        return HunterContactsProvider(key, settings.hunter_base_url)

    def sandbox() -> Any:
        from leadwire.providers.sandbox_contacts import SandboxContactsProvider

        return SandboxContactsProvider(settings.resolved_world_dir)

    return _choose(
        "LEADWIRE_CONTACTS_PROVIDER", settings.contacts_provider, {"hunter": hunter, "sandbox": sandbox}
    )


def _trade(settings: Settings) -> Factory:
    if settings.trade_store == "postgres":
        dsn = _required(
            settings.resolved_trade_database_url,
            "LEADWIRE_TRADE_DATABASE_URL (or a PostgreSQL LEADWIRE_DATABASE_URL)",
            "LEADWIRE_TRADE_STORE=postgres",
        )

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
