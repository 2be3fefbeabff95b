"""Enrichment cells against ground truth: `options` cells on the real company split (per fold), and
email / number cells on the sandbox world.

Options (real data). Each fold of the split (``_real.py``) is converted and ingested alone; each
company is looked up by domain through the sandbox prospects source (its record and its pages, as an
enrichment job reads them) and asked "Which industry is the company in?" with sixteen everyday sector
labels. The judge is the row's own industry labels (``_real.SECTORS``); a company counts when exactly
one of the sixteen sectors matches them. The floor and margin a label must clear are chosen on the
tuning fold (the most recall at a precision of at least 0.97, over a grid) and reported on the other:
precision = right / answered, recall = right / judged, coverage = answered / judged. The pages are
written from the rows' own text, so this measures turning a company's self-description into a user's
categories, not finding it on the web.

Email and number (the sandbox world): "Email of the CEO" on 300 companies: precision = the address is
that of a person of the company whose title names the CEO (the judge's own reading: "CEO", "Chief
Executive"); `not verified` said exactly when the world's status is not `valid`. "Number of
employees" against the world's record. Phone: the world's pages carry (almost) no phone numbers, so
phone cells there are counted, not judged.

    .venv/bin/python bench/enrichment_quality.py [--data FILE] [--world DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import numpy as np

from _real import (
    SECTORS,
    TUNING_FOLD,
    build_world,
    data_path,
    fold_label,
    read_rows,
    rows_of,
    temporary_work,
)
from _support import emit, note
from _websets import small_world
from leadwire.providers.prospects import CompanyRef
from leadwire.providers.reasoner import EnrichmentAsk, Prospect
from leadwire.providers.rules_enrich import (
    OPTION_FLOOR,
    OPTION_MARGIN,
    choose_option,
    enrich_all,
    option_strengths,
)
from leadwire.providers.sandbox_contacts import SandboxContactsProvider
from leadwire.providers.sandbox_prospects import SandboxProspectSource
from leadwire.websets.cells import email_cell, phone_on_pages

LABELS = {
    "banks": "Banking",
    "insurance": "Insurance",
    "chemicals": "Chemicals",
    "pharma": "Pharmaceuticals and biotechnology",
    "semiconductors": "Semiconductors",
    "software": "Software and IT services",
    "automotive": "Automotive",
    "oil_gas": "Oil and gas",
    "utilities": "Utilities",
    "retail": "Retail",
    "food_beverage": "Food and beverages",
    "aerospace_defence": "Aerospace and defence",
    "real_estate": "Real estate",
    "telecom": "Telecommunications",
    "metals_mining": "Metals and mining",
    "transport": "Transport and logistics",
}
ASK = EnrichmentAsk("Which industry is the company in?", "options", tuple(LABELS.values()))
CEO_TITLE = re.compile(r"\bCEO\b|chief executive", re.IGNORECASE)
PRECISION_TARGET = 0.97
FLOORS = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35)
MARGINS = (0.0, 0.01, 0.02, 0.03, 0.05, 0.08)


def truth(labels: str) -> str | None:
    """The one sector of the sixteen the row's labels name, or None (none, or several)."""
    named = [s.key for s in SECTORS if s.key in LABELS and s.labels.search(labels)]
    return LABELS[named[0]] if len(named) == 1 else None


def score(cases: list[tuple[np.ndarray, str]], floor: float, margin: float) -> dict[str, float]:
    answered = right = 0
    for strengths, expected in cases:
        best, _, _, wins = choose_option(strengths, floor, margin)
        if wins:
            answered += 1
            right += ASK.options[best] == expected
    judged = len(cases)
    precision = right / answered if answered else 0.0
    recall = right / judged if judged else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": precision,
        "recall": recall,
        "coverage": answered / judged if judged else 0.0,
        "f1": f1,
    }


async def fold_cases(rows: list[dict[str, Any]], name: str, work: Path) -> list[tuple[np.ndarray, str]]:
    world = build_world(rows, name, work)
    source = SandboxProspectSource(world.world)
    judged = {domain: truth(c.labels) for domain, c in world.companies.items()}
    domains = [d for d, t in judged.items() if t is not None]
    found = await source.lookup([CompanyRef(None, d, None) for d in domains])
    cases = []
    for domain, prospect in zip(domains, found, strict=True):
        strengths = option_strengths(ASK, prospect) if prospect is not None else None
        if strengths is not None:
            cases.append((strengths, str(judged[domain])))
    return cases


async def options_on_real_data(data: Path) -> None:
    all_rows = read_rows(data)
    with temporary_work() as scratch:
        work = Path(scratch)
        by_fold = {fold: await fold_cases(rows_of(all_rows, fold), fold, work) for fold in ("a", "b")}
    grid = {(f, m): score(by_fold[TUNING_FOLD], f, m) for f, m in itertools.product(FLOORS, MARGINS)}
    # A filled cell is presented as fact: the objective is the most recall at a precision of at least
    # `PRECISION_TARGET` on the tuning fold (else the most precise setting).
    sure = [k for k in grid if grid[k]["precision"] >= PRECISION_TARGET]
    chosen = (
        max(sure, key=lambda k: (grid[k]["recall"], grid[k]["precision"]))
        if sure
        else max(grid, key=lambda k: grid[k]["precision"])
    )
    note(
        f"options cells on real companies ({len(ASK.options)} sector labels); floor/margin chosen on fold "
        f"{TUNING_FOLD}: {chosen} (shipped: {(OPTION_FLOOR, OPTION_MARGIN)})"
    )
    for fold, cases in by_fold.items():
        for label, (floor, margin) in (("shipped", (OPTION_FLOOR, OPTION_MARGIN)), ("tuned", chosen)):
            figures = score(cases, floor, margin)
            for metric in ("precision", "recall", "coverage"):
                emit(
                    f"enrichment_options_{metric}_{label}_fold_{fold}",
                    figures[metric],
                    note=f"{fold_label(fold)}; {len(cases)} judged companies",
                )


async def contacts_on_world(world: Path) -> None:
    db = sqlite3.connect(f"{(world / 'world.db').resolve().as_uri()}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    companies = db.execute("SELECT id, domain, employees FROM companies ORDER BY id LIMIT 300").fetchall()
    contacts = SandboxContactsProvider(world)
    source = SandboxProspectSource(world)
    right = answered = said_right = with_ceo = 0
    started = time.perf_counter()
    for company in companies:
        people = db.execute(
            "SELECT email, email_status, title FROM people WHERE company_id = ?", (company["id"],)
        )
        # The judge's own reading of a CEO: the title names it (Founder & CEO, Chief Executive Officer).
        ceos = {
            p["email"]: p["email_status"] for p in people if p["email"] and CEO_TITLE.search(p["title"] or "")
        }
        with_ceo += bool(ceos)
        found = await contacts.domain_search(company["domain"], limit=10, positions=["CEO"], locale="en")
        prospect = Prospect(
            key=company["domain"], kind="company", name="", website=f"https://{company['domain']}"
        )
        cell = email_cell(prospect, found.contacts, company["domain"], ["CEO"])
        if cell.result is None:
            continue
        answered += 1
        if cell.result[0] in ceos:
            right += 1
            unverified = "not verified" in cell.reasoning
            said_right += unverified == (ceos[cell.result[0]] != "valid")
    elapsed = time.perf_counter() - started
    emit(
        "enrichment_email_precision_world_ceo",
        right / answered if answered else 0.0,
        note=f"{answered} answered",
    )
    emit(
        "enrichment_email_recall_world_ceo",
        right / with_ceo if with_ceo else 0.0,
        note=f"{with_ceo} CEOs with an address",
    )
    emit("enrichment_email_verification_said_right", said_right / right if right else 0.0)
    emit("enrichment_email_cells_per_s_direct", len(companies) / elapsed, "cells/s")
    refs = [CompanyRef(None, c["domain"], None) for c in companies]
    found = await source.lookup(refs)
    prospects = [p for p in found if p is not None]
    started = time.perf_counter()
    cells = enrich_all(EnrichmentAsk("Number of employees", "number"), prospects)
    elapsed = time.perf_counter() - started
    truth_by_domain = {c["domain"]: c["employees"] for c in companies}
    filled = [(p, c) for p, c in zip(prospects, cells, strict=True) if c.result]
    exact = sum(1 for p, c in filled if c.result and c.result[0] == str(truth_by_domain.get(p.key)))
    emit(
        "enrichment_number_precision_world_employees",
        exact / len(filled) if filled else 0.0,
        note=f"{len(filled)} filled",
    )
    emit("enrichment_number_cells_per_s_direct", len(prospects) / elapsed, "cells/s")
    phones = [cell for cell in (phone_on_pages(p) for p in prospects) if cell.result]
    emit(
        "enrichment_phone_cells_found_world",
        float(len(phones)),
        note="the world's pages carry no phone numbers",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument(
        "--world", type=Path, default=None, help="a built sandbox world (default: build small)"
    )
    args = parser.parse_args()
    asyncio.run(options_on_real_data(data_path(args.data)))
    with small_world(args.world) as world:
        asyncio.run(contacts_on_world(world))


if __name__ == "__main__":
    main()
