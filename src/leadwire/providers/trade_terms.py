"""The terms of customs trade data that every slice reading the trade store shares: the record
directory a role is found in, ISO dates, alpha-3 countries and HS codes, and the longest date range one
question may span (docs/api.md, Customs trade data; Limits). A broken rule raises
`PydanticCustomError("value_error", ...)`: a request model answers it with its own code, the message as
the detail."""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any

import pycountry
from pydantic import AfterValidator, BeforeValidator, Field, StrictStr
from pydantic_core import PydanticCustomError

from leadwire.providers.trade import Catalog, Role

# The common pairs: an importer is found in the records its own country declares as imports, an
# exporter in those declared as exports. They give the default catalog of a role and the role of a catalog.
COMMON_CATALOG: dict[Role, Catalog] = {"importer": "imports", "exporter": "exports"}
COMMON_ROLE: dict[Catalog, Role] = {"imports": "importer", "exports": "exporter"}
OTHER_CATALOG: dict[Catalog, Catalog] = {"imports": "exports", "exports": "imports"}
# Credits for one company row the trade store gives (customs `companies/search`, a trade-seeded list's
# candidate): one kind, so `LEADWIRE_PRICES` sets both.
COMPANY_ROW_KIND, COMPANY_ROW_PRICE = "companies", "3.6"

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


IsoDate = Annotated[date, BeforeValidator(_iso_date)]
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


def alpha2_of(alpha3: str) -> str | None:
    """The ISO 3166-1 alpha-2 code of an alpha-3 one (companies elsewhere are placed by alpha-2)."""
    country = pycountry.countries.get(alpha_3=alpha3)
    return country.alpha_2 if country is not None else None
