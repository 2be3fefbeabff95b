"""Pool sizes for `leadwire cluster` that fit the PostgreSQL server it starts on.

Each process opens at most (docs/operations.md, "Connections"):

    2 × db_pool_size + db_read_pool_size + max(1, db_read_pool_size // 4) + 1 (LISTEN)
    + db_poll_pool_size          (API processes)
    + trade_pool_size            (workers, with the PostgreSQL trade store)

The defaults give 49 per API process and 41 per worker, 180 for the 2 + 2 of `make cluster`, while a
default server allows 100. The cluster asks the server for `max_connections` less its reserved slots,
keeps `HEADROOM` for admin commands, migrations and psql, and scales every pool the operator did not
set by one factor until the whole fits. Sizes the operator set are kept as they are; when those alone
do not fit, the plan says so and the caller decides.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

# Connections left for what is not a cluster process: `leadwire admin`, migrations, psql, monitoring.
HEADROOM = 10
# The pool settings the plan may size, with the environment variable that pins each.
SIZED = {
    "db_pool_size": "LEADWIRE_DB_POOL_SIZE",
    "db_read_pool_size": "LEADWIRE_DB_READ_POOL_SIZE",
    "db_poll_pool_size": "LEADWIRE_DB_POLL_POOL_SIZE",
    "trade_pool_size": "LEADWIRE_TRADE_POOL_SIZE",
}


@dataclass(frozen=True, slots=True)
class Sizes:
    db_pool_size: int
    db_read_pool_size: int
    db_poll_pool_size: int
    trade_pool_size: int

    def per_api(self) -> int:
        return self._common() + self.db_poll_pool_size

    def per_worker(self, *, trade_on_postgres: bool) -> int:
        return self._common() + (self.trade_pool_size if trade_on_postgres else 0)

    def _common(self) -> int:
        read = self.db_read_pool_size
        return 2 * self.db_pool_size + read + max(1, read // 4) + 1


@dataclass(frozen=True, slots=True)
class PoolPlan:
    sizes: Sizes
    total: int  # the most the cluster's processes hold at once
    budget: int  # what the server leaves them
    scaled: bool  # sizes were lowered from the settings to fit

    @property
    def fits(self) -> bool:
        return self.total <= self.budget

    def environment(self) -> dict[str, str]:
        """The variables that give each child these sizes."""
        return {env: str(getattr(self.sizes, name)) for name, env in SIZED.items()}

    def describe(self, *, max_connections: int, reserved: int) -> str:
        s = self.sizes
        head = (
            f"PostgreSQL allows {max_connections} connections ({reserved} reserved, {HEADROOM} kept free): "
            f"pools write {s.db_pool_size}, read {s.db_read_pool_size}, poll {s.db_poll_pool_size}"
        )
        verdict = "fits" if self.fits else "DOES NOT FIT: raise max_connections or lower the pool sizes"
        return f"{head}; at most {self.total} of {self.budget} ({verdict})"


def plan_pools(
    current: Sizes,
    *,
    api: int,
    workers: int,
    max_connections: int,
    reserved: int,
    pinned: Mapping[str, str],
    trade_on_postgres: bool,
) -> PoolPlan:
    """The largest sizes no bigger than `current` whose total fits the server; pools named in `pinned`
    (the environment) are never changed."""
    budget = max(0, max_connections - reserved - HEADROOM)

    def total(sizes: Sizes) -> int:
        return api * sizes.per_api() + workers * sizes.per_worker(trade_on_postgres=trade_on_postgres)

    if total(current) <= budget:
        return PoolPlan(current, total(current), budget, scaled=False)
    free = [name for name, env in SIZED.items() if env not in pinned]
    candidate = current
    for step in range(99, 0, -1):  # the factor falls by a hundredth until the whole fits
        factor = step / 100
        candidate = Sizes(
            **{
                name: max(1, math.floor(getattr(current, name) * factor))
                if name in free
                else getattr(current, name)
                for name in SIZED
            }
        )
        if total(candidate) <= budget:
            break
    return PoolPlan(candidate, total(candidate), budget, scaled=candidate != current)


async def server_limits(url: str, timeout: float) -> tuple[int, int]:
    """`max_connections` of the PostgreSQL server at `url`, and the slots it keeps for superusers (and,
    from PostgreSQL 16, for roles with pg_use_reserved_connections)."""
    import asyncpg
    from sqlalchemy.engine import make_url

    dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    connection = await asyncpg.connect(dsn, timeout=timeout)
    try:
        row = await connection.fetchrow(
            "SELECT current_setting('max_connections')::int, "
            "current_setting('superuser_reserved_connections')::int, "
            "coalesce(current_setting('reserved_connections', true), '0')::int"
        )
    finally:
        await connection.close()
    assert row is not None
    return int(row[0]), int(row[1]) + int(row[2])
