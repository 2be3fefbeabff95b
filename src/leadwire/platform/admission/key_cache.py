"""The per-process cache of API key records, and how a revocation empties it everywhere.

A key lookup costs more than the job read it guards, so each process keeps what it read about a key for
`auth_cache_seconds`. A revocation must not wait for that: `revoke_key` announces the key id on the
notifier's `leadwire_key` channel in its own transaction, and every process forgets the key when it
hears it — the revoking process itself on commit, the others through PostgreSQL's LISTEN (at once,
unless their listen connection is down, in which case the cache time still bounds it). On SQLite the
other processes of the same database (a CLI command, a separate worker) hear nothing: there the cache
time is the bound.
"""

from __future__ import annotations

import time
from typing import Any, Protocol


class KeyRecord(Protocol):
    @property
    def key_id(self) -> str: ...

    @property
    def fetched_at(self) -> float:
        """time.monotonic() when the record was read."""
        ...


class KeyCache:
    """Key records by the key's digest, each trusted for `ttl` seconds from when it was read."""

    def __init__(self, ttl: float, *, limit: int = 10_000) -> None:
        self.ttl = ttl
        self.limit = limit
        self._records: dict[str, Any] = {}
        self._forgotten = 0  # how many revocations this process has heard of

    @property
    def generation(self) -> int:
        """Taken before a key is read: `put` keeps the record only if no revocation came meanwhile (the
        read may have seen the key before the revocation committed)."""
        return self._forgotten

    def get(self, digest: str) -> Any | None:
        record = self._records.get(digest)
        if record is None or time.monotonic() - record.fetched_at >= self.ttl:
            return None
        return record

    def put(self, digest: str, record: KeyRecord, *, generation: int) -> None:
        if self.ttl <= 0 or generation != self._forgotten:
            return
        if len(self._records) >= self.limit:
            self._records.clear()
        self._records[digest] = record

    def forget(self, key_id: str) -> None:
        """Drop the key's record (its digest is not known here: a revocation names the key id)."""
        self._forgotten += 1
        stale = [digest for digest, record in self._records.items() if record.key_id == key_id]
        for digest in stale:
            del self._records[digest]

    def __len__(self) -> int:
        return len(self._records)
