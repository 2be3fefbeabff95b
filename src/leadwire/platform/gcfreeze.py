"""Keeping the garbage collector off the objects a server process builds once at start-up.

A process holds hundreds of thousands of long-lived objects after start-up (modules, the app's routes
and schemas, SQLAlchemy's mappers, the taxonomy). Each full collection walks all of them, which showed
as p99 spikes of ~100 ms under load. Freezing them once start-up is done moves them to a permanent
generation the collector never scans; what requests allocate is collected as before.
"""

from __future__ import annotations

import gc


def freeze_startup_heap() -> None:
    gc.collect()  # what start-up left as garbage is freed, not frozen
    gc.freeze()
