"""HTTP: imports (v2) — bring a list of companies as CSV or JSON rows, read, list and delete it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from leadwire.platform.callers import Caller
from leadwire.platform.errors import ApiError
from leadwire.platform.http import (
    Deleted,
    Idempotency,
    ItemEnvelope,
    JSONResponse,
    PageEnvelope,
    Session,
    documented,
    errors,
    idempotent,
    json_response,
    ok_item,
    ok_page,
    openapi_body,
    read_json_object,
    require,
    respond,
)
from leadwire.platform.offload import in_child
from leadwire.platform.pagination import int_query
from leadwire.platform.runtime import Runtime, get_runtime
from leadwire.platform.validation import validate
from leadwire.websets import imports, service
from leadwire.websets.operations import READ, WRITE
from leadwire.websets.schemas import ImportOptions, ImportOut, ImportRequest

router = APIRouter(prefix="/api/v2/imports", tags=["imports"])
Reader = Annotated[Caller, Depends(require(READ))]
Writer = Annotated[Caller, Depends(require(WRITE))]
CSV_MEDIA = "text/csv"
MAX_JSON_IMPORT_BYTES = 10 * 1024 * 1024

# The JSON body documented from its model, and the CSV body beside it.
_REQUEST_BODY = openapi_body(ImportRequest)
_REQUEST_BODY["requestBody"]["content"][CSV_MEDIA] = {
    "schema": {"type": "string", "description": "CSV with a header line"}
}


@router.post(
    "",
    status_code=201,
    summary="Import a list of companies (CSV or JSON rows)",
    description=(
        "A JSON body `{title?, rows: [{name, domain|website, country}], columns?}`, or a CSV body "
        "(`Content-Type: text/csv`, up to 50 MB; `title` and the `name_column`, `domain_column`, "
        "`country_column` mapping in the query). Columns are found by name unless mapped. Each row needs "
        "a name or a domain; a bad row is rejected with its `line`, `field` and `code` and the others "
        "are kept (`errors` lists the first 100, `rejected` counts all). Use it in a list's `exclude` "
        'as `{source: "import", id}`. Free; needs `websets:write`.'
    ),
    openapi_extra=_REQUEST_BODY,
    responses={
        **documented(ItemEnvelope[ImportOut], 201, "The import, checked"),
        **errors(
            "invalid_request",
            "idempotency_conflict",
            "idempotency_key_in_progress",
            "invalid_import",
            "import_too_large",
            "import_limit_exceeded",
            "request_payload_too_large",
            "task_unavailable",
        ),
    },
)
async def create_import(
    request: Request,
    session: Session,
    caller: Writer,
    runtime: Runtime = Depends(get_runtime),
    idem: Idempotency = Depends(idempotent()),
    title: str | None = Query(default=None, description="CSV: the import's title (at most 200 characters)"),
    name_column: str | None = Query(default=None, description="CSV: the column of company names"),
    domain_column: str | None = Query(default=None, description="CSV: the column of domains or websites"),
    country_column: str | None = Query(default=None, description="CSV: the column of country codes"),
) -> JSONResponse:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    # The body is checked in a child process and written in batches of their own transactions: the
    # request's session stores only the answer.
    if media == CSV_MEDIA:
        given: dict[str, Any] = {"name": name_column, "domain": domain_column, "country": country_column}
        options = validate(ImportOptions, {"title": title, "columns": given})
        try:
            text = (await request.body()).decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError("invalid_import", detail="the CSV is not UTF-8 text") from None
        checked = await in_child(imports.from_csv, text, options.columns, imports.MAX_IMPORT_ROWS)
        import_title, fmt = options.title, "csv"
    else:
        if len(await request.body()) > MAX_JSON_IMPORT_BYTES:  # parsed JSON takes many times its size
            raise ApiError("request_payload_too_large", detail="a JSON import is at most 10 MiB; send CSV")
        body, checked = await in_child(
            imports.from_json, await read_json_object(request), imports.MAX_IMPORT_ROWS
        )
        import_title, fmt = body.title, "json"
    created = await imports.create(
        runtime.sessionmaker, caller, title=import_title, source_format=fmt, rows=checked
    )
    return await respond(session, idem, ok_item(created), status=201)


@router.get(
    "",
    summary="List the account's imports",
    description=(
        "Newest first, `limit` (1-100, default 20) per page; pass `next_cursor` unchanged as `cursor` for "
        "the next page while `has_more`. Needs `websets:read`."
    ),
    responses={**documented(PageEnvelope[ImportOut]), **errors("invalid_request")},
)
async def list_imports(
    session: Session,
    caller: Reader,
    runtime: Runtime = Depends(get_runtime),
    limit: str | None = Query(default=None, description="1-100, default 20"),
    cursor: str | None = Query(default=None, description="`next_cursor` of the previous page, unchanged"),
) -> JSONResponse:
    found, next_cursor = await imports.list_imports(
        session,
        service.cursor_codec(runtime),
        caller,
        limit=int_query(limit, "limit", 20, 1, 100),
        cursor=cursor,
    )
    return json_response(ok_page(found, next_cursor))


@router.get(
    "/{import_id}",
    summary="Read an import",
    description="Its counts and the first 100 rejected lines. Needs `websets:read`.",
    responses={**documented(ItemEnvelope[ImportOut]), **errors("import_not_found")},
)
async def get_import(session: Session, caller: Reader, import_id: str) -> JSONResponse:
    return json_response(ok_item(imports.view(await imports.get_owned(session, caller, import_id))))


@router.delete(
    "/{import_id}",
    summary="Delete an import",
    description=(
        "The import and its rows. A list that excludes it leaves out nothing of it from its next run on. "
        "Needs `websets:write`."
    ),
    responses={**documented(ItemEnvelope[Deleted]), **errors("import_not_found")},
)
async def delete_import(
    caller: Writer, import_id: str, runtime: Runtime = Depends(get_runtime)
) -> JSONResponse:
    await imports.delete(runtime.sessionmaker, caller, import_id)  # in batches of their own transactions
    return json_response(ok_item(Deleted(id=import_id, deleted=True)))
