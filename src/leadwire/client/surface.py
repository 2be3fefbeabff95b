"""The SDK's operations, defined once for the sync and the async client.

Each operation builds a `Call` (method, path, body, headers, which part of the envelope to return);
`Leadwire` runs it blocking and returns the value, `AsyncLeadwire` returns an awaitable of it. A new
endpoint is one method here.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

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

    def dispatch(
        self,
        account_id: str,
        channel: str,
        recipient: dict[str, Any],
        content: dict[str, Any],
        *,
        metadata: Any = None,
        min_channel_task_interval_seconds: int | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
        version: str = "v2",
    ) -> R:
        """Send one outreach action through a connected account (spec: Outreach dispatch). `recipient` is
        `{address, name?}` (email), `{profile_url}` (linkedin) or `{phone}` (whatsapp); `content` is
        `{subject, text?, html?, attachments?}` or `{text?, attachment?}`; build attachments with
        `attachment_from_file`. Returns the reduced item `{id, status, action, channel, scheduled_at}`,
        or the finished job when it ends within `wait`."""
        body = {
            "account_id": account_id,
            "channel": channel,
            "action": "outreach",
            "recipient": recipient,
            "content": content,
            "metadata": metadata,
            "min_channel_task_interval_seconds": min_channel_task_interval_seconds,
        }
        path = f"/api/{_version(version)}/outreach/dispatches"
        return self._run(creation(path, body, idempotency_key=idempotency_key, wait=wait))

    def like_post(
        self,
        profile_url: str,
        content: str,
        *,
        account_id: str | None = None,
        post_limit: int | None = None,
        locale: str | None = None,
        min_channel_task_interval_seconds: int | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
        version: str = "v2",
    ) -> R:
        """Like the recent post of a LinkedIn profile most relevant to `content` (a topic, not text to
        publish); returns the job."""
        body = {
            "profile_url": profile_url,
            "content": content,
            "account_id": account_id,
            "post_limit": post_limit,
            "locale": locale,
            "min_channel_task_interval_seconds": min_channel_task_interval_seconds,
        }
        path = f"/api/{_version(version)}/outreach/linkedin/post-likes"
        return self._run(creation(path, body, idempotency_key=idempotency_key, wait=wait))

    def outreach_job(self, job_id: str) -> R:
        """v1's read of an outreach job (`/api/v1/outreach/jobs/{id}`); v2 reads it with `job`."""
        return self._run(Call("GET", f"/api/v1/outreach/jobs/{job_id}"))

    def job(self, job_id: str) -> R:
        return self._run(Call("GET", f"/api/v2/jobs/{job_id}"))

    def cancel(self, job_id: str) -> R:
        return self._run(Call("POST", f"/api/v2/jobs/{job_id}/cancel"))


def _version(version: str) -> str:
    if version not in ("v1", "v2"):
        raise ValueError("version must be 'v1' or 'v2'")
    return version
