"""On-disk layout of the search index's vectors, shared by the builder and the reader.

Each write is a new generation of ``.npy`` files; ``search_index.json`` is replaced last,
so a reader either sees the old generation whole or the new one whole.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from leadwire.search.embed import EMBEDDING_DIM, MODEL_NAME

MANIFEST_NAME = "search_index.json"
COARSE_DIM = 128
CATEGORY_CODES: dict[str, int] = {
    "company": 0,
    "news": 1,
    "financial report": 2,
    "people": 3,
    "personal site": 4,
}
_ARRAYS = (
    "rowids",
    "vectors",
    "coarse",
    "coarse_rows",
    "categories",
    "countries",
    "projection",
    "industries",
    "industry_weights",
    "employees",
    "founded",
)
# Arrays a generation written before they existed may lack; read as "no class known".
# The coarse map grouped by country is stored under a key of its own: a reader from before the grouping
# finds no `coarse` and searches by words alone, instead of pairing the lines with the wrong rows.
_GROUPED_COARSE = "coarse_by_country"
_OPTIONAL = frozenset({"industries", "industry_weights", "employees", "founded", "coarse_rows"})
INDUSTRY_SLOTS = 8  # generations written with fewer slots are widened when rows are replaced


def _widened(array: np.ndarray, empty: bytes | float) -> np.ndarray:
    """A per-slot array of an older generation, padded to ``INDUSTRY_SLOTS`` columns."""
    if array.shape[1] >= INDUSTRY_SLOTS:
        return np.asarray(array)
    out = np.full((array.shape[0], INDUSTRY_SLOTS), empty, dtype=array.dtype)
    out[:, : array.shape[1]] = array
    return out


def connect_world(world_dir: Path, *, readonly: bool = False) -> sqlite3.Connection:
    """A connection to ``world.db`` that waits for writers instead of failing."""
    path = Path(world_dir) / "world.db"
    if readonly:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30, check_same_thread=False)
    else:
        con = sqlite3.connect(path, timeout=30)
    con.execute("PRAGMA busy_timeout = 30000")
    return con


@dataclass(frozen=True, slots=True, weakref_slot=True)
class RowFile:
    """A memory-mapped 2-D array's file, read a few rows at a time with ``pread``.

    A search reads the full vectors of a few hundred candidates. Through the mapping, each of those
    reads maps in the page cache's whole folio around the row (a megabyte or more on current
    kernels), and within a few searches the process holds the entire file as resident memory; a read
    copies just the rows. The handle stays open with its generation (closed when the generation is
    let go), so a refresh that unlinks the file does not cut a search still reading it."""

    handle: BinaryIO
    offset: int
    dtype: np.dtype[Any]
    width: int  # values per row

    @classmethod
    def of(cls, array: np.ndarray, handle: BinaryIO) -> RowFile | None:
        """`array`'s rows read from `handle`, its file opened before it was mapped; None (and the handle
        closed) when `array` is not a row-major 2-D mapping."""
        if not isinstance(array, np.memmap) or array.ndim != 2 or not array.flags.c_contiguous:
            handle.close()
            return None
        row_file = cls(handle, array.offset, array.dtype, array.shape[1])
        weakref.finalize(row_file, handle.close)
        return row_file

    def read(self, rows: np.ndarray) -> np.ndarray:
        out = np.empty((len(rows), self.width), dtype=self.dtype)
        if len(rows) == 0:
            return out
        size = self.width * self.dtype.itemsize
        view = out.data.cast("B")
        fd = self.handle.fileno()
        for i, row in enumerate(rows.tolist()):
            if os.preadv(fd, [view[i * size : (i + 1) * size]], self.offset + row * size) != size:
                raise ValueError(f"row {row} is past the end of {self.handle.name}")
        return out


@dataclass(frozen=True, slots=True)
class IndexArrays:
    """Vectors of the indexed documents, rows sorted by document rowid."""

    rowids: np.ndarray  # (n,) int64, ascending
    vectors: np.ndarray  # (n, 512) float16, L2-normalised
    # (n, COARSE_DIM) float32: vectors @ projection, its lines grouped by country (``coarse_rows``), so
    # that a query naming a country scans one contiguous slice instead of every document.
    coarse: np.ndarray
    categories: np.ndarray  # (n,) int8, CATEGORY_CODES or -1
    countries: np.ndarray  # (n,) S2, the document's subject country (alpha-2) or b""
    projection: np.ndarray  # (512, COARSE_DIM) float32
    industries: np.ndarray  # (n, INDUSTRY_SLOTS) S6: NAICS classes, strongest first, b"" when fewer
    industry_weights: np.ndarray  # (n, INDUSTRY_SLOTS) float32, 0..1
    employees: np.ndarray  # (n,) int32: the page's company's head count, -1 unknown
    founded: np.ndarray  # (n,) int16: its founding year, -1 unknown
    # (n,) int32: the row of each line of ``coarse``; None in a generation written before lines were
    # grouped (its lines are the rows).
    coarse_rows: np.ndarray | None = None
    vector_file: RowFile | None = None  # ``vectors``' file, for reading a few rows (see RowFile)

    def vector_rows(self, rows: np.ndarray) -> np.ndarray:
        """The full vectors of the given rows, float32."""
        if self.vector_file is not None:
            return self.vector_file.read(rows).astype(np.float32)
        return np.asarray(self.vectors[rows], dtype=np.float32)

    @classmethod
    def from_vectors(
        cls,
        *,
        rowids: np.ndarray,
        vectors: np.ndarray,
        categories: np.ndarray,
        countries: np.ndarray,
        projection: np.ndarray,
        industries: np.ndarray,
        industry_weights: np.ndarray,
        employees: np.ndarray,
        founded: np.ndarray,
    ) -> IndexArrays:
        order = np.argsort(rowids, kind="stable")
        countries = np.asarray(countries[order], dtype="S2")
        lines = np.argsort(countries, kind="stable")  # rows grouped by country, by rowid within one
        return cls(
            rowids=np.asarray(rowids[order], dtype=np.int64),
            vectors=np.asarray(vectors[order], dtype=np.float16),
            coarse=np.asarray(vectors[order[lines]], dtype=np.float32) @ projection,
            coarse_rows=lines.astype(np.int32),
            categories=np.asarray(categories[order], dtype=np.int8),
            countries=countries,
            projection=projection,
            industries=np.asarray(industries[order], dtype="S6").reshape(-1, INDUSTRY_SLOTS),
            industry_weights=np.asarray(industry_weights[order], dtype=np.float32).reshape(
                -1, INDUSTRY_SLOTS
            ),
            employees=np.asarray(employees[order], dtype=np.int32),
            founded=np.asarray(founded[order], dtype=np.int16),
        )

    def replace_rows(
        self,
        *,
        removed: np.ndarray,
        rowids: np.ndarray,
        vectors: np.ndarray,
        categories: np.ndarray,
        countries: np.ndarray,
        industries: np.ndarray,
        industry_weights: np.ndarray,
        employees: np.ndarray,
        founded: np.ndarray,
    ) -> IndexArrays:
        """A copy without the ``removed`` rowids and with the given rows added (or replaced)."""
        keep = ~np.isin(self.rowids, np.concatenate([removed, rowids]))
        return IndexArrays.from_vectors(
            rowids=np.concatenate([self.rowids[keep], rowids]),
            vectors=np.concatenate([np.asarray(self.vectors[keep], dtype=np.float32), vectors]),
            categories=np.concatenate([self.categories[keep], categories]),
            countries=np.concatenate([self.countries[keep], countries.astype("S2")]),
            projection=self.projection,
            industries=np.concatenate([_widened(self.industries[keep], b""), industries.astype("S6")]),
            industry_weights=np.concatenate([_widened(self.industry_weights[keep], 0.0), industry_weights]),
            employees=np.concatenate([self.employees[keep], employees]),
            founded=np.concatenate([self.founded[keep], founded]),
        )

    def countries_of(self, rowids: np.ndarray) -> np.ndarray:
        """Subject country of each rowid (b"" for one without a vector yet)."""
        if len(self.rowids) == 0:
            return np.full(len(rowids), b"", dtype="S2")
        at, present = locate(self.rowids, rowids)
        return np.where(present, self.countries[at], b"")


def locate(sorted_rowids: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each wanted rowid's index in `sorted_rowids`, and whether it is there at all (where it is not,
    the index points at some other row: read through it only where present)."""
    known = np.asarray(sorted_rowids)
    if len(known) == 0:
        return np.zeros(len(wanted), dtype=np.int64), np.zeros(len(wanted), dtype=bool)
    at = np.minimum(np.searchsorted(known, wanted), len(known) - 1)
    return at, known[at] == wanted


def read_manifest(world_dir: Path) -> dict[str, Any] | None:
    path = Path(world_dir) / MANIFEST_NAME
    try:
        data = json.loads(path.read_text())
    except (FileNotFoundError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_arrays(world_dir: Path, arrays: IndexArrays, previous: dict[str, Any] | None) -> dict[str, Any]:
    """Write a new generation and point the manifest at it; the previous generation's files go."""
    generation = int(previous.get("generation", 0)) + 1 if previous else 1
    files: dict[str, str] = {}
    for name in _ARRAYS:
        if getattr(arrays, name) is None:
            continue
        key = _GROUPED_COARSE if name == "coarse" and arrays.coarse_rows is not None else name
        filename = f"search_{key}.g{generation}.npy"
        tmp = world_dir / (filename + ".tmp")
        with open(tmp, "wb") as handle:
            np.save(handle, getattr(arrays, name))
        os.replace(tmp, world_dir / filename)
        files[key] = filename
    manifest = {
        "generation": generation,
        "count": len(arrays.rowids),
        "dim": EMBEDDING_DIM,
        "coarse_dim": int(arrays.projection.shape[1]),
        "model": MODEL_NAME,
        "written_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "files": files,
    }
    tmp_manifest = world_dir / (MANIFEST_NAME + ".tmp")
    tmp_manifest.write_text(json.dumps(manifest, indent=2))
    os.replace(tmp_manifest, world_dir / MANIFEST_NAME)
    # Readers that mapped the old files keep them until they let go; unlinking is safe on POSIX.
    for name in (previous or {}).get("files", {}).values():
        if name not in files.values():
            (world_dir / name).unlink(missing_ok=True)
    return manifest


def load_arrays(world_dir: Path, manifest: dict[str, Any] | None = None) -> IndexArrays | None:
    """Memory-map the current generation; None when there is no index (or it vanished mid-read)."""
    manifest = manifest if manifest is not None else read_manifest(world_dir)
    if manifest is None:
        return None
    files = dict(manifest.get("files", {}))
    if _GROUPED_COARSE in files:
        files["coarse"] = files.pop(_GROUPED_COARSE)
    try:
        vectors = Path(world_dir) / files["vectors"]
        handle: BinaryIO = open(vectors, "rb", buffering=0)  # noqa: SIM115 - kept open with the generation
    except (KeyError, OSError):
        return None
    try:
        loaded = {
            name: np.load(Path(world_dir) / files[name], mmap_mode="r")
            for name in _ARRAYS
            if name in files or name not in _OPTIONAL
        }
        if os.fstat(handle.fileno()).st_ino != os.stat(vectors).st_ino:
            raise FileNotFoundError(vectors)  # replaced between the open and the mapping
    except (KeyError, OSError, ValueError):
        handle.close()
        return None
    loaded["vector_file"] = RowFile.of(loaded["vectors"], handle)
    count = len(loaded["rowids"])
    loaded.setdefault("industries", np.zeros((count, INDUSTRY_SLOTS), dtype="S6"))
    loaded.setdefault("industry_weights", np.zeros((count, INDUSTRY_SLOTS), dtype=np.float32))
    loaded.setdefault("employees", np.full(count, -1, dtype=np.int32))
    loaded.setdefault("founded", np.full(count, -1, dtype=np.int16))
    return IndexArrays(**loaded)
