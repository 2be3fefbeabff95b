"""Contacts adapter over the sandbox world: the people of the company that owns a domain.

Reads ``<world_dir>/world.db`` read-only in a worker thread; titles are
filtered with the shared position matcher and the most senior people come first.
"""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

from leadwire.providers.contacts import CompanyContacts, ContactRecord, ContactsProviderError
from leadwire.providers.positions import title_matches

SENIORITY_ORDER = {"c_level": 0, "vp": 1, "director": 2, "manager": 3, "senior": 4, "entry": 5}

# Two-character family names; every other Chinese family name here is one character.
_COMPOUND_SURNAMES = frozenset(
    {
        "欧阳",
        "司马",
        "上官",
        "诸葛",
        "东方",
        "皇甫",
        "尉迟",
        "公孙",
        "慕容",
        "长孙",
        "宇文",
        "司徒",
        "夏侯",
        "令狐",
    }
)

_PEOPLE_SQL = """
SELECT id, first_name, last_name, full_name, full_name_zh, title, title_zh, department, seniority,
       email, email_status, linkedin_url
FROM people WHERE company_id = ?
"""


class SandboxContactsProvider:
    """``ContactsProvider`` answering from the sandbox world's ``people`` table."""

    def __init__(self, world_dir: str | Path) -> None:
        self._db_path = Path(world_dir) / "world.db"

    def __repr__(self) -> str:
        return f"SandboxContactsProvider({str(self._db_path.parent)!r})"

    async def domain_search(
        self, domain: str, *, limit: int, positions: list[str], locale: str = "en"
    ) -> CompanyContacts:
        """Return up to ``limit`` people of the company at ``domain``, most senior first."""
        return await asyncio.to_thread(self._search, domain, limit, list(positions), locale)

    def _search(self, domain: str, limit: int, positions: list[str], locale: str) -> CompanyContacts:
        if not self._db_path.is_file():
            raise ContactsProviderError("contacts_provider_unavailable", "the sandbox world is not built")
        try:
            with closing(self._connect()) as conn:
                company = conn.execute(
                    "SELECT id, name, name_zh FROM companies WHERE domain = ?", (domain,)
                ).fetchone()
                if company is None:
                    return CompanyContacts(domain=domain, company_name=None, contacts=[])
                rows = conn.execute(_PEOPLE_SQL, (company["id"],)).fetchall()
        except sqlite3.Error as exc:
            raise ContactsProviderError("contacts_provider_unavailable", type(exc).__name__) from None
        chosen = sorted((r for r in rows if title_matches(positions, r["title"], r["title_zh"])), key=_rank)
        zh = locale == "zh"
        name = (company["name_zh"] if zh else None) or company["name"]
        contacts = [_record(r, zh) for r in chosen[:limit]]
        return CompanyContacts(domain=domain, company_name=name, contacts=contacts)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(f"{self._db_path.resolve().as_uri()}?mode=ro", uri=True)
        conn.row_factory = sqlite3.Row
        return conn


def _rank(row: sqlite3.Row) -> tuple[int, int, str]:
    ident = str(row["id"])
    digits = ident.rpartition("_")[2]
    band = SENIORITY_ORDER.get(row["seniority"], len(SENIORITY_ORDER))
    return band, int(digits) if digits.isdigit() else 0, ident


def _record(row: sqlite3.Row, zh: bool) -> ContactRecord:
    first, last, full = row["first_name"], row["last_name"], row["full_name"]
    if zh and row["full_name_zh"]:
        full = row["full_name_zh"]
        last, first = split_chinese_name(full)
    return ContactRecord(
        email=row["email"],
        status=row["email_status"],
        position=(row["title_zh"] if zh else None) or row["title"],
        first_name=first,
        last_name=last,
        full_name=full,
        linkedin_url=row["linkedin_url"],
        department=row["department"],
        seniority=row["seniority"],
    )


def split_chinese_name(full_name: str) -> tuple[str, str]:
    """Split a Chinese full name into (family name, given name); the family name comes first."""
    name = full_name.strip()
    if len(name) > 2 and name[:2] in _COMPOUND_SURNAMES:
        return name[:2], name[2:]
    return name[:1], name[1:]
