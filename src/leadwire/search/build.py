"""Builds and refreshes the local search index of a sandbox world.

In ``world.db``: an external-content FTS5 table over the ``search_documents`` view
(documents plus their site context), kept in step by triggers; a CJK bigram table;
site contexts; and a log of changed documents. Beside it: embedding matrices named
by generation, with ``search_index.json`` pointing at the current one.
"""

from __future__ import annotations

import contextlib
import fcntl
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from leadwire.search import company_facts
from leadwire.search import embed as search_embed
from leadwire.search.company_facts import CompanyFacts
from leadwire.search.sites import (
    PageRef,
    pages_of_sites,
    site_host,
    site_roots,
    site_text,
    write_sites,
)
from leadwire.search.store import (
    CATEGORY_CODES,
    COARSE_DIM,
    IndexArrays,
    connect_world,
    load_arrays,
    read_manifest,
    write_arrays,
)
from leadwire.search.text import cjk_index_body, clip, first_passage, has_cjk

REFRESH_KINDS = frozenset({"documents", "companies", "world", "all"})
# Kinds whose change the dirty log already records (documents by their triggers, companies by theirs).
_INCREMENTAL_KINDS = frozenset({"documents", "companies"})
# Characters embedded per document: encoding cost grows with every token, and 100,000
# documents must embed in about a minute on two cores.
EMBED_CHARS = 64
_LOCK_NAME = "search_index.lock"

# A caller's progress: opens a named stage of `total` steps and gives the callback that advances it.
Stages = Callable[[str, int], AbstractContextManager[Callable[[int], None]]]

_FTS_COLUMNS = "title, text, category, domain, site"
_SITE_OF = """coalesce((SELECT s.context FROM search_doc_sites ds JOIN search_sites s ON s.host = ds.host
    WHERE ds.doc_rowid = {rowid}), '')"""
# A page of a known site gets that site's context at once; the next refresh corrects the rest.
_NEW_SITE_HOST = """SELECT new.rowid, host FROM search_sites
    WHERE (host = new.domain AND root_rowid != new.rowid)
       OR host = substr(new.domain, instr(new.domain, '.') + 1)
    ORDER BY length(host) DESC LIMIT 1"""
_NEW_SITE = _SITE_OF.format(rowid="new.rowid")
_NEW_VALUES = f"new.rowid, new.title, new.text, new.category, new.domain, {_NEW_SITE}"
_FTS_INSERT_NEW = f"INSERT INTO documents_fts(rowid, {_FTS_COLUMNS}) VALUES ({_NEW_VALUES});"
# FTS5 external content: a row is removed by repeating exactly the values it was indexed with.
_FTS_DELETE_OLD = f"""INSERT INTO documents_fts(documents_fts, rowid, {_FTS_COLUMNS})
            VALUES ('delete', old.rowid, old.title, old.text, old.category, old.domain,
                    {_SITE_OF.format(rowid="old.rowid")});"""

_SCHEMA = [
    "CREATE TABLE search_sites (host TEXT PRIMARY KEY, root_rowid INTEGER NOT NULL, context TEXT NOT NULL)",
    # Which site's context each page was indexed with: deleting it from FTS5 needs exactly that text.
    "CREATE TABLE search_doc_sites (doc_rowid INTEGER PRIMARY KEY, host TEXT NOT NULL)",
    f"""CREATE VIEW search_documents AS
        SELECT d.rowid AS doc_rowid, d.title, d.text, d.category, d.domain,
               {_SITE_OF.format(rowid="d.rowid")} AS site
        FROM documents d""",
    f"""CREATE VIRTUAL TABLE documents_fts USING fts5(
        {_FTS_COLUMNS}, content='search_documents', content_rowid='doc_rowid',
        tokenize='porter unicode61 remove_diacritics 2')""",
    "CREATE VIRTUAL TABLE documents_cjk USING fts5(body, tokenize='unicode61')",
    "CREATE TABLE search_dirty (id INTEGER PRIMARY KEY AUTOINCREMENT, doc_rowid INTEGER NOT NULL)",
    # Triggers keep the lexical index exact for any writer, and log what the vectors must catch up on.
    f"""CREATE TRIGGER documents_search_ai AFTER INSERT ON documents BEGIN
        INSERT OR REPLACE INTO search_doc_sites(doc_rowid, host) {_NEW_SITE_HOST};
        {_FTS_INSERT_NEW}
        INSERT INTO search_dirty(doc_rowid) VALUES (new.rowid);
    END""",
    f"""CREATE TRIGGER documents_search_ad AFTER DELETE ON documents BEGIN
        {_FTS_DELETE_OLD}
        DELETE FROM search_doc_sites WHERE doc_rowid = old.rowid;
        INSERT INTO search_dirty(doc_rowid) VALUES (old.rowid);
    END""",
    f"""CREATE TRIGGER documents_search_au AFTER UPDATE ON documents BEGIN
        {_FTS_DELETE_OLD}
        UPDATE search_doc_sites SET doc_rowid = new.rowid WHERE doc_rowid = old.rowid;
        {_FTS_INSERT_NEW}
        INSERT INTO search_dirty(doc_rowid) VALUES (old.rowid), (new.rowid);
    END""",
]

_DROP = [
    company_facts.DROP_TRIGGER,
    "DROP TRIGGER IF EXISTS documents_search_ai",
    "DROP TRIGGER IF EXISTS documents_search_ad",
    "DROP TRIGGER IF EXISTS documents_search_au",
    "DROP TABLE IF EXISTS documents_fts",
    "DROP TABLE IF EXISTS documents_cjk",
    "DROP VIEW IF EXISTS search_documents",
    "DROP TABLE IF EXISTS search_doc_sites",
    "DROP TABLE IF EXISTS search_sites",
    "DROP TABLE IF EXISTS search_dirty",
]


@dataclass(frozen=True, slots=True)
class SearchIndexStats:
    """What a build did and what it cost."""

    documents: int
    cjk_documents: int
    fts_seconds: float
    embed_seconds: float
    total_seconds: float
    bytes_on_disk: int

    def to_dict(self) -> dict[str, float | int]:
        return {
            "documents": self.documents,
            "cjk_documents": self.cjk_documents,
            "fts_seconds": round(self.fts_seconds, 3),
            "embed_seconds": round(self.embed_seconds, 3),
            "total_seconds": round(self.total_seconds, 3),
            "bytes_on_disk": self.bytes_on_disk,
        }


@dataclass(frozen=True, slots=True)
class _Doc:
    """A document as the index sees it: its page, category and site context."""

    page: PageRef
    category: str
    site: str
    country: str
    company: CompanyFacts


def build_search_index(world_dir: Path | str, progress: bool | Stages = True) -> SearchIndexStats:
    """(Re)build every search structure of the world in ``world_dir`` from its ``documents`` table.

    ``progress``: True shows a bar while embedding; ``Stages`` reports each step to the caller."""
    world_dir = Path(world_dir)
    started = time.perf_counter()
    stages = progress if callable(progress) else _unreported
    with _exclusive(world_dir), contextlib.closing(connect_world(world_dir)) as con:
        with stages("search index: reading", 1) as advance:
            for statement in _DROP + _SCHEMA + company_facts.triggers(con):
                con.execute(statement)
            docs = _read_all(con)
            advance(1)
        fts_started = time.perf_counter()
        with stages("search index: words", len(docs)) as advance:
            cjk_documents = _index_words(con, docs)
            advance(len(docs))
        fts_seconds = time.perf_counter() - fts_started
        embed_started = time.perf_counter()
        vectors = _embed(docs, progress=progress)
        embed_seconds = time.perf_counter() - embed_started
        arrays = IndexArrays.from_vectors(
            rowids=np.fromiter((d.page.rowid for d in docs), dtype=np.int64, count=len(docs)),
            vectors=vectors,
            categories=_category_codes(docs),
            countries=_countries(docs),
            projection=_projection(vectors),
            **_company_arrays(docs),
        )
        write_arrays(world_dir, arrays, previous=read_manifest(world_dir))
        con.execute("DELETE FROM search_dirty")
        con.commit()
    return SearchIndexStats(
        documents=len(docs),
        cjk_documents=cjk_documents,
        fts_seconds=fts_seconds,
        embed_seconds=embed_seconds,
        total_seconds=time.perf_counter() - started,
        bytes_on_disk=index_size_bytes(world_dir),
    )


def refresh_search_index(world_dir: Path | str, changed_kind: str = "documents") -> int:
    """Bring the index up to date after documents were added, changed or removed; returns documents redone.

    Words follow every write through the triggers; this corrects site contexts, and
    catches the CJK table and the vectors up with the change log. Kind ``world`` (or
    ``all``) rebuilds everything; so does any change to a world that was never indexed (an
    ingest of any kind into an empty data directory), so every ingest leaves a searchable world.
    """
    world_dir = Path(world_dir)
    if not (world_dir / "world.db").exists():
        return 0
    if not _index_present(world_dir):  # whatever was ingested: the world becomes searchable
        return build_search_index(world_dir, progress=False).documents
    if changed_kind not in REFRESH_KINDS:
        return 0
    if changed_kind not in _INCREMENTAL_KINDS or not _has_company_arrays(world_dir):
        # An index from before documents had NAICS classes: rebuild it whole rather than mix the two.
        return build_search_index(world_dir, progress=False).documents
    with _exclusive(world_dir), contextlib.closing(connect_world(world_dir)) as con:
        last, changed = _pending_changes(con)
        arrays = load_arrays(world_dir)
        if arrays is None or not changed:
            return 0
        hosts = _hosts_of(con, changed)
        redo = changed | _resync_sites(con, hosts)
        present = _read_docs(con, redo)
        _replace_cjk(con, redo, present)
        updated = arrays.replace_rows(
            removed=np.fromiter(redo, dtype=np.int64, count=len(redo)),
            rowids=np.fromiter((d.page.rowid for d in present), dtype=np.int64, count=len(present)),
            vectors=search_embed.encode([_embedding_text(d) for d in present]),
            categories=_category_codes(present),
            countries=_countries(present),
            **_company_arrays(present),
        )
        write_arrays(world_dir, updated, previous=read_manifest(world_dir))
        con.execute("DELETE FROM search_dirty WHERE id <= ?", (last,))
        con.commit()
        return len(changed)


def index_size_bytes(world_dir: Path) -> int:
    """Bytes of the vector files plus the pages of the index tables (dbstat when compiled in, else 0)."""
    manifest = read_manifest(world_dir) or {}
    files = manifest.get("files", {})
    size = sum((world_dir / name).stat().st_size for name in files.values() if (world_dir / name).exists())
    with contextlib.closing(connect_world(world_dir)) as con:
        try:
            row = con.execute(
                "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name LIKE 'documents_fts%' "
                "OR name LIKE 'documents_cjk%' OR name LIKE 'search_%'"
            ).fetchone()
            size += int(row[0])
        except sqlite3.Error:
            pass
    return size


# -- build steps ------------------------------------------------------------------------------


def _read_all(con: sqlite3.Connection) -> list[_Doc]:
    cursor = con.execute(
        "SELECT d.rowid, d.url, d.domain, d.title, d.text, d.category, d.country, "
        f"{company_facts.COLUMNS} FROM documents d {company_facts.join(con)} ORDER BY d.rowid"
    )
    rows = [
        (PageRef(int(r), u or "", d or "", t or "", x or ""), c or "", k or "", company)
        for r, u, d, t, x, c, k, *company in cursor
    ]
    roots = site_roots(row[0] for row in rows)
    docs = [
        _Doc(page, category, site_text(page, roots), country, CompanyFacts.of_row(company))
        for page, category, country, company in rows
    ]
    # Only sites whose context some page carries: a one-page site (most personal sites) lends nothing.
    used = {site_host(d.page.domain) for d in docs if d.site}
    write_sites(con, {host: root for host, root in roots.items() if host in used})
    return docs


def _index_words(con: sqlite3.Connection, docs: list[_Doc]) -> int:
    """Fill the FTS and CJK tables; returns how many documents have CJK text."""
    con.executemany(
        "INSERT INTO search_doc_sites(doc_rowid, host) VALUES (?, ?)",
        [(d.page.rowid, site_host(d.page.domain)) for d in docs if d.site],
    )
    con.execute("INSERT INTO documents_fts(documents_fts) VALUES ('rebuild')")
    con.execute("INSERT INTO documents_fts(documents_fts) VALUES ('optimize')")
    bodies = [(d.page.rowid, body) for d in docs if (body := _cjk_body(d))]
    con.executemany("INSERT INTO documents_cjk(rowid, body) VALUES (?, ?)", bodies)
    con.commit()
    return len(bodies)


def _cjk_body(doc: _Doc) -> str:
    parts = (doc.page.title, doc.page.text, doc.site)
    return cjk_index_body(*parts) if any(has_cjk(p) for p in parts) else ""


def _embedding_text(doc: _Doc) -> str:
    """Title, then the site's title (or, on a home page or a site without one, the page's opening).

    The site title usually says what the company does and where; a home page says it itself.
    """
    context = doc.site.split(". ", 1)[0] if doc.site else first_passage(doc.page.text, EMBED_CHARS)
    return clip(f"{doc.page.title}. {context}", EMBED_CHARS)


@contextlib.contextmanager
def _unreported(_name: str, _total: int) -> Iterator[Callable[[int], None]]:
    yield lambda _n: None


def _embed(docs: list[_Doc], *, progress: bool | Stages) -> np.ndarray:
    if callable(progress):
        with progress("search index: embeddings", len(docs)) as advance:
            return search_embed.encode_many([_embedding_text(d) for d in docs], progress=advance)
    texts = [_embedding_text(d) for d in docs]
    if not progress:
        return search_embed.encode_many(texts)
    from rich.progress import Progress

    with Progress(transient=False) as bar:
        task = bar.add_task("embedding documents", total=len(texts))
        return search_embed.encode_many(texts, progress=lambda n: bar.advance(task, n))


def _projection(vectors: np.ndarray) -> np.ndarray:
    """Top principal directions (uncentred) of the vectors: the coarse scan's 512 -> COARSE_DIM map.

    Taken from the eigenvectors of the 512 x 512 Gram matrix of a sample, which costs
    a fraction of a second where an SVD of the sample takes many.
    """
    dim = min(COARSE_DIM, vectors.shape[1])
    if len(vectors) < dim:
        return np.eye(vectors.shape[1], dim, dtype=np.float32)
    sample = vectors[:: max(1, len(vectors) // 20000)].astype(np.float64)
    eigenvalues, eigenvectors = np.linalg.eigh(sample.T @ sample)
    top = np.argsort(eigenvalues)[::-1][:dim]
    return np.ascontiguousarray(eigenvectors[:, top], dtype=np.float32)


def _countries(docs: list[_Doc]) -> np.ndarray:
    return np.array([d.country.upper().encode("ascii", "replace")[:2] for d in docs], dtype="S2")


def _has_company_arrays(world_dir: Path) -> bool:
    return "founded" in (read_manifest(world_dir) or {}).get("files", {})


def _company_arrays(docs: list[_Doc]) -> dict[str, np.ndarray]:
    classes = [company_facts.page_classes(d.company, d.page.title, d.page.text, d.site) for d in docs]
    return company_facts.arrays([d.company for d in docs], classes)


def _category_codes(docs: list[_Doc]) -> np.ndarray:
    return np.fromiter((CATEGORY_CODES.get(d.category, -1) for d in docs), dtype=np.int8, count=len(docs))


# -- refresh steps ----------------------------------------------------------------------------


def _index_present(world_dir: Path) -> bool:
    if read_manifest(world_dir) is None:
        return False
    with contextlib.closing(connect_world(world_dir)) as con:
        found = con.execute(
            "SELECT count(*) FROM sqlite_master "
            "WHERE name IN ('documents_fts', 'search_dirty', 'search_sites')"
        ).fetchone()
    return int(found[0]) == 3


def _pending_changes(con: sqlite3.Connection) -> tuple[int, set[int]]:
    rows = con.execute("SELECT id, doc_rowid FROM search_dirty ORDER BY id").fetchall()
    if not rows:
        return 0, set()
    return int(rows[-1][0]), {int(r[1]) for r in rows}


def _hosts_of(con: sqlite3.Connection, rowids: set[int]) -> set[str]:
    """Sites touched by the changed documents: those still present, and those whose home page went."""
    hosts = {site_host(d.page.domain) for d in _read_docs(con, rowids)}
    placeholders = ",".join("?" * len(rowids))
    gone = con.execute(f"SELECT host FROM search_sites WHERE root_rowid IN ({placeholders})", sorted(rowids))
    return hosts | {str(row[0]) for row in gone}


def _resync_sites(con: sqlite3.Connection, hosts: set[str]) -> set[int]:
    """Recompute the touched sites' contexts and re-index pages whose context changed; returns those pages.

    Every changed page leaves FTS5 with the context it was indexed with before the
    site table changes, then comes back with its new one.
    """
    pages = pages_of_sites(con, hosts)
    roots = site_roots(pages)
    before = _stored_sites(con, {p.rowid for p in pages})
    after = {p.rowid: site_text(p, roots) for p in pages}
    changed = [p.rowid for p in pages if after[p.rowid] != before.get(p.rowid, "")]
    for rowid in changed:
        _fts_write(con, rowid, before.get(rowid, ""), delete=True)
    con.executemany("DELETE FROM search_sites WHERE host = ?", [(h,) for h in sorted(hosts)])
    write_sites(con, {h: r for h, r in roots.items() if h in hosts})
    con.executemany("DELETE FROM search_doc_sites WHERE doc_rowid = ?", [(p.rowid,) for p in pages])
    con.executemany(
        "INSERT INTO search_doc_sites(doc_rowid, host) VALUES (?, ?)",
        [(p.rowid, site_host(p.domain)) for p in pages if after[p.rowid]],
    )
    for rowid in changed:
        _fts_write(con, rowid, after[rowid], delete=False)
    return set(changed)


def _stored_sites(con: sqlite3.Connection, rowids: set[int]) -> dict[int, str]:
    """The site context each page is indexed with now."""
    ordered = sorted(rowids)
    found: dict[int, str] = {}
    for start in range(0, len(ordered), 500):
        part = ordered[start : start + 500]
        cursor = con.execute(
            "SELECT ds.doc_rowid, s.context FROM search_doc_sites ds JOIN search_sites s ON s.host = ds.host "
            f"WHERE ds.doc_rowid IN ({','.join('?' * len(part))})",
            part,
        )
        found.update((int(r), str(c)) for r, c in cursor)
    return found


def _fts_write(con: sqlite3.Connection, rowid: int, site: str, *, delete: bool) -> None:
    """Add one page to FTS5 with the given site context, or take it out (which needs the indexed values)."""
    row = con.execute(
        "SELECT title, text, category, domain FROM documents WHERE rowid = ?", (rowid,)
    ).fetchone()
    if row is None:
        return
    if delete:
        con.execute(
            f"INSERT INTO documents_fts(documents_fts, rowid, {_FTS_COLUMNS}) "
            "VALUES ('delete', ?, ?, ?, ?, ?, ?)",
            (rowid, *row, site),
        )
    else:
        con.execute(
            f"INSERT INTO documents_fts(rowid, {_FTS_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)", (rowid, *row, site)
        )


def _read_docs(con: sqlite3.Connection, rowids: set[int]) -> list[_Doc]:
    ordered = sorted(rowids)
    docs: list[_Doc] = []
    joined = company_facts.join(con)
    for start in range(0, len(ordered), 500):
        part = ordered[start : start + 500]
        cursor = con.execute(
            "SELECT d.rowid, d.url, d.domain, d.title, d.text, d.category, "
            f"{_SITE_OF.format(rowid='d.rowid')}, d.country, {company_facts.COLUMNS} FROM documents d "
            f"{joined} WHERE d.rowid IN ({','.join('?' * len(part))}) ORDER BY d.rowid",
            part,
        )
        docs.extend(
            _Doc(
                PageRef(int(r), u or "", d or "", t or "", x or ""),
                c or "",
                site,
                k or "",
                CompanyFacts.of_row(co),
            )
            for r, u, d, t, x, c, site, k, *co in cursor
        )
    return docs


def _replace_cjk(con: sqlite3.Connection, rowids: set[int], present: list[_Doc]) -> None:
    ordered = sorted(rowids)
    for start in range(0, len(ordered), 500):
        part = ordered[start : start + 500]
        con.execute(f"DELETE FROM documents_cjk WHERE rowid IN ({','.join('?' * len(part))})", part)
    con.executemany(
        "INSERT INTO documents_cjk(rowid, body) VALUES (?, ?)",
        [(d.page.rowid, body) for d in present if (body := _cjk_body(d))],
    )


@contextlib.contextmanager
def _exclusive(world_dir: Path) -> Iterator[None]:
    """One builder or refresher per world at a time, across processes."""
    world_dir.mkdir(parents=True, exist_ok=True)
    with open(world_dir / _LOCK_NAME, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
