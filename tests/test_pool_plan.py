"""`leadwire cluster`'s pool sizes: the defaults where they fit, scaled by one factor where they do not,
sizes the operator set kept, and the server's real limits read from PostgreSQL."""

from __future__ import annotations

from leadwire.config import Settings
from leadwire.pool_plan import HEADROOM, Sizes, plan_pools, server_limits

DEFAULTS = Sizes(db_pool_size=10, db_read_pool_size=16, db_poll_pool_size=8, trade_pool_size=8)


def test_the_documented_per_process_figures() -> None:
    assert DEFAULTS.per_api() == 49  # docs/operations.md: 41 + 8 per API process
    assert DEFAULTS.per_worker(trade_on_postgres=False) == 41
    assert DEFAULTS.per_worker(trade_on_postgres=True) == 49


def test_the_settings_defaults_are_the_ones_planned_from() -> None:
    settings = Settings()
    assert (
        Sizes(
            settings.db_pool_size,
            settings.db_read_pool_size,
            settings.db_poll_pool_size,
            settings.trade_pool_size,
        )
        == DEFAULTS
    )


def test_defaults_that_fit_a_large_server_are_kept() -> None:
    plan = plan_pools(
        DEFAULTS, api=2, workers=2, max_connections=500, reserved=3, pinned={}, trade_on_postgres=False
    )
    assert plan.sizes == DEFAULTS and not plan.scaled and plan.fits and plan.total == 180


def test_a_default_server_gets_pools_scaled_down_to_fit() -> None:
    plan = plan_pools(
        DEFAULTS, api=2, workers=2, max_connections=100, reserved=3, pinned={}, trade_on_postgres=True
    )
    assert plan.scaled and plan.fits and plan.budget == 100 - 3 - HEADROOM
    assert plan.budget * 0.8 < plan.total <= plan.budget  # scaled to use the budget, not to a floor
    s = plan.sizes
    assert all(1 <= getattr(s, n) <= getattr(DEFAULTS, n) for n in ("db_pool_size", "db_read_pool_size"))
    assert plan.environment()["LEADWIRE_DB_POOL_SIZE"] == str(s.db_pool_size)


def test_sizes_the_operator_set_are_kept_even_when_the_rest_must_shrink() -> None:
    plan = plan_pools(
        DEFAULTS,
        api=2,
        workers=2,
        max_connections=100,
        reserved=3,
        pinned={"LEADWIRE_DB_POLL_POOL_SIZE": "8"},
        trade_on_postgres=False,
    )
    assert plan.sizes.db_poll_pool_size == 8 and plan.sizes.db_pool_size < 10 and plan.fits


def test_a_server_too_small_for_the_processes_says_so() -> None:
    plan = plan_pools(
        DEFAULTS, api=8, workers=8, max_connections=40, reserved=3, pinned={}, trade_on_postgres=False
    )
    assert not plan.fits
    assert plan.sizes == Sizes(1, 1, 1, 1)
    assert "DOES NOT FIT" in plan.describe(max_connections=40, reserved=3)


async def test_the_limits_are_read_from_the_server(pg_database: str) -> None:
    max_connections, reserved = await server_limits(pg_database, timeout=10)
    assert max_connections >= 20 and 0 <= reserved < max_connections
