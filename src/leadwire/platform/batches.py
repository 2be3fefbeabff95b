"""A large write (an import's 100,000 rows) in batches of bounded size, each its own short transaction,
so that no writer of another account waits on it for longer than one batch.

On SQLite one transaction at a time holds the database's write lock, and the others wait in SQLite's
busy handler, which looks again after 1, 2, 5, 10, 15, 20, 25 ms and so on. A writer that began its
next batch as soon as the last one committed would take the lock again before any of them looked, so
between batches it steps aside for as long as the batch took (at least `MIN_PAUSE`): every writer
that began waiting during the batch looks again within that time and finds the lock free. PostgreSQL
locks rows, not the database, and needs no pause.

What the whole write means is its caller's: its rows count only once its record says it completed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from leadwire.platform.db import transaction

T = TypeVar("T")

MIN_PAUSE = 0.005


async def write_in_batches(
    maker: async_sessionmaker[AsyncSession],
    items: Sequence[T],
    write: Callable[[AsyncSession, Sequence[T]], Awaitable[None]],
    *,
    size: int,
) -> None:
    """`write(session, batch)` for each `size` items in order, each batch committed on its own."""
    for start in range(0, len(items), size):
        began = time.perf_counter()
        async with transaction(maker) as session:
            await write(session, items[start : start + size])
            single_writer = session.get_bind().dialect.name == "sqlite"
        if start + size < len(items):
            await step_aside(single_writer, time.perf_counter() - began)


async def step_aside(single_writer: bool, took: float) -> None:
    """Between two batches: on a single-writer database, the time the other writers need to look."""
    await asyncio.sleep(max(took, MIN_PAUSE) if single_writer else 0)


async def delete_in_batches(
    maker: async_sessionmaker[AsyncSession],
    delete_batch: Callable[[AsyncSession], Awaitable[int]],
    *,
    at_most: int,
) -> None:
    """`delete_batch(session)` (which deletes a bounded number of rows and says how many) again, each
    call committed on its own, until it deletes none, and at most `at_most` times."""
    for _ in range(at_most):
        began = time.perf_counter()
        async with transaction(maker) as session:
            deleted = await delete_batch(session)
            single_writer = session.get_bind().dialect.name == "sqlite"
        if not deleted:
            return
        await step_aside(single_writer, time.perf_counter() - began)
