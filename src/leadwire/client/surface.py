"""The SDK's operations, defined once for the sync and the async client.

Each operation builds a `Call` (method, path, body, headers, which part of the envelope to return);
`Leadwire` runs it blocking and returns the value, `AsyncLeadwire` returns an awaitable of it. The
creations (research, outreach, customs, websets) are `Creations`, generated from the server's OpenAPI
document into generated.py (`make sdk`): their signatures, docstrings and bodies come from the request
models, and each sends `_create` below. The reads are written here.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from leadwire.client.core import PAGE, Call
from leadwire.client.generated import START_FIND_MORE, Creations
from leadwire.client.operation import Operation, creation_call

R = TypeVar("R")
WEBSETS = "/api/v2/websets"
WEBHOOKS = "/api/v2/webhooks"
KEYS = "/api/v2/keys"


IMPORTS = "/api/v2/imports"


class Imports(Generic[R]):
    """Lists of companies a user brings, for prospect lists to leave out (`exclude`)."""

    def _run(self, call: Call) -> R:
        raise NotImplementedError

    def create_import(
        self,
        *,
        rows: list[dict[str, Any]] | None = None,
        csv: str | bytes | None = None,
        title: str | None = None,
        columns: dict[str, str] | None = None,
    ) -> R:
        """Bring a list of companies, as `rows` (objects with `name`, `domain` or `website`, `country`)
        or as `csv` (its text or bytes, with a header line); `columns` maps `name`, `domain`, `country`
        to your column names. The import: its counts and the first 100 rejected lines."""
        if (rows is None) == (csv is None):
            raise ValueError("give rows or csv")
        if csv is None:
            return self._run(
                Call("POST", IMPORTS, json=query_params(title=title, rows=rows, columns=columns))
            )
        params = query_params(title=title, **{f"{field}_column": c for field, c in (columns or {}).items()})
        content = csv.encode() if isinstance(csv, str) else csv
        return self._run(
            Call("POST", IMPORTS, params=params, content=content, headers={"Content-Type": "text/csv"})
        )

    def list_imports(self, *, limit: int | None = None, cursor: str | None = None) -> R:
        """One page of imports, newest first: `{items, next_cursor, has_more, request_id}`."""
        return self._run(Call("GET", IMPORTS, params=query_params(limit=limit, cursor=cursor), unwrap=PAGE))

    def get_import(self, import_id: str) -> R:
        return self._run(Call("GET", f"{IMPORTS}/{import_id}"))

    def delete_import(self, import_id: str) -> R:
        """`{id, deleted: true}`; lists that exclude it leave out nothing of it from then on."""
        return self._run(Call("DELETE", f"{IMPORTS}/{import_id}"))


SUPPRESSIONS = "/api/v2/outreach/suppressions"
ACCOUNTS = "/api/v2/connect/accounts"


class Suppressions(Generic[R]):
    """The account's suppression list: recipients no dispatch may reach."""

    def _run(self, call: Call) -> R:
        raise NotImplementedError

    def suppress(self, channel: str, value: str, *, reason: str | None = None) -> R:
        """Suppress `value` on `channel` (`email`: an address or a domain; `whatsapp`: a phone;
        `linkedin`: a profile URL; `any`): the entry, new or already listed."""
        return self._run(
            Call("POST", SUPPRESSIONS, json=query_params(channel=channel, value=value, reason=reason))
        )

    def import_suppressions(self, csv: str | bytes) -> R:
        """Suppress the lines of a CSV (`channel,value[,reason]` with a header line): what was added, and
        the first 100 lines refused with their line and code."""
        content = csv.encode() if isinstance(csv, str) else csv
        return self._run(
            Call("POST", f"{SUPPRESSIONS}/import", content=content, headers={"Content-Type": "text/csv"})
        )

    def list_suppressions(
        self,
        *,
        channel: str | None = None,
        value: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> R:
        """One page of entries, newest first: `{items, next_cursor, has_more, request_id}`; `value`
        finds one recipient's entries however it is written."""
        params = query_params(channel=channel, value=value, limit=limit, cursor=cursor)
        return self._run(Call("GET", SUPPRESSIONS, params=params, unwrap=PAGE))

    def get_suppression(self, suppression_id: str) -> R:
        return self._run(Call("GET", f"{SUPPRESSIONS}/{suppression_id}"))

    def delete_suppression(self, suppression_id: str) -> R:
        """`{id, deleted: true}`: the recipient may be reached again."""
        return self._run(Call("DELETE", f"{SUPPRESSIONS}/{suppression_id}"))


class Sending(Generic[R]):
    """What keeps a sender's accounts safe: each account's sending policy, and the queue it shapes."""

    def _run(self, call: Call) -> R:
        raise NotImplementedError

    def sending_policy(self, account_id: str) -> R:
        """The account's daily cap, ramp and window (`default: true` until set) and today's allowance."""
        return self._run(Call("GET", f"{ACCOUNTS}/{account_id}/sending-policy"))

    def set_sending_policy(
        self,
        account_id: str,
        *,
        daily_cap: int,
        ramp: dict[str, int] | None = None,
        window: dict[str, Any] | None = None,
        timezone: str | None = None,
        person_touch_interval_hours: int | None = None,
    ) -> R:
        """Replace the account's policy: `ramp` `{start, step_per_day, max}`, `window` `{days, start, end,
        timezone}` (HH:MM; `timezone` an IANA name or `recipient`); None leaves a part unset."""
        body = query_params(
            daily_cap=daily_cap,
            ramp=ramp,
            window=window,
            timezone=timezone,
            person_touch_interval_hours=person_touch_interval_hours,
        )
        return self._run(Call("PUT", f"{ACCOUNTS}/{account_id}/sending-policy", json=body))

    def resume_account(self, account_id: str) -> R:
        """End an auto-pause now; the account as it stands."""
        return self._run(Call("POST", f"{ACCOUNTS}/{account_id}/resume"))

    def outreach_queue(
        self, *, account_id: str | None = None, limit: int | None = None, cursor: str | None = None
    ) -> R:
        """One page of the sends waiting to go out, in slot order, each with its `hold` when held."""
        params = query_params(account_id=account_id, limit=limit, cursor=cursor)
        return self._run(Call("GET", "/api/v2/outreach/queue", params=params, unwrap=PAGE))


class Enrichments(Generic[R]):
    """A prospect list's columns (adding one is `create_enrichment`): read, cancel, delete."""

    def _run(self, call: Call) -> R:
        raise NotImplementedError

    def list_enrichments(self, webset_id: str) -> R:
        """The list's enrichments, oldest first: `{items, next_cursor, has_more, request_id}`."""
        return self._run(Call("GET", f"{WEBSETS}/{webset_id}/enrichments", unwrap=PAGE))

    def get_enrichment(self, webset_id: str, enrichment_id: str) -> R:
        return self._run(Call("GET", f"{WEBSETS}/{webset_id}/enrichments/{enrichment_id}"))

    def cancel_enrichment(self, webset_id: str, enrichment_id: str) -> R:
        """Stop filling it; the cells found stay. The enrichment."""
        return self._run(Call("POST", f"{WEBSETS}/{webset_id}/enrichments/{enrichment_id}/cancel"))

    def delete_enrichment(self, webset_id: str, enrichment_id: str) -> R:
        """`{id, deleted: true}`: gone from the list's items and exports."""
        return self._run(Call("DELETE", f"{WEBSETS}/{webset_id}/enrichments/{enrichment_id}"))


MONITORS = "/api/v2/monitors"


class Monitors(Generic[R]):
    """Prospect lists kept fresh on a schedule: each slot of a cron cadence runs a Find More."""

    def _run(self, call: Call) -> R:
        raise NotImplementedError

    def create_monitor(
        self,
        webset_id: str,
        cron: str,
        *,
        timezone: str = "UTC",
        behavior: str | None = None,
        count: int | None = None,
        metadata: dict[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """A monitor of `webset_id`: at each slot of `cron` (five fields, read in `timezone`, at most
        hourly) a Find More of `count` (25) new items (`behavior="search"`, the default), or a
        re-verification of its items and a re-run of its enrichments (`behavior="refresh"`). The
        monitor, with its `next_run_at`."""
        cadence = {"cron": cron, "timezone": timezone}
        body = query_params(
            webset_id=webset_id, cadence=cadence, behavior=behavior, count=count, metadata=metadata
        )
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        return self._run(Call("POST", MONITORS, json=body, headers=headers))

    def list_monitors(
        self, *, webset_id: str | None = None, limit: int | None = None, cursor: str | None = None
    ) -> R:
        params = query_params(webset_id=webset_id, limit=limit, cursor=cursor)
        return self._run(Call("GET", MONITORS, params=params, unwrap=PAGE))

    def get_monitor(self, monitor_id: str) -> R:
        return self._run(Call("GET", f"{MONITORS}/{monitor_id}"))

    def update_monitor(
        self,
        monitor_id: str,
        *,
        cron: str | None = None,
        timezone: str | None = None,
        status: str | None = None,
        count: int | None = None,
        metadata: dict[str, str] | None = None,
    ) -> R:
        """Change what is given; `status` is `active` or `paused`. A new cron needs its `timezone` or
        takes UTC."""
        cadence = {"cron": cron, "timezone": timezone or "UTC"} if cron is not None else None
        body = query_params(cadence=cadence, status=status, count=count, metadata=metadata)
        return self._run(Call("PATCH", f"{MONITORS}/{monitor_id}", json=body))

    def delete_monitor(self, monitor_id: str) -> R:
        return self._run(Call("DELETE", f"{MONITORS}/{monitor_id}"))

    def monitor_runs(self, monitor_id: str, *, limit: int | None = None, cursor: str | None = None) -> R:
        """One page of the monitor's runs, newest first: each slot's job, or why it was skipped."""
        params = query_params(limit=limit, cursor=cursor)
        return self._run(Call("GET", f"{MONITORS}/{monitor_id}/runs", params=params, unwrap=PAGE))


class Operations(Creations[R], Imports[R], Suppressions[R], Sending[R], Enrichments[R], Monitors[R]):
    """`R` is what a call yields: the value (sync) or an awaitable of it (async)."""

    def _run(self, call: Call) -> R:
        raise NotImplementedError

    def _create(self, operation: Operation, given: dict[str, Any]) -> R:
        return self._run(creation_call(operation, given))

    def list_jobs(
        self, *, status: str | None = None, limit: int | None = None, cursor: str | None = None
    ) -> R:
        """One page of the account's jobs, newest first: `{items, next_cursor, has_more, request_id}`."""
        params = query_params(status=status, limit=limit, cursor=cursor)
        return self._run(Call("GET", "/api/v2/jobs", params=params, unwrap=PAGE))

    def credits(self) -> R:
        """The account's credits: `{balance, reserved, available, updated_at}`."""
        return self._run(Call("GET", "/api/v2/credits"))

    def list_credit_entries(
        self,
        *,
        kind: str | None = None,
        job_id: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> R:
        """One page of the account's credit ledger, newest first: `{items, next_cursor, has_more,
        request_id}`, each entry `{id, kind, amount, job_id, created_at}`. `kind` (grant, reserve,
        release, charge) keeps one kind, `job_id` one job's entries; `amount` is always positive."""
        params = query_params(kind=kind, job_id=job_id, limit=limit, cursor=cursor)
        return self._run(Call("GET", "/api/v2/credits/ledger", params=params, unwrap=PAGE))

    def accounts(self, *, can_send: bool | None = None) -> R:
        """Connected accounts; `can_send=True` keeps those that can send now."""
        params = None if can_send is None else {"can_send": str(can_send).lower()}
        return self._run(Call("GET", ACCOUNTS, params=params, unwrap="items"))

    def list_websets(
        self, *, limit: int | None = None, target_kind: str | None = None, cursor: str | None = None
    ) -> R:
        """One page of websets: `{items, next_cursor, has_more, request_id}`."""
        params = query_params(limit=limit, target_kind=target_kind, cursor=cursor)
        return self._run(Call("GET", WEBSETS, params=params, unwrap=PAGE))

    def get_webset(self, webset_id: str) -> R:
        """The webset with its progress, criteria and failure."""
        return self._run(Call("GET", f"{WEBSETS}/{webset_id}"))

    def webset_strategy(self, webset_id: str) -> R:
        """The strategy snapshot `{readiness, criteria_ready, strategy_ready, criteria, strategy, ...}`
        (no model call, no credits)."""
        return self._run(Call("GET", f"{WEBSETS}/{webset_id}/strategy"))

    def webset_items(
        self,
        webset_id: str,
        *,
        match: str | None = None,
        detail: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> R:
        """One page of a webset's items: `{items, detail, next_cursor, has_more, webset_status,
        items_revision, stream_cursor, request_id}`. `match`: qualified (default), full, partial,
        rejected, verified; `detail`: compact (default, limit <= 50), standard (<= 25), full (<= 10)."""
        params = query_params(match=match, detail=detail, limit=limit, cursor=cursor)
        return self._run(Call("GET", f"{WEBSETS}/{webset_id}/items", params=params, unwrap=PAGE))

    def outreach_job(self, job_id: str) -> R:
        """v1's read of an outreach job (`/api/v1/outreach/jobs/{id}`); v2 reads it with `job`."""
        return self._run(Call("GET", f"/api/v1/outreach/jobs/{job_id}"))

    def job(self, job_id: str) -> R:
        return self._run(Call("GET", f"/api/v2/jobs/{job_id}"))

    def cancel(self, job_id: str) -> R:
        return self._run(Call("POST", f"/api/v2/jobs/{job_id}/cancel"))

    def create_webhook(
        self,
        url: str,
        events: list[str],
        *,
        description: str | None = None,
        metadata: dict[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """Register `url` for `events` (types, or `["*"]`); the webhook with its `secret`, shown only
        in this answer (check deliveries with `leadwire.webhooks.verify`)."""
        body = query_params(url=url, events=events, description=description, metadata=metadata)
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        return self._run(Call("POST", WEBHOOKS, json=body, headers=headers))

    def list_webhooks(self, *, limit: int | None = None, cursor: str | None = None) -> R:
        """One page of webhooks: `{items, next_cursor, has_more, request_id}`."""
        params = query_params(limit=limit, cursor=cursor)
        return self._run(Call("GET", WEBHOOKS, params=params, unwrap=PAGE))

    def get_webhook(self, webhook_id: str) -> R:
        return self._run(Call("GET", f"{WEBHOOKS}/{webhook_id}"))

    def update_webhook(
        self,
        webhook_id: str,
        *,
        url: str | None = None,
        events: list[str] | None = None,
        status: str | None = None,
        description: str | None = None,
        metadata: dict[str, str] | None = None,
    ) -> R:
        """Change the fields given; `status` is `active` or `disabled`."""
        body = query_params(url=url, events=events, status=status, description=description, metadata=metadata)
        return self._run(Call("PATCH", f"{WEBHOOKS}/{webhook_id}", json=body))

    def delete_webhook(self, webhook_id: str) -> R:
        """`{id, deleted: true}`; the webhook's delivery log goes with it."""
        return self._run(Call("DELETE", f"{WEBHOOKS}/{webhook_id}"))

    def rotate_webhook_secret(self, webhook_id: str) -> R:
        """The webhook with a new `secret`; the old one signs beside it for 24 hours."""
        return self._run(Call("POST", f"{WEBHOOKS}/{webhook_id}/rotate-secret"))

    def webhook_deliveries(
        self,
        webhook_id: str,
        *,
        status: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> R:
        """One page of a webhook's deliveries, newest first; `status`: pending, succeeded or failed."""
        params = query_params(status=status, limit=limit, cursor=cursor)
        return self._run(Call("GET", f"{WEBHOOKS}/{webhook_id}/deliveries", params=params, unwrap=PAGE))

    def retry_webhook_delivery(self, webhook_id: str, delivery_id: str) -> R:
        """Send a delivery again now, with the same `webhook-id`."""
        return self._run(Call("POST", f"{WEBHOOKS}/{webhook_id}/deliveries/{delivery_id}/retry"))

    def list_api_keys(self, *, limit: int | None = None, cursor: str | None = None) -> R:
        """One page of the account's API keys, newest first: `{items, next_cursor, has_more, request_id}`,
        each `{id, name, prefix, mode, scopes, status, current, created_at, expires_at, revoked_at}`;
        never a key itself."""
        params = query_params(limit=limit, cursor=cursor)
        return self._run(Call("GET", KEYS, params=params, unwrap=PAGE))

    def create_api_key(
        self, scopes: list[str], *, name: str | None = None, idempotency_key: str | None = None
    ) -> R:
        """A new key of the account with `scopes` (each held by this client's key); its `key` is in this
        answer only (a replay of `idempotency_key` answers without it)."""
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        return self._run(Call("POST", KEYS, json=query_params(scopes=scopes, name=name), headers=headers))

    def revoke_api_key(self, key_id: str) -> R:
        """Revoke one of the account's keys (this client's own too: it is refused from then on) and the keys
        it created; the key, `status: revoked`, with `revoked_with`: how many keys went with it."""
        return self._run(Call("POST", f"{KEYS}/{key_id}/revoke"))


def query_params(**given: Any) -> dict[str, Any]:
    """The query parameters that were given (None ones are left out, not sent empty)."""
    return {name: value for name, value in given.items() if value is not None}


def find_more_call(
    webset_id: str,
    count: int | None,
    idempotency_key: str | None,
    exclude: list[dict[str, Any]] | None = None,
) -> Call:
    """Find More's creation POST (flows.find_more sends it before following the run)."""
    given = {"webset_id": webset_id, "count": count, "idempotency_key": idempotency_key, "exclude": exclude}
    return creation_call(START_FIND_MORE, given)
