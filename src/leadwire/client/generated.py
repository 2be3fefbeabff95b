"""The API's creation operations as the SDK sees them, generated from the server's OpenAPI document by
`python -m leadwire.sdk_codegen`: do not edit (`make sdk` rewrites it; tests/client/test_generated_current.py
fails when it is behind the server).

First each request body's fields (`operation.Field`), then each operation (`operation.Operation`), then
`Creations`: one typed method per SDK call, its signature and docstring from the same fields, each
sending `self._create(operation, locals())` (surface.py). The command line's options come from the
same tables (options.py).
"""

# ruff: noqa: E501 (the server's summaries are kept whole)

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

from leadwire.client.operation import Day, Field, Operation, select

R = TypeVar("R")

PUBLIC_WEB_REQUEST = (
    Field(
        "queries",
        list,
        required=True,
        min_length=1,
        max_length=2,
        items=Field("", str, min_length=1, max_length=500),
    ),
    Field("search_limit", int, default=10, minimum=1, maximum=10),
    Field("category", str, enum=("company", "news", "financial report", "people", "personal site")),
    Field("include_domains", list, max_length=5, items=Field("", str)),
    Field("user_location", str),
)

CONTACTS_REQUEST = (
    Field("domain", str, required=True),
    Field("positions", list, max_length=30, items=Field("", str, min_length=1, max_length=80)),
    Field("limit", int, default=20, minimum=1, maximum=50),
    Field("locale", str, default="en", enum=("en", "zh")),
)

RECIPIENT_IN = (
    Field("address", str, description="email: the address (required)"),
    Field("name", str, description="email: display name"),
    Field("profile_url", str, description="linkedin: https://www.linkedin.com/in/<slug>"),
    Field("phone", str, description="whatsapp: an E.164 number, e.g. +4915123456789"),
)

ATTACHMENT_IN = (
    Field("filename", str, required=True),
    Field("contentBase64", str, required=True),
    Field("contentType", str),
)

CONTENT_IN = (
    Field("subject", str, description="email: required"),
    Field("text", str),
    Field("html", str, description="email only"),
    Field("attachments", list, items=Field("", dict, fields=ATTACHMENT_IN)),
    Field("attachment", dict, description="one attachment, as an object", fields=ATTACHMENT_IN),
)

DISPATCH_REQUEST = (
    Field("account_id", str, required=True),
    Field("channel", str, required=True, enum=("email", "linkedin", "whatsapp")),
    Field("action", str, required=True, const="outreach"),
    Field("recipient", dict, required=True, fields=RECIPIENT_IN),
    Field("content", dict, required=True, fields=CONTENT_IN),
    Field("metadata", object),
    Field("min_channel_task_interval_seconds", int, default=60, minimum=60, maximum=86400),
)

POST_LIKE_REQUEST_V1 = (
    Field("profile_url", str, required=True, description="the target's LinkedIn profile URL"),
    Field(
        "content", str, required=True, description="the topic that decides relevance (not text to publish)"
    ),
    Field("account_id", str, description="required when several usable LinkedIn accounts exist"),
    Field("post_limit", int, default=20, minimum=1, maximum=50),
    Field("locale", str, default="en", enum=("en", "zh")),
    Field("min_channel_task_interval_seconds", int, default=60, minimum=60, maximum=86400),
)

POST_LIKE_REQUEST = POST_LIKE_REQUEST_V1

CANDIDATES_REQUEST = (
    Field("company_name", str, required=True, min_length=2, max_length=300),
    Field("company_role", str, enum=("importer", "exporter")),
    Field("catalog", str, enum=("imports", "exports")),
    Field("compare_catalogs", bool, description="true checks both catalogs, false only the given one"),
    Field("start_date", str, required=True, format="date"),
    Field("end_date", str, required=True, format="date"),
    Field("page", int, default=1, minimum=1, maximum=1000),
    Field("page_size", int, default=20, minimum=1, maximum=20),
    Field("country_codes", str, description="comma-separated ISO 3166-1 alpha-3 codes, e.g. DEU,FRA"),
)

COMPANY_SEARCH_REQUEST = (
    Field(
        "company_role",
        str,
        required=True,
        description="importer (buyers) or exporter (suppliers): the returned companies",
        enum=("importer", "exporter"),
    ),
    Field("catalog", str, description="default by role", enum=("imports", "exports")),
    Field("start_date", str, required=True, format="date"),
    Field("end_date", str, required=True, format="date"),
    Field("hs_code", str, pattern="^([0-9]{2}){1,5}$", examples=("8471",)),
    Field("product_description", str, min_length=1, max_length=300),
    Field("origin_country_code", str, pattern="^[A-Za-z]{3}$", examples=("DEU",)),
    Field("destination_country_code", str, pattern="^[A-Za-z]{3}$", examples=("DEU",)),
    Field("page", int, default=1, minimum=1, maximum=1000),
    Field("page_size", int, default=20, minimum=1, maximum=20),
    Field("sort_by", str, default="trade_count", enum=("trade_count", "amount_usd", "quantity", "weight")),
    Field("sort_order", str, default="desc", enum=("asc", "desc")),
)

SECTION_FILTERS = (
    Field("hs_code", str, pattern="^([0-9]{2}){1,5}$", examples=("8471",)),
    Field("product_description", str, min_length=1, max_length=300),
    Field("origin_country_code", str, pattern="^[A-Za-z]{3}$", examples=("DEU",)),
    Field("destination_country_code", str, pattern="^[A-Za-z]{3}$", examples=("DEU",)),
)

SECTION_REQUEST = (
    Field(
        "company_name",
        str,
        required=True,
        description="the exact name confirmed by company-candidates is advised",
        min_length=2,
        max_length=300,
    ),
    Field("company_role", str, required=True, enum=("importer", "exporter")),
    Field("catalog", str, description="default by role", enum=("imports", "exports")),
    Field("start_date", str, required=True, format="date"),
    Field("end_date", str, required=True, format="date"),
    Field("page", int, default=1, minimum=1, maximum=1000),
    Field(
        "page_size",
        int,
        default=20,
        description="out-of-range values are set to 1 or 20",
        minimum=1,
        maximum=20,
    ),
    Field("period_unit", str, default="months", enum=("months", "quarters", "years")),
    Field("filters", dict, fields=SECTION_FILTERS),
)

EXCLUSION = (
    Field("source", str, required=True, enum=("webset", "import")),
    Field("id", str, required=True, max_length=64),
)

SEED = (
    Field("type", str, required=True, enum=("import", "customs")),
    Field("id", str, description='`type: "import"`: the import', max_length=64),
    Field(
        "role",
        str,
        description='`type: "customs"`: the side of the records the companies are on',
        enum=("importer", "exporter"),
    ),
    Field(
        "hs_code",
        str,
        description='`type: "customs"`: an HS code prefix',
        pattern="^([0-9]{2}){1,5}$",
        examples=("8471",),
    ),
    Field(
        "country_codes",
        str,
        description='`type: "customs"`: the companies\' own countries, ISO 3166-1 alpha-3, comma-separated',
        examples=("DEU,AUT",),
    ),
    Field("start_date", str, description='`type: "customs"`: first day, YYYY-MM-DD', format="date"),
    Field(
        "end_date",
        str,
        description='`type: "customs"`: last day, YYYY-MM-DD, at most a year after the first',
        format="date",
    ),
    Field(
        "min_trade_count",
        int,
        description='`type: "customs"`: the fewest records a company needs in the range (1)',
        minimum=1,
        maximum=100000,
    ),
)

OPTION_IN = (Field("label", str, required=True, min_length=1, max_length=200),)

ENRICHMENT_REQUEST = (
    Field("description", str, required=True, max_length=1000, pattern="\\S"),
    Field("format", str, required=True, enum=("text", "number", "date", "options", "email", "phone", "url")),
    Field(
        "options",
        list,
        description="for `options` only: 2 to 20 distinct labels, one of which each cell holds",
        max_length=20,
        items=Field("", dict, fields=OPTION_IN),
    ),
    Field("metadata", dict),
)

CREATE_WEBSET_REQUEST = (
    Field("query", str, required=True, max_length=2000, pattern="\\S"),
    Field("title", str, max_length=200),
    Field("count", int, default=25, enum=(25, 100, 500, 1000)),
    Field("target_kind", str, default="company", enum=("company", "person")),
    Field("locale", str, default="en", enum=("en", "zh")),
    Field(
        "exclude",
        list,
        description='at most 10 sources, each `{source: "webset" or "import", id}`: that list\'s qualified items, or that import\'s rows, are left out of this list\'s runs',
        max_length=10,
        items=Field("", dict, fields=EXCLUSION),
    ),
    Field(
        "seed",
        dict,
        description='`{type: "import", id}`: the candidates are that import\'s rows, in order, each matched to a company; `{type: "customs", role, hs_code, country_codes, start_date, end_date, min_trade_count?}`: the companies the customs records show trading that product, most records first, each with its trade facts. Either way each is verified against the criteria, instead of a search\'s candidates',
        fields=SEED,
    ),
    Field(
        "enrichments",
        list,
        description="at most 10 columns asked of every qualified item, as `POST /api/v2/websets/{id}/enrichments` takes them",
        max_length=10,
        items=Field("", dict, fields=ENRICHMENT_REQUEST),
    ),
)

FIND_MORE_REQUEST = (
    Field("count", int, default=25, enum=(25, 100, 500, 1000)),
    Field(
        "exclude",
        list,
        description='at most 10 sources, each `{source: "webset" or "import", id}`: that list\'s qualified items, or that import\'s rows, are left out of this list\'s runs',
        max_length=10,
        items=Field("", dict, fields=EXCLUSION),
    ),
)

PUBLIC_WEB = Operation(
    "/api/v2/research/public-web",
    "Search public-web sources for one or two queries",
    PUBLIC_WEB_REQUEST,
    waits=True,
)

CONTACTS = Operation(
    "/api/v2/research/contacts",
    "Find the contacts of a company by its official domain",
    CONTACTS_REQUEST,
    waits=True,
)

DispatchVersion = Literal["v1", "v2"]

DISPATCH: dict[DispatchVersion, Operation] = {
    "v1": Operation(
        "/api/v1/outreach/dispatches",
        "Send one email, LinkedIn or WhatsApp action through a connected account (v1)",
        DISPATCH_REQUEST,
        waits=True,
    ),
    "v2": Operation(
        "/api/v2/outreach/dispatches",
        "Send one email, LinkedIn or WhatsApp action through a connected account",
        DISPATCH_REQUEST,
        waits=True,
    ),
}

LikePostVersion = Literal["v1", "v2"]

LIKE_POST: dict[LikePostVersion, Operation] = {
    "v1": Operation(
        "/api/v1/outreach/linkedin/post-likes",
        "Like the recent post of a LinkedIn profile most relevant to a topic (v1)",
        POST_LIKE_REQUEST_V1,
        waits=True,
    ),
    "v2": Operation(
        "/api/v2/outreach/linkedin/post-likes",
        "Like the recent post of a LinkedIn profile most relevant to a topic",
        POST_LIKE_REQUEST,
        waits=True,
    ),
}

CUSTOMS_CANDIDATES = Operation(
    "/api/v2/customs/company-candidates",
    "Company-name candidates in the customs records (not billed)",
    CANDIDATES_REQUEST,
    waits=True,
)

CUSTOMS_SEARCH = Operation(
    "/api/v2/customs/companies/search",
    "Importers or exporters by product and country (3.6 credits per returned row (default price of `companies`))",
    COMPANY_SEARCH_REQUEST,
    waits=True,
)

CustomsSection = Literal["counterparties", "categories", "trends", "countries"]

CUSTOMS_SECTION: dict[CustomsSection, Operation] = {
    "counterparties": Operation(
        "/api/v2/customs/counterparties",
        "A company's trading partners (3.6 credits per returned row (default price of `counterparties`))",
        SECTION_REQUEST,
        waits=True,
    ),
    "categories": Operation(
        "/api/v2/customs/categories",
        "A company's product categories by HS code (3.0 credits per returned row (default price of `categories`))",
        SECTION_REQUEST,
        waits=True,
    ),
    "trends": Operation(
        "/api/v2/customs/trends",
        "A company's trade per month, quarter or year (3.6 credits per period with records (default price of `trends`))",
        SECTION_REQUEST,
        waits=True,
    ),
    "countries": Operation(
        "/api/v2/customs/countries",
        "A company's trade by partner country (3.0 credits per returned row (default price of `countries`))",
        SECTION_REQUEST,
        waits=True,
    ),
}

CUSTOMS_REPORT = Operation(
    "/api/v2/customs/trade-reports",
    "All four sections at once; a failed section is marked, the others stand",
    SECTION_REQUEST,
    waits=True,
)

CREATE_WEBSET = Operation(
    "/api/v2/websets",
    "Create a prospect list (webset) from natural-language criteria",
    CREATE_WEBSET_REQUEST,
    waits=False,
)

START_FIND_MORE = Operation(
    "/api/v2/websets/{webset_id}/find-more",
    "Continue discovery on a prospect list (Find More)",
    FIND_MORE_REQUEST,
    path_params=("webset_id",),
    waits=True,
)

CREATE_ENRICHMENT = Operation(
    "/api/v2/websets/{webset_id}/enrichments",
    "Add an enrichment (a column) to a prospect list",
    ENRICHMENT_REQUEST,
    path_params=("webset_id",),
    waits=False,
)


class Creations(Generic[R]):
    """The creation calls; `R` is what a call yields (the value, or an awaitable of it)."""

    def _create(self, operation: Operation, given: dict[str, Any]) -> R:
        raise NotImplementedError

    def public_web(
        self,
        queries: list[str],
        *,
        search_limit: int | None = None,
        category: Literal["company", "news", "financial report", "people", "personal site"] | None = None,
        include_domains: list[str] | None = None,
        user_location: str | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """Search public-web sources for one or two queries (`POST /api/v2/research/public-web`); returns
        the job (the finished job when it ends within `wait`).

        Args:
            queries: 1-2 items; each 1-500 characters.
            search_limit: 1-10; default 10.
            category: company, news, financial report, people or personal site.
            include_domains: at most 5 items.
            wait: seconds the server may hold the answer (`Prefer: wait`), at most 60.
            idempotency_key: the creation's key; generated when not given, a retry reuses it.
        """
        return self._create(PUBLIC_WEB, locals())

    def contacts(
        self,
        domain: str,
        *,
        positions: list[str] | None = None,
        limit: int | None = None,
        locale: Literal["en", "zh"] | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """Find the contacts of a company by its official domain (`POST /api/v2/research/contacts`); returns
        the job (the finished job when it ends within `wait`).

        Args:
            positions: at most 30 items; each 1-80 characters.
            limit: 1-50; default 20.
            locale: en or zh; default en.
            wait: seconds the server may hold the answer (`Prefer: wait`), at most 60.
            idempotency_key: the creation's key; generated when not given, a retry reuses it.
        """
        return self._create(CONTACTS, locals())

    def dispatch(
        self,
        account_id: str,
        channel: Literal["email", "linkedin", "whatsapp"],
        recipient: dict[str, Any],
        content: dict[str, Any],
        *,
        metadata: Any = None,
        min_channel_task_interval_seconds: int | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
        version: DispatchVersion = "v2",
    ) -> R:
        """Send one email, LinkedIn or WhatsApp action through a connected account
        (`POST /api/{version}/outreach/dispatches`); returns the reduced item `{id, status, action,
        channel, scheduled_at}`, or the finished job when it ends within `wait`; build attachments with
        `attachment_from_file`.

        Args:
            version: one of v1, v2; default v2.
            channel: email, linkedin or whatsapp.
            recipient: {address?, name?, profile_url?, phone?}.
                address: email: the address (required).
                name: email: display name.
                profile_url: linkedin: https://www.linkedin.com/in/<slug>.
                phone: whatsapp: an E.164 number, e.g. +4915123456789.
            content: {subject?, text?, html?, attachments?, attachment?}.
                subject: email: required.
                html: email only.
                attachments: a list of {filename, contentBase64, contentType?}.
                attachment: one attachment, as an object; {filename, contentBase64, contentType?}.
            min_channel_task_interval_seconds: 60-86400; default 60.
            wait: seconds the server may hold the answer (`Prefer: wait`), at most 60.
            idempotency_key: the creation's key; generated when not given, a retry reuses it.
        """
        return self._create(select(DISPATCH, "version", version), locals())

    def like_post(
        self,
        profile_url: str,
        content: str,
        *,
        account_id: str | None = None,
        post_limit: int | None = None,
        locale: Literal["en", "zh"] | None = None,
        min_channel_task_interval_seconds: int | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
        version: LikePostVersion = "v2",
    ) -> R:
        """Like the recent post of a LinkedIn profile most relevant to a topic
        (`POST /api/{version}/outreach/linkedin/post-likes`); returns the reduced item `{id, status,
        action, channel, scheduled_at}`, or the finished job when it ends within `wait`.

        Args:
            version: one of v1, v2; default v2.
            profile_url: the target's LinkedIn profile URL.
            content: the topic that decides relevance (not text to publish).
            account_id: required when several usable LinkedIn accounts exist.
            post_limit: 1-50; default 20.
            locale: en or zh; default en.
            min_channel_task_interval_seconds: 60-86400; default 60.
            wait: seconds the server may hold the answer (`Prefer: wait`), at most 60.
            idempotency_key: the creation's key; generated when not given, a retry reuses it.
        """
        return self._create(select(LIKE_POST, "version", version), locals())

    def customs_candidates(
        self,
        company_name: str,
        start_date: Day,
        end_date: Day,
        *,
        company_role: Literal["importer", "exporter"] | None = None,
        catalog: Literal["imports", "exports"] | None = None,
        compare_catalogs: bool | None = None,
        page: int | None = None,
        page_size: int | None = None,
        country_codes: str | list[str] | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """Company-name candidates in the customs records (not billed)
        (`POST /api/v2/customs/company-candidates`); returns the job (the finished job when it ends
        within `wait`), whose result is `{query, date_range, routing_evidence, identity_notice, total,
        page, page_size, candidates}`; `country_codes` may be a list.

        Args:
            company_name: 2-300 characters.
            start_date: YYYY-MM-DD.
            end_date: YYYY-MM-DD.
            company_role: importer or exporter.
            catalog: imports or exports.
            compare_catalogs: true checks both catalogs, false only the given one.
            page: 1-1000; default 1.
            page_size: 1-20; default 20.
            country_codes: comma-separated ISO 3166-1 alpha-3 codes, e.g. DEU,FRA.
            wait: seconds the server may hold the answer (`Prefer: wait`), at most 60.
            idempotency_key: the creation's key; generated when not given, a retry reuses it.
        """
        return self._create(CUSTOMS_CANDIDATES, locals())

    def customs_search(
        self,
        company_role: Literal["importer", "exporter"],
        start_date: Day,
        end_date: Day,
        *,
        catalog: Literal["imports", "exports"] | None = None,
        hs_code: str | None = None,
        product_description: str | None = None,
        origin_country_code: str | None = None,
        destination_country_code: str | None = None,
        page: int | None = None,
        page_size: int | None = None,
        sort_by: Literal["trade_count", "amount_usd", "quantity", "weight"] | None = None,
        sort_order: Literal["asc", "desc"] | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """Importers or exporters by product and country (3.6 credits per returned row (default price of
        `companies`)) (`POST /api/v2/customs/companies/search`); returns the job (the finished job when
        it ends within `wait`), whose result's `data.items` are the companies (give at least one filter).

        Args:
            company_role: importer (buyers) or exporter (suppliers): the returned companies.
            start_date: YYYY-MM-DD.
            end_date: YYYY-MM-DD.
            catalog: default by role; imports or exports.
            hs_code: e.g. 8471.
            product_description: 1-300 characters.
            origin_country_code: e.g. DEU.
            destination_country_code: e.g. DEU.
            page: 1-1000; default 1.
            page_size: 1-20; default 20.
            sort_by: trade_count, amount_usd, quantity or weight; default trade_count.
            sort_order: asc or desc; default desc.
            wait: seconds the server may hold the answer (`Prefer: wait`), at most 60.
            idempotency_key: the creation's key; generated when not given, a retry reuses it.
        """
        return self._create(CUSTOMS_SEARCH, locals())

    def customs_section(
        self,
        section: CustomsSection,
        company_name: str,
        company_role: Literal["importer", "exporter"],
        start_date: Day,
        end_date: Day,
        *,
        catalog: Literal["imports", "exports"] | None = None,
        page: int | None = None,
        page_size: int | None = None,
        period_unit: Literal["months", "quarters", "years"] | None = None,
        filters: dict[str, Any] | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """One section of a company's trade (`POST /api/v2/customs/{section}`); returns the job (the
        finished job when it ends within `wait`), whose result's `data.items` are the section's rows.

        Args:
            section: one of counterparties (A company's trading partners (3.6 credits per returned row
                (default price of `counterparties`))), categories (A company's product categories by HS code
                (3.0 credits per returned row (default price of `categories`))), trends (A company's trade
                per month, quarter or year (3.6 credits per period with records (default price of
                `trends`))), countries (A company's trade by partner country (3.0 credits per returned row
                (default price of `countries`))).
            company_name: the exact name confirmed by company-candidates is advised; 2-300 characters.
            company_role: importer or exporter.
            start_date: YYYY-MM-DD.
            end_date: YYYY-MM-DD.
            catalog: default by role; imports or exports.
            page: 1-1000; default 1.
            page_size: out-of-range values are set to 1 or 20; 1-20; default 20.
            period_unit: months, quarters or years; default months.
            filters: {hs_code?, product_description?, origin_country_code?, destination_country_code?}.
                hs_code: e.g. 8471.
                product_description: 1-300 characters.
                origin_country_code: e.g. DEU.
                destination_country_code: e.g. DEU.
            wait: seconds the server may hold the answer (`Prefer: wait`), at most 60.
            idempotency_key: the creation's key; generated when not given, a retry reuses it.
        """
        return self._create(select(CUSTOMS_SECTION, "section", section), locals())

    def customs_report(
        self,
        company_name: str,
        company_role: Literal["importer", "exporter"],
        start_date: Day,
        end_date: Day,
        *,
        catalog: Literal["imports", "exports"] | None = None,
        page: int | None = None,
        page_size: int | None = None,
        period_unit: Literal["months", "quarters", "years"] | None = None,
        filters: dict[str, Any] | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """All four sections at once; a failed section is marked, the others stand
        (`POST /api/v2/customs/trade-reports`); returns the job (the finished job when it ends within
        `wait`), whose result's `sections` (counterparties, categories, trend, countries) are each
        `{status: complete, data}` or `{status: failed, error}`.

        Args:
            company_name: the exact name confirmed by company-candidates is advised; 2-300 characters.
            company_role: importer or exporter.
            start_date: YYYY-MM-DD.
            end_date: YYYY-MM-DD.
            catalog: default by role; imports or exports.
            page: 1-1000; default 1.
            page_size: out-of-range values are set to 1 or 20; 1-20; default 20.
            period_unit: months, quarters or years; default months.
            filters: {hs_code?, product_description?, origin_country_code?, destination_country_code?}.
                hs_code: e.g. 8471.
                product_description: 1-300 characters.
                origin_country_code: e.g. DEU.
                destination_country_code: e.g. DEU.
            wait: seconds the server may hold the answer (`Prefer: wait`), at most 60.
            idempotency_key: the creation's key; generated when not given, a retry reuses it.
        """
        return self._create(CUSTOMS_REPORT, locals())

    def create_webset(
        self,
        query: str,
        *,
        title: str | None = None,
        count: Literal[25, 100, 500, 1000] | None = None,
        target_kind: Literal["company", "person"] | None = None,
        locale: Literal["en", "zh"] | None = None,
        exclude: list[dict[str, Any]] | None = None,
        seed: dict[str, Any] | None = None,
        enrichments: list[dict[str, Any]] | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """Create a prospect list (webset) from natural-language criteria (`POST /api/v2/websets`); returns
        `{webset: {id, status, count, target_kind}, preparation_job: {id, status}}`.

        Args:
            query: at most 2000 characters.
            title: at most 200 characters.
            count: 25, 100, 500 or 1000; default 25.
            target_kind: company or person; default company.
            locale: en or zh; default en.
            exclude: at most 10 sources, each `{source: "webset" or "import", id}`: that list's qualified
                items, or that import's rows, are left out of this list's runs; at most 10 items; a list of
                {source, id}.
            seed: `{type: "import", id}`: the candidates are that import's rows, in order, each matched to a
                company; `{type: "customs", role, hs_code, country_codes, start_date, end_date,
                min_trade_count?}`: the companies the customs records show trading that product, most
                records first, each with its trade facts. Either way each is verified against the criteria,
                instead of a search's candidates; {type, id?, role?, hs_code?, country_codes?, start_date?,
                end_date?, min_trade_count?}.
                type: import or customs.
                id: `type: "import"`: the import; at most 64 characters.
                role: `type: "customs"`: the side of the records the companies are on; importer or exporter.
                hs_code: `type: "customs"`: an HS code prefix; e.g. 8471.
                country_codes: `type: "customs"`: the companies' own countries, ISO 3166-1 alpha-3,
                    comma-separated; e.g. DEU,AUT.
                start_date: `type: "customs"`: first day, YYYY-MM-DD; YYYY-MM-DD.
                end_date: `type: "customs"`: last day, YYYY-MM-DD, at most a year after the first;
                    YYYY-MM-DD.
                min_trade_count: `type: "customs"`: the fewest records a company needs in the range (1);
                    1-100000.
            enrichments: at most 10 columns asked of every qualified item, as `POST
                /api/v2/websets/{id}/enrichments` takes them; at most 10 items; a list of {description,
                format, options?, metadata?}.
            idempotency_key: the creation's key; generated when not given, a retry reuses it.
        """
        return self._create(CREATE_WEBSET, locals())

    def start_find_more(
        self,
        webset_id: str,
        *,
        count: Literal[25, 100, 500, 1000] | None = None,
        exclude: list[dict[str, Any]] | None = None,
        wait: int | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """Continue discovery on a prospect list (Find More) (`POST /api/v2/websets/{webset_id}/find-more`);
        returns the `websets.find_more` job, without following it (`find_more` also follows the run).

        Args:
            webset_id: the id in the path.
            count: 25, 100, 500 or 1000; default 25.
            exclude: at most 10 sources, each `{source: "webset" or "import", id}`: that list's qualified
                items, or that import's rows, are left out of this list's runs; at most 10 items; a list of
                {source, id}.
            wait: seconds the server may hold the answer (`Prefer: wait`), at most 60.
            idempotency_key: the creation's key; generated when not given, a retry reuses it.
        """
        return self._create(START_FIND_MORE, locals())

    def create_enrichment(
        self,
        webset_id: str,
        description: str,
        format: Literal["text", "number", "date", "options", "email", "phone", "url"],
        *,
        options: list[dict[str, Any]] | None = None,
        metadata: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> R:
        """Add an enrichment (a column) to a prospect list (`POST /api/v2/websets/{webset_id}/enrichments`);
        returns the enrichment `{id, status, description, format, options, progress, job_id, ...}`.

        Args:
            webset_id: the id in the path.
            description: at most 1000 characters.
            format: text, number, date, options, email, phone or url.
            options: for `options` only: 2 to 20 distinct labels, one of which each cell holds; at most 20
                items; a list of {label}.
            idempotency_key: the creation's key; generated when not given, a retry reuses it.
        """
        return self._create(CREATE_ENRICHMENT, locals())
