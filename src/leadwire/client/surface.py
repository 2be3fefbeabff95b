"""The SDK's operations, defined once for the sync and the async client.

Each operation builds a `Call` (method, path, body, headers, which part of the envelope to return);
`Leadwire` runs it blocking and returns the value, `AsyncLeadwire` returns an awaitable of it. A new
endpoint is one method here.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from leadwire.client.core import Call, creation

R = TypeVar("R")


class Operations(Generic[R]):
    """`R` is what a call yields: the value (sync) or an awaitable of it (async)."""

    def _run(self, call: Call) -> R:
        raise NotImplementedError

    def credits(self) -> R:
        """The account's credits: `{balance, reserved, available, updated_at}`."""
        return self._run(Call("GET", "/api/v2/credits"))

    def accounts(self, *, can_send: bool | None = None) -> R:
        """Connected accounts; `can_send=True` keeps those that can send now."""
        params = None if can_send is None else {"can_send": str(can_send).lower()}
        return self._run(Call("GET", "/api/v2/connect/accounts", params=params, unwrap="items"))

    def public_web(
        self,
        queries: list[str],
        *,
        search_limit: int | None = None,
        category: str | None = None,
        include_domains: list[str] | None = None,
        user_location: str | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """Start a public-web research job (waits up to `wait` seconds); returns the job."""
        body = {
            "queries": queries,
            "search_limit": search_limit,
            "category": category,
            "include_domains": include_domains,
            "user_location": user_location,
        }
        return self._run(
            creation("/api/v2/research/public-web", body, idempotency_key=idempotency_key, wait=wait)
        )

    def contacts(
        self,
        domain: str,
        *,
        positions: list[str] | None = None,
        limit: int | None = None,
        locale: str | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """Start a company-contacts research job; returns the job."""
        body = {"domain": domain, "positions": positions, "limit": limit, "locale": locale}
        return self._run(
            creation("/api/v2/research/contacts", body, idempotency_key=idempotency_key, wait=wait)
        )

    def job(self, job_id: str) -> R:
        return self._run(Call("GET", f"/api/v2/jobs/{job_id}"))

    def cancel(self, job_id: str) -> R:
        return self._run(Call("POST", f"/api/v2/jobs/{job_id}/cancel"))
