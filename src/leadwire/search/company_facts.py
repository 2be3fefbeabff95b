"""What the index knows of a page's company: its NAICS class and industry wording, head count and
founding year, read through a join on ``documents.company_id``, and the arrays ranking reads them from.

A company's facts are its pages' facts, so a trigger on ``companies`` sends the pages of a company
whose facts change back through refresh.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from leadwire.search.store import INDUSTRY_SLOTS
from leadwire.search.understand.industry import classify_text, labels_by_meaning

COLUMNS = "co.industry_code, co.industry, co.employees, co.founded_year"
_JOIN = "LEFT JOIN companies co ON co.id = d.company_id"
# A bare documents table (no companies in the world) reads as documents without companies.
_NO_COMPANIES = (
    "(SELECT NULL AS id, NULL AS industry_code, NULL AS industry, NULL AS employees, "
    "NULL AS founded_year WHERE 0)"
)
TRIGGER = """CREATE TRIGGER companies_search_au
    AFTER UPDATE OF industry_code, industry, employees, founded_year ON companies
    BEGIN
        INSERT INTO search_dirty(doc_rowid) SELECT rowid FROM documents WHERE company_id = new.id;
    END"""
DROP_TRIGGER = "DROP TRIGGER IF EXISTS companies_search_au"
# Characters of a page read for its industry classes: the opening says what a page is about.
_CLASSIFY_CHARS = 2000
# How much a class read from a page's words counts against one its company declares.
_WORDS_ONLY_CONFIDENCE = 0.7


@dataclass(frozen=True, slots=True)
class CompanyFacts:
    """The facts of the company a page belongs to (empty for a page of no known company)."""

    code: str = ""  # NAICS class
    industry: str = ""  # the company's own industry wording
    employees: int | None = None
    founded: int | None = None

    @classmethod
    def of_row(cls, row: Sequence[object]) -> CompanyFacts:
        """From the ``COLUMNS`` of one joined row."""
        code, industry, employees, founded = row
        return cls(
            str(code or ""),
            str(industry or ""),
            employees if isinstance(employees, int) else None,
            founded if isinstance(founded, int) else None,
        )


def join(con: sqlite3.Connection) -> str:
    """The join that brings ``COLUMNS`` to ``documents d``, also in a world without companies."""
    return _JOIN if has_companies(con) else _JOIN.replace("companies", _NO_COMPANIES, 1)


def triggers(con: sqlite3.Connection) -> list[str]:
    return [TRIGGER] if has_companies(con) else []


def has_companies(con: sqlite3.Connection) -> bool:
    found = con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'companies'").fetchone()
    return found is not None


def page_classes(company: CompanyFacts, title: str, text: str, site: str) -> list[tuple[str, float]]:
    """A page's NAICS classes: its company's class when known, else read from the words."""
    if company.code:
        return [(company.code[:6], 1.0)]
    classes = classify_text(company.industry, title, text[:_CLASSIFY_CHARS], site)
    if company.industry:
        return _with_guesses(classes, labels_by_meaning(company.industry))
    # Read from the page's words alone, a class is a guess: "valves for chemical plants" names a customer.
    return [(code, round(weight * _WORDS_ONLY_CONFIDENCE, 3)) for code, weight in classes]


def _with_guesses(
    classes: list[tuple[str, float]], guesses: list[tuple[str, float]]
) -> list[tuple[str, float]]:
    """The classes read from words, and after them those of labels read only by meaning (weaker)."""
    known = {code for code, _ in classes}
    extra = [(code, weight) for code, weight in guesses if code not in known]
    return (classes + extra)[:INDUSTRY_SLOTS]


def arrays(
    companies: Sequence[CompanyFacts], classes: Sequence[list[tuple[str, float]]]
) -> dict[str, np.ndarray]:
    """The index arrays of these pages: classes and weights, head count and founding year (-1: unknown)."""
    codes = np.zeros((len(companies), INDUSTRY_SLOTS), dtype="S6")
    weights = np.zeros((len(companies), INDUSTRY_SLOTS), dtype=np.float32)
    for row, page in enumerate(classes):
        for slot, (code, weight) in enumerate(page[:INDUSTRY_SLOTS]):
            codes[row, slot] = code.encode("ascii")
            weights[row, slot] = weight
    employees = np.array([-1 if c.employees is None else c.employees for c in companies], dtype=np.int32)
    founded = np.array([-1 if c.founded is None else c.founded for c in companies], dtype=np.int16)
    return {"industries": codes, "industry_weights": weights, "employees": employees, "founded": founded}
