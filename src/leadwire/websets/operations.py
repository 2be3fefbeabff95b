"""What the websets capability lets a caller do: its permissions, and its two creations (a list, and Find
More on one), each declared once for REST, MCP and (through OpenAPI) the SDK and the CLI."""

from __future__ import annotations

from leadwire.platform.callers import Permission
from leadwire.platform.jobs import Operation, job_operation
from leadwire.websets import service, views
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
OPERATIONS = (CREATE, FIND_MORE)
