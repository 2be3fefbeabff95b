"""The list of capability slices: their routers and job modules, mounted by the app and the worker."""

from __future__ import annotations

import importlib

from fastapi import APIRouter

from leadwire.platform.runtime import Runtime
from leadwire.providers.registry import build_providers

ROUTERS = (
    "leadwire.accounts.routes",
    "leadwire.credits.routes",
    "leadwire.platform.jobs.routes",
    "leadwire.research.routes",
)
JOB_MODULES: tuple[str, ...] = ("leadwire.research.jobs",)


def routers(plugins: tuple[str, ...] = ()) -> list[APIRouter]:
    found = [importlib.import_module(name).router for name in ROUTERS]
    for name in plugins:
        router = getattr(importlib.import_module(name), "router", None)
        if router is not None:
            found.append(router)
    return found


def install_services(runtime: Runtime) -> None:
    """The provider adapters job handlers reach through `ctx.service(name)`."""
    runtime.services.update(build_providers(runtime.settings))


def load_job_handlers(extra: tuple[str, ...] = ()) -> None:
    """Importing a jobs module registers its actions with the registry."""
    for name in (*JOB_MODULES, *extra):
        importlib.import_module(name)
