"""The list of capability slices: their routers and job modules, mounted by the app and the worker."""

from __future__ import annotations

import importlib

from fastapi import APIRouter

ROUTERS = (
    "leadwire.accounts.routes",
    "leadwire.credits.routes",
    "leadwire.platform.jobs.routes",
)
JOB_MODULES: tuple[str, ...] = ()


def routers(plugins: tuple[str, ...] = ()) -> list[APIRouter]:
    found = [importlib.import_module(name).router for name in ROUTERS]
    for name in plugins:
        router = getattr(importlib.import_module(name), "router", None)
        if router is not None:
            found.append(router)
    return found


def load_job_handlers(extra: tuple[str, ...] = ()) -> None:
    """Importing a jobs module registers its actions with the registry."""
    for name in (*JOB_MODULES, *extra):
        importlib.import_module(name)
