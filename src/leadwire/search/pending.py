"""Which documents were written since the index arrays were: the refresh's queue (`search_dirty`, filled
by the world's triggers, emptied by `refresh_search_index`). What the arrays hold of those rows (their
category, country, vector) may be stale, so a search reads them from the documents table instead."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

import numpy as np

NO_ROWS = np.zeros(0, dtype=np.int64)


@dataclass(slots=True)
class PendingChanges:
    """The queued rowids, read again only when the queue has grown or been emptied (its last id moved:
    ids are never reused)."""

    # (the last queue id seen, the rowids queued then): replaced whole, so a concurrent search sees
    # the old pair or the new one.
    _seen: tuple[int | None, np.ndarray] = field(default=(-1, NO_ROWS))

    def rowids(self, con: sqlite3.Connection) -> np.ndarray:
        try:
            (last,) = con.execute("SELECT max(id) FROM search_dirty").fetchone()
        except sqlite3.OperationalError:  # a world indexed before the queue existed
            return NO_ROWS
        seen, rowids = self._seen
        if last != seen:
            rows = con.execute("SELECT doc_rowid FROM search_dirty").fetchall()
            rowids = np.unique(np.array(rows, dtype=np.int64).reshape(-1))
            self._seen = (last, rowids)
        return rowids
