"""The websets capability: prospect lists built from a natural-language query (docs/api.md, Prospect
lists (websets))."""

from __future__ import annotations

from leadwire.platform.capability import Capability, Feature
from leadwire.platform.errors import ErrorCode
from leadwire.websets import jobs, monitor_keys, monitor_scheduler
from leadwire.websets.operations import OPERATIONS
from leadwire.websets.schemas import MAX_IMPORT_BYTES

ERRORS = (
    ErrorCode(
        "webset_query_required",
        400,
        when="prospect list without a `query`, or a blank one",
        remedy="send the criteria in words",
    ),
    ErrorCode(
        "webset_query_too_long",
        400,
        when="`query` over 2,000 characters",
        remedy="shorten it",
    ),
    ErrorCode(
        "webset_count_invalid",
        400,
        when="`count` (create or Find More) is not 25, 100, 500 or 1000",
        remedy="send one of those values",
    ),
    ErrorCode(
        "webset_target_kind_unsupported",
        400,
        when="`target_kind` (body or list filter) is not `company` or `person`",
        remedy="send `company` or `person`",
    ),
    ErrorCode(
        "webset_count_not_available_for_tier",
        403,
        when="the plan does not allow this `count` (`free`: 25; `pro`: up to 500)",
        remedy="ask for a smaller count or upgrade",
    ),
    ErrorCode(
        "webset_not_found",
        404,
        when="no such prospect list for this account",
        remedy="check the id from `POST /api/v2/websets` or `GET /api/v2/websets`",
    ),
    ErrorCode(
        "invalid_exclusion",
        400,
        when=(
            '`exclude` (create or Find More) is not a list of `{source: "webset" or "import", id}`, or a '
            "list would exclude more than 10 sources"
        ),
        remedy='name at most 10 of your lists or imports, each as `{"source": "webset", "id": "ws_…"}`',
    ),
    ErrorCode(
        "exclusion_not_found",
        404,
        when="an `exclude` entry names a list or an import this account does not have (`param` says which)",
        remedy="check the id with `GET /api/v2/websets` or `GET /api/v2/imports`",
    ),
    ErrorCode(
        "webset_seed_invalid",
        400,
        when=(
            '`seed` is neither `{type: "import", id}` nor a valid `{type: "customs", role, hs_code, '
            "country_codes, start_date, end_date, min_trade_count?}`"
        ),
        remedy="fix the term the detail names, or leave `seed` out to search",
    ),
    ErrorCode(
        "webset_seed_not_found",
        404,
        when="`seed` names an import this account does not have",
        remedy="check the id with `GET /api/v2/imports`",
    ),
    ErrorCode(
        "invalid_import",
        400,
        when=(
            "imports: no column holds a name or a domain, a mapped column is missing, `rows` is not a "
            "list of 1 to 100,000 objects, or a CSV body is not UTF-8 text with a header line"
        ),
        remedy="send a `name` or `domain` column (or map yours with `columns`), in UTF-8",
    ),
    ErrorCode(
        "import_too_large",
        413,
        when="imports: more than 100,000 rows",
        remedy="split the list into several imports (a prospect list may exclude up to 10 sources)",
    ),
    ErrorCode(
        "import_limit_exceeded",
        409,
        when="imports: the account already holds 200 imports",
        remedy="delete imports you no longer use",
    ),
    ErrorCode(
        "import_not_found",
        404,
        when="imports: no import of this account has that id",
        remedy="list the account's imports for their ids",
    ),
    ErrorCode(
        "invalid_enrichment",
        400,
        when=(
            "enrichments: a blank `description` (or over 1,000 characters), a `format` other than text, "
            "number, date, options, email, phone or url, `options` missing, repeated or fewer than 2 for "
            "format options (or given for another format), or metadata over 20 keys"
        ),
        remedy='send a description and a format; for options, `[{"label": "yes"}, {"label": "no"}]`',
    ),
    ErrorCode(
        "enrichment_not_found",
        404,
        when="enrichments: the list has no enrichment with that id (or it was deleted)",
        remedy="list the list's enrichments with `GET /api/v2/websets/{id}/enrichments`",
    ),
    ErrorCode(
        "enrichment_limit_exceeded",
        409,
        when="enrichments: the list already holds 10 enrichments",
        remedy="delete an enrichment the list no longer needs",
    ),
    ErrorCode(
        "invalid_monitor",
        400,
        when=(
            "monitors: no `webset_id` or `cadence`, a `behavior` other than search or refresh, a `count` "
            "not 25, 100, 500 or 1000, a `status` not active or paused, or metadata over 20 keys"
        ),
        remedy='send `{"webset_id": "ws_…", "cadence": {"cron": "0 9 * * 1", "timezone": "UTC"}}`',
    ),
    ErrorCode(
        "invalid_monitor_cadence",
        400,
        when=(
            "monitors: `cadence.cron` is not five valid cron fields, never fires (31 February) or fires "
            "more often than hourly, or `cadence.timezone` is not an IANA zone"
        ),
        remedy='send a cron of at most one run an hour ("0 * * * *") and a zone such as Europe/Berlin',
    ),
    ErrorCode(
        "monitor_not_found",
        404,
        when="monitors: no monitor of this account has that id",
        remedy="list the account's monitors for their ids",
    ),
    ErrorCode(
        "monitor_limit_exceeded",
        409,
        when="monitors: the list already has 5 monitors, or the account 50",
        remedy="delete a monitor you no longer use, or change its cadence instead",
    ),
    ErrorCode(
        "webset_busy",
        409,
        when=("Find More while the list is still discovering, or on a list that never got a strategy"),
        remedy=("wait for the list to finish (its status, or `complete` on the stream), then call Find More"),
    ),
)


CAPABILITY = Capability(
    name="websets",
    scopes=("websets:read", "websets:write"),
    routers=(
        "leadwire.websets.routes",
        "leadwire.websets.import_routes",
        "leadwire.websets.enrichment_routes",
        "leadwire.websets.monitor_routes",
    ),
    body_limits={"/api/v2/imports": MAX_IMPORT_BYTES},
    actions=(
        jobs.PREPARE_ACTION,
        jobs.DISCOVER_ACTION,
        jobs.FIND_MORE_ACTION,
        jobs.ENRICH_ACTION,
        jobs.REFRESH_ACTION,
    ),
    features=(Feature("websets"),),
    background=(monitor_scheduler.MONITORS_TASK,),
    event_sinks=(monitor_keys.on_keys_revoked,),
    mcp_tools="leadwire.websets.mcp",
    operations=OPERATIONS,
    errors=ERRORS,
)
