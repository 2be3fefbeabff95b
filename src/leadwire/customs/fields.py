"""The customs request fields' types and their rules (docs/api.md, Customs trade data; Limits): dates,
countries, HS codes, names, pages, and the catalog a role defaults to. A broken rule raises
`PydanticCustomError("value_error", ...)`, which `platform.validation` answers as 400
`invalid_request` naming the field, with the message as the detail (docs/api.md, Errors)."""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any

import pycountry
from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    GetJsonSchemaHandler,
    StrictInt,
    StrictStr,
    StringConstraints,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError

from leadwire.providers.trade import Catalog, Role

# The common pairs: an importer is found in the records its own country declares as imports, an
# exporter in those declared as exports. They give the default catalog of a role and the role of a catalog.
COMMON_CATALOG: dict[Role, Catalog] = {"importer": "imports", "exporter": "exports"}
COMMON_ROLE: dict[Catalog, Role] = {"imports": "importer", "exports": "exporter"}
OTHER_CATALOG: dict[Catalog, Catalog] = {"imports": "exports", "exports": "imports"}

MAX_PAGE = 1000
MAX_PAGE_SIZE = 20
FILTER_FIELDS = ("hs_code", "product_description", "origin_country_code", "destination_country_code")

# [0-9], not \d: \d also matches other scripts' digits, which are no part of a date or an HS code.
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_HS_CODE = re.compile(r"([0-9]{2}){1,5}")  # 2, 4, 6, 8 or 10 digits


def invalid(detail: str) -> PydanticCustomError:
    return PydanticCustomError("value_error", detail)


def _iso_date(value: Any) -> date:
    # Only YYYY-MM-DD (docs/api.md, Customs trade data): pydantic alone would also take timestamps,
    # datetimes and 20240101.
    if not isinstance(value, str) or not _ISO_DATE.fullmatch(value):
        raise invalid("a date written YYYY-MM-DD, such as 2024-01-31")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise invalid(f"{value} is not a calendar date") from None


def latest_end_date(start: date) -> date:
    """The last `end_date` allowed after `start`: one calendar year on, Feb 29 landing on Feb 28."""
    if start.year == date.max.year:
        return date.max
    try:
        return start.replace(year=start.year + 1)
    except ValueError:  # Feb 29 has no twin in the next year
        return start.replace(year=start.year + 1, day=28)


def _alpha3(code: str) -> str:
    upper = code.upper()
    if len(upper) == 2 and pycountry.countries.get(alpha_2=upper) is not None:
        # Public-web's user_location takes alpha-2; customs never does (docs/api.md, Customs trade data).
        raise invalid(f"{code} is alpha-2; customs takes ISO 3166-1 alpha-3 codes such as DEU")
    if not (len(upper) == 3 and upper.isascii() and upper.isalpha()) or not pycountry.countries.get(
        alpha_3=upper
    ):
        raise invalid(f"{code!r} is not an ISO 3166-1 alpha-3 code such as DEU")
    return upper


def alpha3_list(codes: str) -> str:
    """`DEU, fra,DEU` -> `DEU,FRA`: each code checked and upper-cased, repeats dropped, order kept."""
    checked = [_alpha3(part.strip()) for part in codes.split(",")]
    return ",".join(dict.fromkeys(checked))


def _hs_code(code: str) -> str:
    # A string, not a number: chapters 01-09 start with a zero a JSON number would lose.
    if not _HS_CODE.fullmatch(code):
        raise invalid("one HS code of 2, 4, 6, 8 or 10 digits such as 8471 (no lists, spaces or ranges)")
    return code


def _clamp_page_size(value: Any) -> Any:
    # Section endpoints set an out-of-range page_size to the boundary (spec); non-integers stay
    # for StrictInt to refuse.
    if isinstance(value, int) and not isinstance(value, bool):
        return min(max(value, 1), MAX_PAGE_SIZE)
    return value


IsoDate = Annotated[date, BeforeValidator(_iso_date)]
# Surrounding blanks are dropped before counting, so a name of spaces is not two characters long.
CompanyName = Annotated[StrictStr, StringConstraints(strip_whitespace=True, min_length=2, max_length=300)]
# The patterns only document the rules in the JSON schema (OpenAPI, MCP); the validators enforce them.
Alpha3 = Annotated[
    StrictStr,
    AfterValidator(_alpha3),
    Field(json_schema_extra={"pattern": "^[A-Za-z]{3}$"}, examples=["DEU"]),
]
HsCode = Annotated[
    StrictStr,
    AfterValidator(_hs_code),
    Field(json_schema_extra={"pattern": f"^{_HS_CODE.pattern}$"}, examples=["8471"]),
]
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
