"""Every rule of the customs request bodies, through `platform.validation.validate` as the routes call it."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from pydantic import BaseModel

from leadwire.customs.schemas import CandidatesRequest, CompanySearchRequest, SectionRequest
from leadwire.platform.errors import ApiError
from leadwire.platform.validation import validate
from leadwire.providers.trade_terms import latest_end_date

DATES = {"start_date": "2024-01-01", "end_date": "2024-12-31"}
CANDIDATES = {"company_name": "Acme Trading", **DATES}
SEARCH = {"company_role": "importer", **DATES, "hs_code": "8471"}
SECTION = {"company_name": "Acme Trading", "company_role": "exporter", **DATES}
BASES: list[tuple[type[BaseModel], dict[str, Any]]] = [
    (CandidatesRequest, CANDIDATES),
    (CompanySearchRequest, SEARCH),
    (SectionRequest, SECTION),
]
ALL_MODELS = pytest.mark.parametrize(("model", "base"), BASES, ids=lambda v: getattr(v, "__name__", ""))


def ok(model: type[BaseModel], body: dict[str, Any]) -> Any:
    """The validated body, typed loosely so one test can read the fields of any of the three models."""
    return validate(model, body)


def rejected(model: type[BaseModel], body: dict[str, Any], param: str | None) -> ApiError:
    with pytest.raises(ApiError) as caught:
        validate(model, body)
    error = caught.value
    assert (error.code, error.status, error.param) == ("invalid_request", 400, param)
    return error


# --- dates, shared by every body ---


@ALL_MODELS
@pytest.mark.parametrize("field", ["start_date", "end_date"])
def test_dates_are_required(model: type[BaseModel], base: dict[str, Any], field: str) -> None:
    rejected(model, {k: v for k, v in base.items() if k != field}, field)


@ALL_MODELS
@pytest.mark.parametrize(
    "value",
    [
        "2024/01/01",
        "01-01-2024",
        "20240101",
        "2024-1-1",
        "2024-01-01T00:00:00",
        "２０２４-01-01",
        20240101,
        None,
    ],
)
def test_start_date_must_be_written_yyyy_mm_dd(
    model: type[BaseModel], base: dict[str, Any], value: Any
) -> None:
    error = rejected(model, {**base, "start_date": value}, "start_date")
    assert error.detail == "a date written YYYY-MM-DD, such as 2024-01-31"


@ALL_MODELS
def test_a_date_not_on_the_calendar(model: type[BaseModel], base: dict[str, Any]) -> None:
    error = rejected(model, {**base, "end_date": "2023-02-29"}, "end_date")
    assert error.detail == "2023-02-29 is not a calendar date"


@ALL_MODELS
def test_end_date_not_before_start_date(model: type[BaseModel], base: dict[str, Any]) -> None:
    error = rejected(model, {**base, "start_date": "2024-03-02", "end_date": "2024-03-01"}, "end_date")
    assert error.detail == "end_date must not be earlier than start_date"
    same_day = ok(model, {**base, "start_date": "2024-03-01", "end_date": "2024-03-01"})
    assert same_day.end_date == same_day.start_date == date(2024, 3, 1)


@ALL_MODELS
@pytest.mark.parametrize(
    ("start", "last"),
    [
        ("2024-01-01", "2025-01-01"),
        ("2023-03-15", "2024-03-15"),
        ("2024-02-29", "2025-02-28"),
        ("2023-02-28", "2024-02-28"),
    ],
)
def test_span_is_at_most_one_calendar_year(
    model: type[BaseModel], base: dict[str, Any], start: str, last: str
) -> None:
    accepted = ok(model, {**base, "start_date": start, "end_date": last})
    assert accepted.end_date.isoformat() == last
    day_after = date.fromordinal(date.fromisoformat(last).toordinal() + 1).isoformat()
    error = rejected(model, {**base, "start_date": start, "end_date": day_after}, "end_date")
    assert error.detail == f"the span is at most one year: end_date {last} at the latest"


def test_latest_end_date_at_the_end_of_the_calendar() -> None:
    assert latest_end_date(date(9999, 6, 1)) == date.max
    assert latest_end_date(date(2028, 2, 29)) == date(2029, 2, 28)


@ALL_MODELS
def test_a_broken_start_date_is_reported_not_the_span(model: type[BaseModel], base: dict[str, Any]) -> None:
    rejected(model, {**base, "start_date": "soon", "end_date": "2030-01-01"}, "start_date")


# --- company_name (candidates and sections) ---


@pytest.mark.parametrize(("model", "base"), [(CandidatesRequest, CANDIDATES), (SectionRequest, SECTION)])
@pytest.mark.parametrize("name", ["A", "  B  ", "x" * 301, "", 42, None, ["Acme"]])
def test_company_name_is_2_to_300_characters(model: type[BaseModel], base: dict[str, Any], name: Any) -> None:
    rejected(model, {**base, "company_name": name}, "company_name")


@pytest.mark.parametrize(("model", "base"), [(CandidatesRequest, CANDIDATES), (SectionRequest, SECTION)])
def test_company_name_bounds_and_trimming(model: type[BaseModel], base: dict[str, Any]) -> None:
    assert ok(model, {**base, "company_name": "AB"}).company_name == "AB"
    assert ok(model, {**base, "company_name": "é" * 300}).company_name == "é" * 300
    assert ok(model, {**base, "company_name": " Acme "}).company_name == "Acme"
    rejected(model, {k: v for k, v in base.items() if k != "company_name"}, "company_name")


# --- role, catalog, page, page_size ---


@ALL_MODELS
@pytest.mark.parametrize(
    ("field", "value"),
    [("company_role", "buyer"), ("company_role", "Importer"), ("catalog", "import"), ("catalog", 1)],
)
def test_role_and_catalog_are_closed_lists(
    model: type[BaseModel], base: dict[str, Any], field: str, value: Any
) -> None:
    rejected(model, {**base, field: value}, field)


@pytest.mark.parametrize(("model", "base"), [(CompanySearchRequest, SEARCH), (SectionRequest, SECTION)])
def test_company_role_is_required_and_catalog_defaults_by_role(
    model: type[BaseModel], base: dict[str, Any]
) -> None:
    rejected(model, {k: v for k, v in base.items() if k != "company_role"}, "company_role")
    for role, catalog in [("importer", "imports"), ("exporter", "exports")]:
        assert ok(model, {**base, "company_role": role}).catalog == catalog
    cross = ok(model, {**base, "company_role": "exporter", "catalog": "imports"})
    assert (cross.company_role, cross.catalog) == ("exporter", "imports")
    # An explicit null is "not given": the default by role, not a refusal.
    assert ok(model, {**base, "company_role": "exporter", "catalog": None}).catalog == "exports"


@ALL_MODELS
def test_page_defaults_to_1_and_is_1_to_1000(model: type[BaseModel], base: dict[str, Any]) -> None:
    assert ok(model, base).page == 1
    assert ok(model, {**base, "page": 1000}).page == 1000
    for page in [0, -1, 1001, "5", 2.0, True, None]:
        rejected(model, {**base, "page": page}, "page")


@ALL_MODELS
def test_page_size_defaults_to_20(model: type[BaseModel], base: dict[str, Any]) -> None:
    assert ok(model, base).page_size == 20
    assert ok(model, {**base, "page_size": 1}).page_size == 1


@pytest.mark.parametrize(("model", "base"), [(CandidatesRequest, CANDIDATES), (CompanySearchRequest, SEARCH)])
@pytest.mark.parametrize("size", [0, 21, -3, 100])
def test_page_size_out_of_range_is_rejected(model: type[BaseModel], base: dict[str, Any], size: int) -> None:
    rejected(model, {**base, "page_size": size}, "page_size")


@pytest.mark.parametrize(("size", "clamped"), [(0, 1), (-5, 1), (21, 20), (10_000, 20), (7, 7)])
def test_section_page_size_is_set_to_the_boundary(size: int, clamped: int) -> None:
    assert ok(SectionRequest, {**SECTION, "page_size": size}).page_size == clamped


@pytest.mark.parametrize("size", ["5", 5.5, True, None])
def test_section_page_size_must_still_be_an_integer(size: Any) -> None:
    rejected(SectionRequest, {**SECTION, "page_size": size}, "page_size")


# --- candidates: country_codes and the role/catalog pairs ---


def test_country_codes_are_normalised() -> None:
    request = ok(CandidatesRequest, {**CANDIDATES, "country_codes": "deu, Fra,DEU"})
    assert request.country_codes == "DEU,FRA"
    assert request.country_list == ["DEU", "FRA"]
    assert ok(CandidatesRequest, CANDIDATES).country_list == []


@pytest.mark.parametrize(
    ("codes", "detail"),
    [
        ("DE", "DE is alpha-2; customs takes ISO 3166-1 alpha-3 codes such as DEU"),
        ("DEU,fr", "fr is alpha-2; customs takes ISO 3166-1 alpha-3 codes such as DEU"),
        ("XXX", "'XXX' is not an ISO 3166-1 alpha-3 code such as DEU"),
        ("DEU,,FRA", "'' is not an ISO 3166-1 alpha-3 code such as DEU"),
        ("DEU;FRA", "'DEU;FRA' is not an ISO 3166-1 alpha-3 code such as DEU"),
        ("276", "'276' is not an ISO 3166-1 alpha-3 code such as DEU"),
        ("", "'' is not an ISO 3166-1 alpha-3 code such as DEU"),
    ],
)
def test_country_codes_are_alpha_3(codes: str, detail: str) -> None:
    assert (
        rejected(CandidatesRequest, {**CANDIDATES, "country_codes": codes}, "country_codes").detail == detail
    )


def test_country_codes_are_a_comma_separated_string() -> None:
    rejected(CandidatesRequest, {**CANDIDATES, "country_codes": ["DEU"]}, "country_codes")


@pytest.mark.parametrize(
    ("given", "pairs"),
    [
        ({}, [("importer", "imports"), ("exporter", "exports")]),
        ({"compare_catalogs": True}, [("importer", "imports"), ("exporter", "exports")]),
        ({"company_role": "importer"}, [("importer", "imports")]),
        ({"company_role": "exporter"}, [("exporter", "exports")]),
        ({"catalog": "imports"}, [("importer", "imports")]),
        ({"catalog": "exports"}, [("exporter", "exports")]),
        ({"company_role": "exporter", "catalog": "imports"}, [("exporter", "imports")]),
        (
            {"company_role": "importer", "compare_catalogs": True},
            [("importer", "imports"), ("importer", "exports")],
        ),
        (
            {"catalog": "exports", "compare_catalogs": True},
            [("exporter", "exports"), ("exporter", "imports")],
        ),
        (
            {"company_role": "importer", "catalog": "exports", "compare_catalogs": False},
            [("importer", "exports")],
        ),
    ],
)
def test_candidate_pairs(given: dict[str, Any], pairs: list[tuple[str, str]]) -> None:
    assert ok(CandidatesRequest, {**CANDIDATES, **given}).pairs() == pairs


def test_candidates_fill_the_other_side_with_its_common_pairing() -> None:
    request = ok(CandidatesRequest, {**CANDIDATES, "catalog": "exports"})
    assert (request.company_role, request.catalog) == ("exporter", "exports")
    neither = ok(CandidatesRequest, CANDIDATES)
    assert (neither.company_role, neither.catalog) == (None, None)


@pytest.mark.parametrize("flag", ["true", 1, "yes"])
def test_compare_catalogs_is_a_boolean(flag: Any) -> None:
    rejected(CandidatesRequest, {**CANDIDATES, "compare_catalogs": flag}, "compare_catalogs")


# --- filters: top level on company search, under `filters` on sections ---

FILTER_PLACES = pytest.mark.parametrize(
    ("model", "base", "prefix"),
    [(CompanySearchRequest, SEARCH, ""), (SectionRequest, SECTION, "filters.")],
    ids=["search", "section"],
)


def with_filter(base: dict[str, Any], prefix: str, field: str, value: Any) -> dict[str, Any]:
    if prefix:
        return {**base, "filters": {field: value}}
    return {**base, field: value}


@FILTER_PLACES
@pytest.mark.parametrize("code", ["84", "8471", "847130", "84713000", "8471300000", "0101"])
def test_hs_code_of_2_4_6_8_or_10_digits(
    model: type[BaseModel], base: dict[str, Any], prefix: str, code: str
) -> None:
    request = ok(model, with_filter(base, prefix, "hs_code", code))
    holder = request.filters if prefix else request
    assert holder.hs_code == code


@FILTER_PLACES
@pytest.mark.parametrize(
    "code",
    [
        "8",
        "847",
        "84713",
        "84713000001",
        "8471,8472",
        "8471 30",
        "8471-8472",
        " 8471",
        "84.71",
        "",
        "８４７１",
        8471,
    ],
)
def test_hs_code_rejected(model: type[BaseModel], base: dict[str, Any], prefix: str, code: Any) -> None:
    error = rejected(model, with_filter(base, prefix, "hs_code", code), f"{prefix}hs_code")
    if isinstance(code, str):
        assert "2, 4, 6, 8 or 10 digits" in (error.detail or "")


@FILTER_PLACES
@pytest.mark.parametrize("field", ["origin_country_code", "destination_country_code"])
def test_filter_countries_are_alpha_3(
    model: type[BaseModel], base: dict[str, Any], prefix: str, field: str
) -> None:
    request = ok(model, with_filter(base, prefix, field, "chn"))
    holder = request.filters if prefix else request
    assert getattr(holder, field) == "CHN"
    for code in ["CN", "ZZZ", "CHN,DEU", "156", 156]:
        rejected(model, with_filter(base, prefix, field, code), f"{prefix}{field}")


@FILTER_PLACES
@pytest.mark.parametrize("value", ["", "   ", "x" * 301, 5])
def test_product_description_rejected(
    model: type[BaseModel], base: dict[str, Any], prefix: str, value: Any
) -> None:
    rejected(model, with_filter(base, prefix, "product_description", value), f"{prefix}product_description")


# --- company search: at least one filter, sorting ---


@pytest.mark.parametrize(
    "given",
    [
        {"hs_code": "84"},
        {"product_description": "laptops"},
        {"origin_country_code": "CHN"},
        {"destination_country_code": "DEU"},
    ],
)
def test_search_needs_one_filter_and_any_one_will_do(given: dict[str, str]) -> None:
    bare = {k: v for k, v in SEARCH.items() if k != "hs_code"}
    assert ok(CompanySearchRequest, {**bare, **given}).filters() == given
    error = rejected(CompanySearchRequest, bare, None)
    assert error.detail == (
        "give at least one of hs_code, product_description, origin_country_code, destination_country_code"
    )


def test_search_sorting_defaults_and_choices() -> None:
    request = ok(CompanySearchRequest, SEARCH)
    assert (request.sort_by, request.sort_order) == ("trade_count", "desc")
    for sort_by in ["trade_count", "amount_usd", "quantity", "weight"]:
        assert (
            ok(CompanySearchRequest, {**SEARCH, "sort_by": sort_by, "sort_order": "asc"}).sort_by == sort_by
        )
    rejected(CompanySearchRequest, {**SEARCH, "sort_by": "name"}, "sort_by")
    rejected(CompanySearchRequest, {**SEARCH, "sort_order": "ascending"}, "sort_order")


# --- sections: period_unit and filters ---


def test_section_period_unit() -> None:
    assert ok(SectionRequest, SECTION).period_unit == "months"
    for unit in ["months", "quarters", "years"]:
        assert ok(SectionRequest, {**SECTION, "period_unit": unit}).period_unit == unit
    rejected(SectionRequest, {**SECTION, "period_unit": "weeks"}, "period_unit")


def test_section_filters_default_empty_and_must_be_an_object() -> None:
    bodies: list[dict[str, Any]] = [SECTION, {**SECTION, "filters": None}, {**SECTION, "filters": {}}]
    for body in bodies:
        assert ok(SectionRequest, body).filters.model_dump() == dict.fromkeys(
            ["hs_code", "product_description", "origin_country_code", "destination_country_code"]
        )
    rejected(SectionRequest, {**SECTION, "filters": "hs_code=84"}, "filters")


# --- unknown fields ---


@ALL_MODELS
def test_unknown_fields_are_ignored(model: type[BaseModel], base: dict[str, Any]) -> None:
    ok(model, {**base, "currency": "EUR", "filters_extra": {"x": 1}})
    if model is SectionRequest:
        ok(model, {**base, "filters": {"hs_code": "84", "incoterm": "FOB"}})
