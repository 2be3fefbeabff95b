"""Work on a request's data too heavy for the event loop (checking a 100,000-line upload line by line takes
seconds of pure Python) run in a child process of this one.

A thread would not do: a thread that computes holds the GIL, and the event loop and the database
threads it waits on would each wait up to the switch interval for it at every step, so every request
of the process would slow down for as long as it runs. The child is started once per process on first
use (spawned, so it inherits no connection or lock of ours), runs at a lower priority (nice 10) so
that on a busy machine the server's requests take the CPU first, and is kept. It knows this process's error
catalogue, so a check there raises the same `ApiError`, which comes back to the caller as it was raised.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from leadwire.platform.errors import CATALOGUE, ErrorCode, register_errors

T = TypeVar("T")

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


async def in_child(work: Callable[..., T], *args: Any) -> T:
    """`work(*args)` in the child process. `work` is a module-level function and its arguments and
    result can be pickled. A child that died is replaced once."""
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(_executor(), functools.partial(work, *args))
    except BrokenProcessPool:
        _drop()
        return await loop.run_in_executor(_executor(), functools.partial(work, *args))


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            codes = tuple(CATALOGUE.declared(code) for code in CATALOGUE)
            _pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_child,
                initargs=(codes,),
            )
        return _pool


def _drop() -> None:
    global _pool
    with _lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


def _start_child(codes: tuple[ErrorCode, ...]) -> None:
    # Below the server in the CPU's queue: on a busy machine its requests go first.
    os.nice(10)
    register_errors(codes)
