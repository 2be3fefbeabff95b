"""The customs request fields' types and their rules (docs/api.md, Customs trade data; Limits): names,
pages, and the catalog a role defaults to; dates, countries and HS codes are the trade data's own terms
(`providers/trade_terms.py`, shared with trade-seeded lists). A broken rule raises
`PydanticCustomError("value_error", ...)`, which `platform.validation` answers as 400
`invalid_request` naming the field, with the message as the detail (docs/api.md, Errors)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    BeforeValidator,
    Field,
    GetJsonSchemaHandler,
    StrictInt,
    StrictStr,
    StringConstraints,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from leadwire.providers.trade import Catalog

MAX_PAGE = 1000
MAX_PAGE_SIZE = 20
FILTER_FIELDS = ("hs_code", "product_description", "origin_country_code", "destination_country_code")


def _clamp_page_size(value: Any) -> Any:
    # Section endpoints set an out-of-range page_size to the boundary (spec); non-integers stay
    # for StrictInt to refuse.
    if isinstance(value, int) and not isinstance(value, bool):
        return min(max(value, 1), MAX_PAGE_SIZE)
    return value


# Surrounding blanks are dropped before counting, so a name of spaces is not two characters long.
CompanyName = Annotated[StrictStr, StringConstraints(strip_whitespace=True, min_length=2, max_length=300)]
# The guide sets no length (docs/api.md, Limits); a product keyword is bounded like a company name so a
# query stays cheap.
Description = Annotated[StrictStr, StringConstraints(strip_whitespace=True, min_length=1, max_length=300)]
Page = Annotated[StrictInt, Field(ge=1, le=MAX_PAGE)]
PageSize = Annotated[StrictInt, Field(ge=1, le=MAX_PAGE_SIZE)]
ClampedPageSize = Annotated[StrictInt, BeforeValidator(_clamp_page_size), Field(ge=1, le=MAX_PAGE_SIZE)]


class NullAccepted:
    """Publishes `null` as an accepted value of a field whose validator maps it to the default."""

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"anyOf": [handler(schema), {"type": "null"}]}


def _catalog_by_role(data: dict[str, Any]) -> Catalog:
    # Called with the fields validated so far; a broken company_role has its own error already.
    return "exports" if data.get("company_role") == "exporter" else "imports"


# `null` is accepted as "not given" (`_CustomsRequest._absent_when_null`).
DefaultCatalog = Annotated[
    Catalog, NullAccepted(), Field(default_factory=_catalog_by_role, description="default by role")
]
