"""Giving freed memory back to the operating system after a burst (glibc's `malloc_trim`).

A storm of streams grows a process's heap by the buffers of each connection (uvicorn's and h11's,
sse-starlette's queues and tasks). When they end, Python frees them, but glibc keeps the freed pages in
the process unless the top of the heap is free, so the process stays at its high-water mark. Trimming
returns every freed page. Elsewhere than glibc (musl, macOS) it does nothing."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
import logging

log = logging.getLogger("leadwire.heap")


@functools.cache
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
        libc.malloc_trim.restype = ctypes.c_int
    except (OSError, AttributeError):  # not glibc: no malloc_trim
        return None
    return libc


def trim() -> bool:
    """Return the heap's free pages to the system; True when glibc released some."""
    libc = _libc()
    return bool(libc is not None and libc.malloc_trim(0))


def collect_and_trim() -> bool:
    """Collect the cyclic garbage a burst left (its connections' and tasks' cycles are freed only by
    the collector), then trim: a trim before the collection finds the burst's memory still in use."""
    gc.collect()
    return trim()
