"""The SDK's operations, defined once for the sync and the async client.

Each operation builds a `Call` (method, path, body, headers, which part of the envelope to return);
`Leadwire` runs it blocking and returns the value, `AsyncLeadwire` returns an awaitable of it. A new
endpoint is one method here.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Generic, TypeVar

from leadwire.client.core import PAGE, Call, creation

R = TypeVar("R")
Day = str | date  # a date, or one written YYYY-MM-DD
CUSTOMS_SECTIONS = ("counterparties", "categories", "trends", "countries")
WEBSETS = "/api/v2/websets"


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

    def customs_candidates(
        self,
        company_name: str,
        start_date: Day,
        end_date: Day,
        *,
        company_role: str | None = None,
        catalog: str | None = None,
        compare_catalogs: bool | None = None,
        country_codes: str | list[str] | None = None,
        page: int | None = None,
        page_size: int | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """Start a job finding the names in the customs records `company_name` may be (free); returns
        the job, whose result is `{query, date_range, routing_evidence, identity_notice, total, page,
        page_size, candidates}`. `country_codes`: alpha-3 codes, a list or `"DEU,FRA"`."""
        if isinstance(country_codes, list):
            country_codes = ",".join(country_codes)
        body = {
            "company_name": company_name,
            "company_role": company_role,
            "catalog": catalog,
            "compare_catalogs": compare_catalogs,
            "start_date": _day(start_date),
            "end_date": _day(end_date),
            "country_codes": country_codes,
            "page": page,
            "page_size": page_size,
        }
        path = "/api/v2/customs/company-candidates"
        return self._run(creation(path, body, idempotency_key=idempotency_key, wait=wait))

    def customs_search(
        self,
        company_role: str,
        start_date: Day,
        end_date: Day,
        *,
        catalog: str | None = None,
        hs_code: str | None = None,
        product_description: str | None = None,
        origin_country_code: str | None = None,
        destination_country_code: str | None = None,
        page: int | None = None,
        page_size: int | None = None,
        sort_by: str | None = None,
        sort_order: str | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """Start a search for importers or exporters by product and country (at least one filter; 3.6
        credits per returned row); returns the job, whose result's `data.items` are the companies."""
        body = {
            "company_role": company_role,
            "catalog": catalog,
            "start_date": _day(start_date),
            "end_date": _day(end_date),
            "hs_code": hs_code,
            "product_description": product_description,
            "origin_country_code": origin_country_code,
            "destination_country_code": destination_country_code,
            "page": page,
            "page_size": page_size,
            "sort_by": sort_by,
            "sort_order": sort_order,
        }
        path = "/api/v2/customs/companies/search"
        return self._run(creation(path, body, idempotency_key=idempotency_key, wait=wait))

    def customs_section(
        self,
        section: str,
        company_name: str,
        company_role: str,
        start_date: Day,
        end_date: Day,
        *,
        catalog: str | None = None,
        page: int | None = None,
        page_size: int | None = None,
        period_unit: str | None = None,
        filters: dict[str, str | None] | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """Start a job reading one section of a company's trade: `counterparties` or `trends` (3.6
        credits per returned row; a trend's empty periods are free), `categories` or `countries`
        (3.0); returns the job, whose result's `data.items` are the section's rows. `filters`:
        hs_code, product_description, origin_country_code, destination_country_code."""
        if section not in CUSTOMS_SECTIONS:
            raise ValueError("section must be one of " + ", ".join(CUSTOMS_SECTIONS))
        body = _section_body(
            company_name, company_role, start_date, end_date, catalog, page, page_size, period_unit, filters
        )
        path = f"/api/v2/customs/{section}"
        return self._run(creation(path, body, idempotency_key=idempotency_key, wait=wait))

    def customs_report(
        self,
        company_name: str,
        company_role: str,
        start_date: Day,
        end_date: Day,
        *,
        catalog: str | None = None,
        page: int | None = None,
        page_size: int | None = None,
        period_unit: str | None = None,
        filters: dict[str, str | None] | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """Start a trade report: the four sections at once, each billed at its own price per returned
        row; returns the job, whose result's `sections` (counterparties, categories, trend, countries)
        are each `{status: complete, data}` or `{status: failed, error}`."""
        body = _section_body(
            company_name, company_role, start_date, end_date, catalog, page, page_size, period_unit, filters
        )
        path = "/api/v2/customs/trade-reports"
        return self._run(creation(path, body, idempotency_key=idempotency_key, wait=wait))

    def create_webset(
        self,
        query: str,
        *,
        title: str | None = None,
        count: int | None = None,
        target_kind: str | None = None,
        locale: str | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """Start a prospect list from natural-language criteria; returns `{webset: {id, status, count,
        target_kind}, preparation_job: {id, status}}`. `count`: 25, 100, 500 or 1000 (plan-limited)."""
        body = {"query": query, "title": title, "count": count, "target_kind": target_kind, "locale": locale}
        return self._run(creation(WEBSETS, body, idempotency_key=idempotency_key, wait=None))

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

    def start_find_more(
        self, webset_id: str, *, count: int | None = None, idempotency_key: str | None = None
    ) -> R:
        """Continue discovery without following it; returns the `websets.find_more` job. Always sends an
        Idempotency-Key (generated when not given; a retry reuses it). `find_more` also follows the run."""
        return self._run(find_more_call(webset_id, count, idempotency_key))

    def outreach_job(self, job_id: str) -> R:
        """v1's read of an outreach job (`/api/v1/outreach/jobs/{id}`); v2 reads it with `job`."""
        return self._run(Call("GET", f"/api/v1/outreach/jobs/{job_id}"))

    def job(self, job_id: str) -> R:
        return self._run(Call("GET", f"/api/v2/jobs/{job_id}"))

    def cancel(self, job_id: str) -> R:
        return self._run(Call("POST", f"/api/v2/jobs/{job_id}/cancel"))


def query_params(**given: Any) -> dict[str, Any]:
    """The query parameters that were given (None ones are left out, not sent empty)."""
    return {name: value for name, value in given.items() if value is not None}


def find_more_call(webset_id: str, count: int | None, idempotency_key: str | None) -> Call:
    return creation(
        f"{WEBSETS}/{webset_id}/find-more", {"count": count}, idempotency_key=idempotency_key, wait=None
    )


def _version(version: str) -> str:
    if version not in ("v1", "v2"):
        raise ValueError("version must be 'v1' or 'v2'")
    return version


def _day(value: Day) -> str:
    if isinstance(value, datetime):
        return value.date().isoformat()
    return value.isoformat() if isinstance(value, date) else value


def _section_body(
    company_name: str,
    company_role: str,
    start_date: Day,
    end_date: Day,
    catalog: str | None,
    page: int | None,
    page_size: int | None,
    period_unit: str | None,
    filters: dict[str, str | None] | None,
) -> dict[str, Any]:
    given = {name: value for name, value in (filters or {}).items() if value is not None}
    return {
        "company_name": company_name,
        "company_role": company_role,
        "catalog": catalog,
        "start_date": _day(start_date),
        "end_date": _day(end_date),
        "page": page,
        "page_size": page_size,
        "period_unit": period_unit,
        "filters": given or None,
    }
