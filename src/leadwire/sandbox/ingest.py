"""Loads your own companies, people, documents or posts (JSONL or CSV) into the world: every row is
validated with line-numbered errors, a file with any error is rejected whole, and accepted rows are
upserted by natural key (companies: domain; people: linkedin_url; documents and posts: url)."""

from __future__ import annotations

import contextlib
import csv
import json
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from leadwire.sandbox import fields as f
from leadwire.sandbox.hooks import on_world_changed
from leadwire.sandbox.store import (
    COLUMNS,
    WORLD_DB,
    create_empty_world,
    table_counts,
    world_is_built,
    write_meta,
)

KINDS = ("companies", "people", "documents", "posts")
_ID_FORMAT = {
    "companies": ("cmp_", 6),
    "people": ("per_", 7),
    "documents": ("doc_", 7),
    "posts": ("post_", 7),
}


@dataclass
class IngestError:
    """One problem, located by line (the CSV header is line 1) and field."""

    line: int
    field: str | None
    message: str


@dataclass
class IngestReport:
    """Outcome of one ingest; nothing was written unless `accepted`."""

    kind: str
    path: str
    rows: int = 0
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    errors: list[IngestError] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return not self.errors

    def error(self, line: int, name: str | None, message: str) -> None:
        self.errors.append(IngestError(line, name, message))

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "accepted": self.accepted}


@dataclass
class _Staged:
    line: int
    key: str
    values: dict[str, Any]  # column -> value, only what the row provides or implies
    manager_url: str | None = None


def ingest(world_dir: Path, kind: str, path: Path) -> IngestReport:
    """Validates `path` and, if every row is valid, upserts its rows into the world at world_dir.

    Without a world at world_dir an empty one is created first, so your own data can stand alone."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}")
    world_dir, path = Path(world_dir), Path(path)
    report = IngestReport(kind, str(path))
    records = list(_read(path, report))
    report.rows = len(records)
    con = _connect(world_dir) if world_is_built(world_dir) else None
    try:
        refs = _References(con, kind, records)
        staged = [s for line, raw in records if (s := _stage(kind, line, raw, refs, report)) is not None]
        if not report.accepted:
            return report
        if con is None:
            create_empty_world(world_dir)
            con = _connect(world_dir)
        con.execute("BEGIN IMMEDIATE")
        _apply(con, kind, staged, report)
        _refresh_counts(con)
        con.execute("COMMIT")
    finally:
        if con is not None:
            con.close()
    if report.inserted or report.updated:
        on_world_changed(world_dir, kind)
    return report


def _connect(world_dir: Path) -> sqlite3.Connection:
    con = sqlite3.connect(world_dir / WORLD_DB, timeout=30, isolation_level=None)
    con.row_factory = sqlite3.Row
    return con


def _read(path: Path, report: IngestReport) -> Iterator[tuple[int, dict[str, Any]]]:
    suffix = path.suffix.lower()
    if not path.is_file():
        report.error(0, None, f"no such file: {path}")
    elif suffix in (".jsonl", ".ndjson"):
        yield from _read_jsonl(path, report)
    elif suffix == ".csv":
        yield from _read_csv(path, report)
    else:
        report.error(0, None, "unsupported file type: use .jsonl, .ndjson or .csv")


def _read_jsonl(path: Path, report: IngestReport) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                report.error(number, None, f"invalid JSON: {exc.msg}")
                continue
            if not isinstance(row, dict):
                report.error(number, None, "each line must be a JSON object")
                continue
            yield number, {k: v for k, v in row.items() if v is not None and v != ""}


def _read_csv(path: Path, report: IngestReport) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        reader = csv.DictReader(fh)
        for row in reader:
            if None in row:
                report.error(reader.line_num, None, "more cells than header columns")
                continue
            yield reader.line_num, {k.strip(): v for k, v in row.items() if k and v not in (None, "")}


class _References:
    """Existing rows that input rows may point at, loaded once per ingest."""

    def __init__(
        self, con: sqlite3.Connection | None, kind: str, records: list[tuple[int, dict[str, Any]]]
    ) -> None:
        def pairs(sql: str) -> dict[str, str]:
            return {row[0]: row[1] for row in con.execute(sql)} if con is not None else {}

        self.company_by_domain = pairs("SELECT domain, id FROM companies")
        self.company_country = pairs("SELECT id, country FROM companies")
        self.company_ids = set(self.company_country)
        self.person_by_url = pairs("SELECT linkedin_url, id FROM people")
        self.person_url_by_id = {v: k for k, v in self.person_by_url.items()}
        self.urls_in_file: set[str] = set()
        if kind == "people":  # a manager may be introduced by the same file
            for _, raw in records:
                with contextlib.suppress(ValueError):
                    self.urls_in_file.add(f.profile_url(raw.get("linkedin_url")))


def _stage(
    kind: str, line: int, raw: dict[str, Any], refs: _References, report: IngestReport
) -> _Staged | None:
    spec = f.SPECS[kind]
    parsed: dict[str, Any] = {}
    errors_before = len(report.errors)
    for name in raw:
        if name != "id" and name not in spec:
            report.error(line, name, "unknown field")
    for name, rule in spec.items():
        if name not in raw:
            if rule.required:
                report.error(line, name, "is required")
            continue
        try:
            parsed[name] = rule.parse(raw[name])
        except ValueError as exc:
            report.error(line, name, str(exc))
    values = {rule.column: parsed[name] for name, rule in spec.items() if rule.column and name in parsed}
    key = values.get(f.NATURAL_KEYS[kind])
    if key is None:
        return None
    staged = _Staged(line, key, values)
    complete = {
        "companies": _complete_company,
        "people": _complete_person,
        "documents": _complete_document,
        "posts": _complete_post,
    }[kind]
    complete(staged, parsed, refs, report)  # also on rows with field errors, to report every problem at once
    return staged if len(report.errors) == errors_before else None


def _complete_company(row: _Staged, parsed: dict[str, Any], refs: _References, report: IngestReport) -> None:
    v = row.values
    if "country" in v:
        v["country3"] = f.alpha3(v["country"])
        given = parsed.get("country3")
        if given is not None and given != v["country3"]:
            report.error(
                row.line,
                "country3",
                f"{given} is not country {v['country']} (its alpha-3 is {v['country3']})",
            )
    if "industry_code" in v and "industry" not in v:
        v["industry"] = f.naics_title(v["industry_code"])


def _complete_person(row: _Staged, parsed: dict[str, Any], refs: _References, report: IngestReport) -> None:
    v = row.values
    if "full_name" not in v:
        if "first_name" in v and "last_name" in v:
            v["full_name"] = f"{v['first_name']} {v['last_name']}"
        else:
            report.error(row.line, "full_name", "is required (or first_name and last_name)")
    elif "first_name" not in v and "last_name" not in v:
        first, _, last = v["full_name"].partition(" ")
        v["first_name"], v["last_name"] = first, last or None
    v["company_id"] = _company_ref(row.line, parsed, refs, report, required=True)
    if "manager_id" in parsed:
        if parsed["manager_id"] not in refs.person_url_by_id:
            report.error(row.line, "manager_id", "unknown person id")
        else:
            row.manager_url = refs.person_url_by_id[parsed["manager_id"]]
    elif "manager_linkedin_url" in parsed:
        url = parsed["manager_linkedin_url"]
        if url not in refs.person_by_url and url not in refs.urls_in_file:
            report.error(row.line, "manager_linkedin_url", "unknown person")
        row.manager_url = url
    if "email" in v and "email_status" not in v:
        v["email_status"] = "unknown"


def _complete_document(row: _Staged, parsed: dict[str, Any], refs: _References, report: IngestReport) -> None:
    v = row.values
    v["domain"] = (urlsplit(v["url"]).hostname or "").lower()
    company = _company_ref(row.line, parsed, refs, report, required=False)
    if company is not None:
        v["company_id"] = company
        v.setdefault("country", refs.company_country.get(company))
    person = _person_ref(row.line, parsed, refs, report, ("person_id", "person_linkedin_url"), required=False)
    if person is not None:
        v["person_id"] = person


def _complete_post(row: _Staged, parsed: dict[str, Any], refs: _References, report: IngestReport) -> None:
    v = row.values
    author = _person_ref(row.line, parsed, refs, report, ("author_id", "author_profile_url"), required=True)
    if author is not None:
        v["author_id"] = author
        v["author_profile_url"] = refs.person_url_by_id[author]
    if "urn" not in v and (match := re.search(r"activity[-:](\d{10,})", v["url"])):
        v["urn"] = f"urn:li:activity:{match.group(1)}"


def _company_ref(
    line: int, parsed: dict[str, Any], refs: _References, report: IngestReport, *, required: bool
) -> str | None:
    if "company_id" in parsed:
        if parsed["company_id"] in refs.company_ids:
            return str(parsed["company_id"])
        report.error(line, "company_id", "unknown company id")
    elif "company_domain" in parsed:
        if parsed["company_domain"] in refs.company_by_domain:
            return str(refs.company_by_domain[parsed["company_domain"]])
        report.error(line, "company_domain", "unknown company domain (ingest companies first)")
    elif required:
        report.error(line, "company_domain", "company_id or company_domain is required")
    return None


def _person_ref(
    line: int,
    parsed: dict[str, Any],
    refs: _References,
    report: IngestReport,
    names: tuple[str, str],
    *,
    required: bool,
) -> str | None:
    by_id, by_url = names
    if by_id in parsed:
        if parsed[by_id] in refs.person_url_by_id:
            return str(parsed[by_id])
        report.error(line, by_id, "unknown person id")
    elif by_url in parsed:
        if parsed[by_url] in refs.person_by_url:
            return str(refs.person_by_url[parsed[by_url]])
        report.error(line, by_url, "unknown person (ingest people first)")
    elif required:
        report.error(line, by_url, f"{by_id} or {by_url} is required")
    return None


def _apply(con: sqlite3.Connection, kind: str, staged: list[_Staged], report: IngestReport) -> None:
    key = f.NATURAL_KEYS[kind]
    latest = {row.key: row for row in staged}  # a key repeated in one file: the last row wins
    next_number = _next_number(con, kind)
    changed: set[str] = set()
    for row in latest.values():
        existing = con.execute(f"SELECT * FROM {kind} WHERE {key} = ?", (row.key,)).fetchone()
        if existing is None:
            prefix, width = _ID_FORMAT[kind]
            values = {**_defaults(kind, row.values), **row.values, "id": f"{prefix}{next_number:0{width}d}"}
            next_number += 1
            con.execute(
                f"INSERT INTO {kind} ({', '.join(values)}) VALUES ({', '.join('?' * len(values))})",
                list(values.values()),
            )
            report.inserted += 1
            changed.add(row.key)
            continue
        diff = {c: val for c, val in row.values.items() if existing[c] != val}
        if diff:
            con.execute(
                f"UPDATE {kind} SET {', '.join(f'{c} = ?' for c in diff)} WHERE {key} = ?",
                [*diff.values(), row.key],
            )
            changed.add(row.key)
    if kind == "people":
        changed |= _link_managers(con, list(latest.values()))
    report.updated = len(changed) - report.inserted
    report.unchanged = len(latest) - len(changed)


def _link_managers(con: sqlite3.Connection, rows: list[_Staged]) -> set[str]:
    """Second pass: manager links, now that every person of the file has an id."""
    changed = set()
    for row in rows:
        if row.manager_url is None:
            continue
        manager = con.execute("SELECT id FROM people WHERE linkedin_url = ?", (row.manager_url,)).fetchone()[
            0
        ]
        current = con.execute("SELECT manager_id FROM people WHERE linkedin_url = ?", (row.key,)).fetchone()[
            0
        ]
        if current != manager:
            con.execute("UPDATE people SET manager_id = ? WHERE linkedin_url = ?", (manager, row.key))
            changed.add(row.key)
    return changed


def _defaults(kind: str, values: dict[str, Any]) -> dict[str, Any]:
    if kind == "companies":
        label = values["domain"].split(".")[0]
        return {
            "technologies": "[]",
            "products": "[]",
            "trades_goods": 0,
            "linkedin_url": f"https://www.linkedin.com/company/{label}",
        }
    if kind in ("people", "documents", "posts"):
        return {"language": "en", **({"like_count": 0} if kind == "posts" else {})}
    return {}


def _next_number(con: sqlite3.Connection, kind: str) -> int:
    prefix, _ = _ID_FORMAT[kind]
    row = con.execute(
        f"SELECT max(CAST(substr(id, {len(prefix) + 1}) AS INTEGER)) FROM {kind} WHERE id LIKE ?",
        (f"{prefix}%",),
    ).fetchone()
    return int(row[0] or 0) + 1


def _refresh_counts(con: sqlite3.Connection) -> None:
    meta = {r[0]: r[1] for r in con.execute("SELECT key, value FROM meta")}
    previous = json.loads(meta.get("counts") or "{}")
    write_meta(con, {"counts": {**previous, **table_counts(con)}})


__all__ = ["COLUMNS", "KINDS", "IngestError", "IngestReport", "ingest"]
