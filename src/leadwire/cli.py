"""The `leadwire` command: serve, api, worker, cluster, migrate and sandbox commands; `admin` is
`leadwire/admin_cli.py`."""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from enum import StrEnum
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
import typer.main
from typer.core import TyperGroup

from leadwire.admin_cli import admin_app, install_capabilities
from leadwire.admin_cli import emit as _emit
from leadwire.admin_cli import fail as _fail
from leadwire.config import Settings, load_settings
from leadwire.sandbox import cli as sandbox_cli

if TYPE_CHECKING:
    from leadwire.sandbox.background import WorldBuild

# The client's commands (outreach, customs, websets, research, jobs, credits, webhooks, keys, imports,
# suppressions, sending, enrichments, monitors) bring the SDK and httpx: they are imported when one of
# them runs (or help lists them), so `leadwire worker` and `leadwire api` start without them.
_CLIENT_COMMANDS = {
    "outreach": ("leadwire.client.cli", "outreach_app"),
    "customs": ("leadwire.client.customs_cli", "customs_app"),
    "websets": ("leadwire.client.websets_cli", "websets_app"),
    "research": ("leadwire.client.research_cli", "research_app"),
    "jobs": ("leadwire.client.jobs_cli", "jobs_app"),
    "credits": ("leadwire.client.credits_cli", "credits_app"),
    "webhooks": ("leadwire.client.webhooks_cli", "webhooks_app"),
    "keys": ("leadwire.client.keys_cli", "keys_app"),
    "imports": ("leadwire.client.imports_cli", "imports_app"),
    "suppressions": ("leadwire.client.suppressions_cli", "suppressions_app"),
    "sending": ("leadwire.client.sending_cli", "sending_app"),
    "enrichments": ("leadwire.client.enrichments_cli", "enrichments_app"),
    "monitors": ("leadwire.client.monitors_cli", "monitors_app"),
}


class _Commands(TyperGroup):
    # Typer vendors click (`typer._click`): the context and command types stay unnamed here.
    def list_commands(self, ctx: Any) -> list[str]:
        listed = super().list_commands(ctx)
        return [*listed, *(name for name in _CLIENT_COMMANDS if name not in listed)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name in _CLIENT_COMMANDS and cmd_name not in self.commands:
            module, attribute = _CLIENT_COMMANDS[cmd_name]
            command = typer.main.get_group(getattr(importlib.import_module(module), attribute))
            command.name = cmd_name
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)


app = typer.Typer(
    cls=_Commands,
    add_completion=False,
    no_args_is_help=True,
    help="Leadwire: outreach, discovery and trade data API.",
)
app.add_typer(admin_app, name="admin")

app.add_typer(sandbox_cli.sandbox_app, name="sandbox", help="Build the offline sandbox world.")
app.add_typer(
    sandbox_cli.ingest_app,
    name="ingest",
    help="Ingest your own companies, people, documents, posts or customs shipments.",
)


class OutboxChannel(StrEnum):  # an Enum, not a Literal: Typer takes lists of Enums only
    email = "email"
    linkedin = "linkedin"
    whatsapp = "whatsapp"
    linkedin_likes = "linkedin_likes"


OUTBOX_CHANNELS = tuple(channel.value for channel in OutboxChannel)
Host = typer.Option(None, help="Address to listen on (default: LEADWIRE_HOST, 127.0.0.1).")
Port = typer.Option(None, help="Port to listen on (default: LEADWIRE_PORT, 8000).")
Concurrency = typer.Option(
    None, min=1, max=256, help="Jobs a worker runs at once (default: LEADWIRE_WORKER_CONCURRENCY, 4)."
)


def _version_shown(shown: bool) -> None:
    if shown:
        try:
            typer.echo(f"leadwire {version('leadwire')}")
        except PackageNotFoundError:  # run from a source tree that was never installed
            typer.echo("leadwire (not installed: no package metadata)")
        raise typer.Exit()


@app.callback()
def _root(
    _version: bool = typer.Option(
        False, "--version", is_eager=True, callback=_version_shown, help="Print the version and exit."
    ),
) -> None:
    """Leadwire: outreach, discovery and trade data API."""


# Registered here, not in sandbox/cli.py: the trade store lives in providers, which the sandbox layer may
# not import (the architecture contract in pyproject.toml).
@sandbox_cli.ingest_app.command("shipments")
def ingest_shipments(
    file: Path = typer.Argument(..., help="A .csv or .parquet file (columns: see trade_schema.COLUMNS)."),
    data_dir: Path | None = sandbox_cli.DataDir,
) -> None:
    """Upsert customs shipments by id into the trade store ($LEADWIRE_TRADE_STORE: duckdb or postgres)."""
    from leadwire.providers.trade_ingest import ingest_shipments as ingest

    settings = Settings()
    world_dir = data_dir / "world" if data_dir is not None else settings.resolved_world_dir
    try:
        report = ingest(
            file,
            store=settings.trade_store,
            world_dir=world_dir,
            database_url=settings.resolved_trade_database_url,
        )
    except ValueError as exc:  # a configuration problem (store, database URL)
        _fail(str(exc))
        return
    sandbox_cli.emit_ingest_report(report, file)


@sandbox_cli.sandbox_app.command("outbox")
def sandbox_outbox(
    channel: list[OutboxChannel] = typer.Option(
        [], "--channel", help=f"one of {', '.join(OUTBOX_CHANNELS)} (repeatable; default all)"
    ),
    limit: int = typer.Option(20, "--limit", min=1, help="the newest N records"),
) -> None:
    """What the sandbox accounts delivered (JSON Lines, oldest first): messages, invitations, likes."""
    from leadwire.providers.sandbox_channels import Outbox

    outbox = Outbox(load_settings().data_dir)
    names = [c.value for c in channel] or OUTBOX_CHANNELS
    records = [{"channel": name, **record} for name in names for record in outbox.read(name)]
    records.sort(key=lambda r: str(r.get("sent_at") or r.get("liked_at") or ""))
    for record in records[-limit:]:
        typer.echo(json.dumps(record, ensure_ascii=False))


def _prepare(settings: Settings) -> None:
    from leadwire.platform.logging import configure_logging

    configure_logging(settings.log_level)
    settings.ensure_data_dir()
    install_capabilities(settings)


def _migrate(settings: Settings) -> None:
    from leadwire.platform.migrate import upgrade

    upgrade(settings.resolved_database_url)


@app.command()
def migrate() -> None:
    """Apply database migrations."""
    settings = load_settings()
    _prepare(settings)
    _migrate(settings)
    _emit({"migrated": True, "database": settings.resolved_database_url.split("://")[0]})


@app.command()
def serve(
    host: str | None = Host,
    port: int | None = Port,
    build_world: bool = typer.Option(
        True, help="Build the sandbox world on first start (in a separate process; jobs wait for it)."
    ),
) -> None:
    """One process: migrate, bootstrap the demo account, serve API + worker. On first start the
    sandbox world builds in a separate process meanwhile; jobs wait queued until it is ready."""
    settings = load_settings()
    _prepare(settings)
    _migrate(settings)
    demo = asyncio.run(_bootstrap_demo(settings))
    _announce_demo(settings, demo, host or settings.host, port or settings.port)
    world = None
    if build_world:
        from leadwire.sandbox.background import WorldBuild

        world = WorldBuild(
            settings.resolved_world_dir, seed=settings.sandbox_seed, size=settings.sandbox_size
        )
    try:
        _run_server(settings, host, port, in_process_worker=True, world_build=world)
    finally:
        if world is not None:
            world.stop()


@app.command()
def api(
    host: str | None = Host,
    port: int | None = Port,
    fd: int | None = typer.Option(
        None, help="Accept on this inherited listening socket (`leadwire cluster`)."
    ),
) -> None:
    """A stateless API process (scale out: run several, plus `leadwire worker`)."""
    settings = load_settings()
    _prepare(settings)
    _run_server(settings, host, port, in_process_worker=False, fd=fd)


@app.command()
def cluster(
    host: str | None = Host,
    port: int | None = Port,
    api_processes: int = typer.Option(2, "--api", min=1, max=64, help="API processes on the one address."),
    workers: int = typer.Option(2, min=0, max=64, help="Worker processes."),
    worker_concurrency: int | None = Concurrency,
    build_world: bool = typer.Option(True, help="Build the sandbox world on first start."),
) -> None:
    """Scale-out on one machine: API processes sharing one address, and workers.

    Migrates first, restarts a process that dies; Ctrl-C stops all of them. Runs over PostgreSQL and
    Redis: needs LEADWIRE_DATABASE_URL and LEADWIRE_REDIS_URL."""
    from leadwire import cluster as supervision
    from leadwire.platform.db import is_sqlite_url

    settings = load_settings()
    _prepare(settings)
    if is_sqlite_url(settings.resolved_database_url) or not settings.redis_url:
        _fail("a cluster runs over PostgreSQL and Redis: set LEADWIRE_DATABASE_URL and LEADWIRE_REDIS_URL")
    url = settings.resolved_database_url
    if asyncio.run(supervision.ensure_postgres_database(url, settings.db_connect_timeout_seconds)):
        sys.stderr.write(f"Created database {url.rsplit('/', 1)[-1]}\n")
    _migrate(settings)
    demo = asyncio.run(_bootstrap_demo(settings))
    if build_world:
        _ensure_world(settings)
    host, port = host or settings.host, port or settings.port
    sock = supervision.listening_socket(host, port)
    _announce_demo(settings, demo, host, port)
    sys.stderr.write(
        f"{api_processes} API processes on http://{host}:{port}, {workers} workers; Ctrl-C stops\n"
    )
    children = supervision.plan_children(api_processes, workers, sock.fileno(), worker_concurrency)
    grace = settings.shutdown_grace_seconds + 10
    env = {**os.environ, **_fitted_pools(settings, api_processes, workers)}
    code = supervision.Supervisor(
        children, env=env, grace_seconds=grace, on_worker_exit=_lease_releaser(settings)
    ).run()
    sock.close()
    raise typer.Exit(code=code)


@app.command()
def worker(concurrency: int | None = Concurrency) -> None:
    """A job worker process; SIGTERM stops claiming and lets running jobs finish."""
    settings = load_settings()
    _prepare(settings)
    _run_fast(_run_worker(settings, concurrency))


def _run_fast(coro: Awaitable[None]) -> None:
    """Run on uvloop when installed (uvicorn's `standard` extra brings it), else asyncio's loop."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(coro)  # type: ignore[arg-type]
        return
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(coro)  # type: ignore[arg-type]


def _fitted_pools(settings: Settings, api: int, workers: int) -> dict[str, str]:
    """Pool sizes for the children that fit the server's `max_connections` (`leadwire.pool_plan`)."""
    from leadwire import pool_plan

    url = settings.resolved_database_url
    max_connections, reserved = asyncio.run(pool_plan.server_limits(url, settings.db_connect_timeout_seconds))
    plan = pool_plan.plan_pools(
        pool_plan.Sizes(
            settings.db_pool_size,
            settings.db_read_pool_size,
            settings.db_poll_pool_size,
            settings.trade_pool_size,
        ),
        api=api,
        workers=workers,
        max_connections=max_connections,
        reserved=reserved,
        pinned=os.environ,
        trade_on_postgres=settings.trade_store == "postgres",
    )
    sys.stderr.write(plan.describe(max_connections=max_connections, reserved=reserved) + "\n")
    return plan.environment()


def _lease_releaser(settings: Settings) -> Callable[[int], int | None]:
    """What the supervisor calls when a worker process exits: its jobs run again at once (None when the
    database could not be told; then they run again when their lease expires)."""

    async def release(pid: int) -> int:
        from leadwire.platform.db import DbTimeouts, make_engine, make_sessionmaker, transaction
        from leadwire.platform.jobs.presence import release_dead_process

        engine = make_engine(
            settings.resolved_database_url, pool_size=1, timeouts=DbTimeouts.from_settings(settings)
        )
        try:
            async with asyncio.timeout(settings.db_connect_timeout_seconds * 2):
                async with transaction(make_sessionmaker(engine)) as session:
                    return await release_dead_process(session, pid=pid)
        finally:
            await engine.dispose()

    def run(pid: int) -> int | None:
        try:
            return asyncio.run(release(pid))
        except Exception as exc:
            sys.stderr.write(f"leases of worker {pid} not released ({type(exc).__name__}): they expire\n")
            return None

    return run


async def _bootstrap_demo(settings: Settings) -> Any:
    from leadwire.demo import ensure_demo_account
    from leadwire.platform.db import make_engine, make_sessionmaker

    engine = make_engine(settings.resolved_database_url)
    try:
        return await ensure_demo_account(make_sessionmaker(engine), settings.data_dir)
    finally:
        await engine.dispose()


def _ensure_world(settings: Settings) -> None:
    from leadwire.sandbox.progress import announcement
    from leadwire.sandbox.setup import ensure_world
    from leadwire.sandbox.store import world_is_built

    world_dir = settings.resolved_world_dir
    if not world_is_built(world_dir):
        size, seed = settings.sandbox_size, settings.sandbox_seed
        sys.stderr.write(f"world build: {announcement(world_dir, seed=seed, size=size)}\n")
    ensure_world(world_dir, seed=settings.sandbox_seed, size=settings.sandbox_size, progress=True)
    sys.stderr.write(world_description(world_dir) + "\n")


def world_description(world_dir: Path) -> str:
    """The start-up line: which world is served — generated (size, seed) or your ingested data — and
    what it holds, so an operator can tell at a glance."""
    from leadwire.sandbox.store import read_meta

    meta = read_meta(world_dir)
    if meta.get("size") == "empty":
        kind = "your ingested data"
    else:
        kind = f"the sandbox world ({meta.get('size')}, seed {meta.get('seed')})"
    counts = json.loads(meta.get("counts") or "{}")
    held = ", ".join(f"{count:,} {name}" for name, count in counts.items() if count) or "no rows yet"
    return f"Serving {kind} from {world_dir}: {held}"


def _announce_demo(settings: Settings, demo: Any, host: str, port: int) -> None:
    key_file = settings.data_dir / "demo-api-key"
    if demo.key_created:
        sys.stderr.write(
            f"\nDemo API key (also in {key_file}, shown only once):\n  {demo.key}\n\n"
            f'  curl -s -H "Authorization: Bearer $(cat {key_file})" http://{host}:{port}/api/v2/credits\n\n'
        )
    else:
        sys.stderr.write(f"Demo API key in {key_file}\n")


def _run_server(
    settings: Settings,
    host: str | None,
    port: int | None,
    *,
    in_process_worker: bool,
    fd: int | None = None,
    world_build: WorldBuild | None = None,
) -> None:
    import uvicorn

    from leadwire.app import create_app
    from leadwire.platform.http.server import uvicorn_config

    app = create_app(settings, in_process_worker=in_process_worker, freeze_heap=True, world_build=world_build)
    # Started once the server's imports are done: on 2 cores the build's own start-up would slow them.
    if world_build is not None and not world_build.start():
        sys.stderr.write(world_description(world_build.world_dir) + "\n")
    config = uvicorn_config(app, settings, host=host or settings.host, port=port or settings.port, fd=fd)
    uvicorn.Server(config).run()


async def _run_worker(settings: Settings, concurrency: int | None) -> None:
    from leadwire import capabilities
    from leadwire.platform.gcfreeze import freeze_startup_heap
    from leadwire.platform.jobs.runner import Worker
    from leadwire.platform.runtime import build_runtime

    runtime = await build_runtime(settings)
    capabilities.install_adapters(runtime)
    capabilities.enabled(settings.plugin_modules)
    freeze_startup_heap()
    worker_ = Worker(runtime, concurrency=concurrency)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    task = asyncio.create_task(worker_.run())
    await stopping.wait()
    await worker_.shutdown()
    await task
    await runtime.close()


# --- admin -----------------------------------------------------------------------------------------


def main() -> None:
    app()


if __name__ == "__main__":
    main()
