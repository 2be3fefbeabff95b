"""`leadwire ARGS`, with a report of where the process's memory is on SIGUSR2 (bench/stream_memory.py).

The report (one JSON line appended to $LEADWIRE_MEMORY_PROBE_OUT) separates the three places an API
process's RSS can sit after a burst, so a figure says which one grew:

- live Python objects: gc-tracked objects by type, and every block pymalloc holds (`sys.getallocatedblocks`);
- pymalloc's arenas (`sys._debugmallocstats`): memory Python keeps for small objects, in use or free
  inside arenas it cannot return while one block in them lives;
- glibc's heap (`mallinfo2`): large allocations (buffers over 512 bytes) in use, and freed bytes glibc
  keeps (`fordblks`), of which `malloc_trim` can give back the whole free pages.

Each report then trims the heap (`malloc_trim(0)`) and says the RSS before and after: what a trim
would give back at that moment.

    python bench/_memory_probe.py api --port 8000
"""

from __future__ import annotations

import collections
import ctypes
import gc
import json
import os
import re
import signal
import sys
import tempfile
import time
from pathlib import Path
from types import FrameType
from typing import Any

_MALLINFO2 = ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks")


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (*_MALLINFO2, "keepcost")]


def _glibc_heap() -> dict[str, float]:
    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = _MallInfo2
    info = libc.mallinfo2()
    mb = 1e6
    return {
        "heap_mb": info.arena / mb,  # bytes glibc has from the system in its heaps (sbrk and arenas)
        "mmapped_mb": info.hblkhd / mb,  # large blocks mmapped one by one (returned when freed)
        "in_use_mb": info.uordblks / mb,
        "free_mb": info.fordblks / mb,  # freed but kept in the heaps
        "trimmable_top_mb": info.keepcost / mb,
    }


def _pymalloc() -> dict[str, float]:
    """Parse `sys._debugmallocstats()` (written to the C stderr) for its arena totals."""
    with tempfile.TemporaryFile(mode="w+b") as capture:
        saved = os.dup(2)
        try:
            os.dup2(capture.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        capture.seek(0)
        text = capture.read().decode(errors="replace")

    def number(label: str) -> int:
        found = re.search(rf"^{re.escape(label)}\s*=\s*([\d,]+)", text, re.MULTILINE)
        return int(found.group(1).replace(",", "")) if found else -1

    mb = 1e6
    return {
        "arenas_now": number("# arenas allocated current"),
        "arenas_highest": number("# arenas highwater mark"),
        "arena_mb": number("# bytes in allocated blocks") / mb + number("# bytes in available blocks") / mb,
        "in_blocks_mb": number("# bytes in allocated blocks") / mb,
        "free_in_arenas_mb": (number("# bytes in available blocks") + number("# bytes in unused pools")) / mb,
        "total_mb": number("Total") / mb,
    }


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024 / 1e6
    return -1.0


def report(_signum: int = 0, _frame: FrameType | None = None) -> None:
    gc.collect()
    rss_before_trim = _rss_mb()
    trimmed = bool(ctypes.CDLL("libc.so.6").malloc_trim(0))  # what a trim would give back, measured
    types = collections.Counter(type(o).__name__ for o in gc.get_objects())
    found: dict[str, Any] = {
        "at": time.time(),
        "rss_mb": rss_before_trim,
        "rss_after_trim_mb": _rss_mb(),
        "trim_released": trimmed,
        "gc_objects": sum(types.values()),
        "top_types": types.most_common(12),
        "allocated_blocks": sys.getallocatedblocks(),
        "pymalloc": _pymalloc(),
        "glibc": _glibc_heap(),
    }
    with open(os.environ["LEADWIRE_MEMORY_PROBE_OUT"], "a", encoding="utf-8") as out:
        out.write(json.dumps(found) + "\n")


if __name__ == "__main__":
    from leadwire.cli import main

    signal.signal(signal.SIGUSR2, report)
    sys.argv = ["leadwire", *sys.argv[1:]]
    main()
