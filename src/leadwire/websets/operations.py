"""What the websets capability lets a caller do: its permissions, and its two creations (a list, and Find
More on one), each declared once for REST, MCP and (through OpenAPI) the SDK and the CLI."""

from __future__ import annotations

from leadwire.platform.callers import Permission
from leadwire.platform.jobs import Operation, job_operation
from leadwire.websets import enrichments, service, views
from leadwire.websets.enrichment_schemas import EnrichmentOut, EnrichmentRequest
from leadwire.websets.schemas import CreateWebsetOut, CreateWebsetRequest, FindMoreRequest

READ = Permission("websets:read", "read")
WRITE = Permission("websets:write", "task")

CREATE = Operation(
    name="create_webset",
    body=CreateWebsetRequest,
    permission=WRITE,
    start=service.create,
    item=views.created,
    waits=False,  # the list's preparation is followed on the list, not by waiting on its job
    created=(CreateWebsetOut, "List created; discovery starts"),
    error_codes=(
        "webset_query_required",
        "webset_query_too_long",
        "webset_count_invalid",
        "webset_target_kind_unsupported",
        "locale_invalid",
        "invalid_exclusion",
        "exclusion_not_found",
        "webset_seed_invalid",
        "webset_seed_not_found",
        "webset_count_not_available_for_tier",
        "membership_tier_insufficient",
    ),
    summary="Create a prospect list (webset) from natural-language criteria",
    description=(
        "Creates the list (status `generating_criteria`) and a `websets.prepare` job that writes the "
        "criteria and the search strategy, then starts a `websets.discover` job that searches and "
        "verifies prospects until `count` (25, 100, 500 or 1000, plan-limited) qualified items are "
        "released. The 202 item is `{webset, preparation_job}`; the preparation job succeeding only "
        "means discovery started: follow the webset's status, its items or its SSE stream. Billing: 1 "
        "credit per released qualified item; `count` credits are reserved at creation and the unused "
        "part released when the run ends. `exclude` names lists whose qualified items this list leaves "
        "out (by domain, else name and country; people by profile): never verified, never charged. "
        '`seed: {type: "import", id}` takes the candidates from that import\'s rows, in order, instead '
        "of a search: each is matched to a company (its record and pages) or kept as the row gives it, "
        "and verified against the criteria. "
        '`seed: {type: "customs", role, hs_code, country_codes, start_date, end_date, min_trade_count?}` '
        "takes them from the companies the customs records show trading that product (most records "
        "first), each carrying its trade facts as evidence, as `entity.trade` and as four ready-made "
        "columns; such a run also pays a customs company row (3.6 credits) per candidate it reads, "
        "reserved up to its `verify_cap`. "
        "Needs `websets:write`."
    ),
    tool_description="Create a prospect list (webset) from a natural-language query.",
)
FIND_MORE = job_operation(
    name="find_more_webset",
    body=FindMoreRequest,
    permission=WRITE,
    start=service.find_more,
    resource="webset_id",
    idempotency_required=True,  # a retried click must not start a second run
    tool_wait_seconds=0,
    error_codes=(
        "webset_not_found",
        "webset_busy",
        "webset_count_invalid",
        "invalid_exclusion",
        "exclusion_not_found",
        "webset_count_not_available_for_tier",
        "membership_tier_insufficient",
    ),
    summary="Continue discovery on a prospect list (Find More)",
    description=(
        "Creates a `websets.find_more` job: a new discovery run that adds `count` (25, 100, 500 or "
        "1000) more qualified items to the list. `Idempotency-Key` is required (400 "
        "`idempotency_key_required`): a retried click gets the same job. A list still discovering is "
        "409 `webset_busy`. Billing: 1 credit per released qualified item, `count` reserved at "
        "creation. Follow it with the Find More stream (`job_id` = this job's id, and the checkpoint "
        "of the snapshot read before the call). `exclude` adds sources to those the list already leaves "
        "out; they hold for every later run. Needs `websets:write`."
    ),
    tool_description=(
        "Continue discovery on a finished prospect list; returns the Find More job. It never pads: with "
        "no candidate left that would qualify it stops `exhausted` with fewer items, charged for those "
        "delivered."
    ),
)

CREATE_ENRICHMENT = Operation(
    name="create_enrichment",
    body=EnrichmentRequest,
    permission=WRITE,
    start=enrichments.create_view,
    item=lambda created: created,
    resource="webset_id",
    waits=False,  # an enrichment is followed on itself and on the list's items, not by its job
    created=(EnrichmentOut, "Enrichment created; its cells are being filled"),
    error_codes=(
        "webset_not_found",
        "invalid_enrichment",
        "enrichment_limit_exceeded",
        "membership_tier_insufficient",
    ),
    summary="Add an enrichment (a column) to a prospect list",
    description=(
        "Asks every qualified item of the list — those it has and those its runs add later — for a value "
        "in `format`: `text`, `number`, `date` (ISO), `options` (one of 2-20 `options` labels), `url`, "
        "`email` or `phone`. Text, number, date, options and url cells are read from the item's record "
        "and pages by the reasoner; email cells come from the contacts source (its verification status "
        "in the reasoning: an unverified address says so, and none is guessed); phone cells are numbers "
        "written on the item's pages. A cell that cannot be found is `result: null` with its reasoning. "
        "Each item shows its cells in `enrichments` (detail `standard` and `full`), the list's stream "
        "carries `webset.item.enriched`, and the export has a column per enrichment. A `websets.enrich` "
        "job fills the cells (its id is `job_id`); it reserves a cell's price for each item it may fill "
        "and is charged per non-empty cell (text, number, date, options, url 0.2 credit; phone 0.5; "
        "email 1; an empty cell 0), rounded up per job. At most 10 enrichments per list. Needs "
        "`websets:write`."
    ),
    tool_description=(
        "Add an enrichment (a column such as an email, a phone, a number or one of given options) to a "
        "prospect list; it fills for every qualified item, now and later."
    ),
)
OPERATIONS = (CREATE, FIND_MORE, CREATE_ENRICHMENT)
