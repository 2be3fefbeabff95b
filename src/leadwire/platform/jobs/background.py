"""Background tasks a worker runs beside its jobs, declared by capabilities (`Capability.background`):
work that is not a job of an account, like delivering webhooks from their outbox.

A task runs for the life of the worker and ends when `stopping` is set; the worker cancels it after its
grace period. Its work must be durable on its own (leases in its tables), since a killed worker takes a
task down mid-step without warning. A change that gives a task new work publishes `WORK_CHANNEL` with
the task's name, so the task need not poll quickly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from leadwire.platform.runtime import Runtime


@dataclass(frozen=True)
class BackgroundTask:
    name: str
    run: Callable[[Runtime, asyncio.Event], Coroutine[Any, Any, None]]


_tasks: dict[str, BackgroundTask] = {}


def register_background(task: BackgroundTask) -> None:
    existing = _tasks.get(task.name)
    if existing is not None and existing is not task:
        raise ValueError(f"background task {task.name} registered twice")
    _tasks[task.name] = task


def background_tasks() -> list[BackgroundTask]:
    return list(_tasks.values())
