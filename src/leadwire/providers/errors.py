"""The base of what the contacts, search and channel adapters raise: a failure of the outside service,
carrying one of the public error codes its port lists (``CONTACTS_ERROR_CODES``, ``SEARCH_ERROR_CODES``,
``CHANNEL_ERROR_CODES``), which the services map onto the API, and an optional detail."""

from __future__ import annotations


class ProviderError(Exception):
    """A failure of an outside service: ``code`` is public, ``detail`` (optional) says more."""

    def __init__(self, code: str, detail: str | None = None) -> None:
        super().__init__(code if detail is None else f"{code}: {detail}")
        self.code = code
        self.detail = detail
