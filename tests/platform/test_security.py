"""Security properties a sceptical operator checks: keys hashed at rest, provider secrets
encrypted at rest, every route behind the key-and-scope dependency, and the session-wide guard that no
key, message body or attachment reaches a log line (tests/support/log_secrets.py)."""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import re
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import httpx
from fastapi import APIRouter, Depends, FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, iter_route_contexts
from sqlalchemy import inspect as sa_inspect
from sqlalchemy import select, text
from typer.testing import CliRunner

from leadwire.app import create_app
from leadwire.channels.connected import ConnectAccount
from leadwire.cli import app as cli_app
from leadwire.config import Settings
from leadwire.mcp.server import McpAuth
from leadwire.platform.callers import Caller, Permission
from leadwire.platform.crypto import SecretBox
from leadwire.platform.db import transaction
from leadwire.platform.http.auth import authenticated_caller
from leadwire.platform.runtime import Runtime
from leadwire.platform.users import all_scopes
from leadwire.providers.sandbox_channels import Outbox
from tests.mcp.test_mcp_server import MCP_HEADERS, call, error_text, rpc
from tests.outreach.test_dispatch_validation import email
from tests.support import log_secrets
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import poll_job, running_worker
from tests.support.smtp import Inbox

# Routes anyone may call: probes, the metrics scrape (its own token), the OpenAPI document and its UI.
PUBLIC_ROUTES = {"/healthz", "/readyz", "/metrics", "/openapi.json", "/docs", "/redoc", "/docs/assets/{name}"}
MCP_PATHS = {"/mcp"}
# Routes whose scope depends on the job they name: `require(None)` at the door, then the job's own
# capability scope once it is read (platform/jobs/service.get_owned_job).
JOB_ROUTES = {
    "/api/v2/jobs",
    "/api/v2/jobs/{job_id}",
    "/api/v2/jobs/{job_id}/cancel",
    "/api/v1/outreach/jobs/{job_id}",
}
# The console's pages: behind its own session (a cookie for an API key, checked by the API's key lookup;
# tests/console), or public by design (the sign-in form and its post, the style sheet).
CONSOLE_ROUTES = {
    "/console",
    "/console/sign-in",
    "/console/sign-out",
    "/console/jobs",
    "/console/jobs/{job_id}/cancel",
    "/console/static/{name}",
    "/console/websets",
    "/console/websets/{webset_id}",
    "/console/websets/{webset_id}/live",
    "/console/websets/{webset_id}/find-more",
    "/console/websets/{webset_id}/export",
    "/console/jobs/{job_id}",
    "/console/research",
    "/console/research/public-web",
    "/console/research/contacts",
    "/console/customs",
    "/console/customs/candidates",
    "/console/customs/report",
    "/console/credits",
    "/console/outreach",
    "/console/keys",
    "/console/keys/{key_id}/revoke",
    "/console/webhooks",
    "/console/webhooks/{webhook_id}",
    "/console/webhooks/{webhook_id}/delete",
    "/console/webhooks/{webhook_id}/deliveries/{delivery_id}/retry",
}
DUMMY_ID = "zz_dummy_0001"


# --- the database, as a dump would show it -----------------------------------------------------------


async def dump_database(runtime: Runtime) -> str:
    """Every row of every table, every column, as text (bytes both decoded and in hex)."""

    def value(v: Any) -> str:
        if isinstance(v, bytes | bytearray | memoryview):
            raw = bytes(v)
            return raw.decode("latin-1") + " " + raw.hex()
        return str(v)

    lines = []
    async with runtime.engine.connect() as connection:
        tables = await connection.run_sync(lambda sync: sa_inspect(sync).get_table_names())
        assert "api_keys" in tables and "connect_accounts" in tables, tables
        for table in sorted(tables):
            for row in (await connection.execute(text(f'SELECT * FROM "{table}"'))).all():
                lines.append(table + " | " + " | ".join(value(v) for v in row))
    return "\n".join(lines)


def key_fragments(raw: str) -> Iterator[str]:
    """What would identify a key: the whole key, its body, any 12 consecutive characters of the body.

    The first 8 characters of the body are stored on purpose (`api_keys.prefix`, to recognise a key)."""
    body = raw.rsplit("_", 1)[-1]
    yield raw
    yield body
    for start in range(len(body) - 11):
        yield body[start : start + 12]


def leaked_keys(dump: str, keys: dict[str, str]) -> list[str]:
    return [label for label, raw in keys.items() if any(f in dump for f in key_fragments(raw))]


def admin_cli(
    settings: Settings, *args: str, env: dict[str, str] | None = None, stdin: str | None = None
) -> dict[str, Any]:
    """`leadwire admin ...` on the test's database and data dir (its Fernet key); the JSON it prints."""
    full_env: dict[str, str | None] = {
        "LEADWIRE_DATABASE_URL": settings.resolved_database_url,
        "LEADWIRE_DATA_DIR": str(settings.data_dir),
        "LEADWIRE_PLUGINS": "tests.support.echo",
        "LEADWIRE_SECRET_KEY": None,
        **(env or {}),
    }
    result = CliRunner().invoke(cli_app, ["admin", *args], env=full_env, input=stdin)
    assert result.exit_code == 0, result.output
    printed: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return printed


async def run_cli(
    settings: Settings, *args: str, env: dict[str, str] | None = None, stdin: str | None = None
) -> dict[str, Any]:
    return await asyncio.to_thread(lambda: admin_cli(settings, *args, env=env, stdin=stdin))


async def test_no_key_is_recoverable_from_a_database_dump(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, settings: Settings
) -> None:
    owner = await accounts.create()
    narrow = await accounts.key(owner.user_id, scopes=["credits:read"])
    expiring = await accounts.key(owner.user_id, expires_in=timedelta(days=1))
    revoked = await accounts.key(owner.user_id)
    await accounts.revoke(revoked.key_id)
    user = await run_cli(settings, "user", "create", "--email", "cli@test.example", "--plan", "pro")
    issued = await run_cli(settings, "key", "create", "--user", user["user_id"], "--mode", "test")
    log_secrets.register_key(issued["key"], f"API key {issued['key_id']}")
    from_cli = TestAccount(user_id=user["user_id"], key_id=issued["key_id"], key=issued["key"])
    # Every place a key passes through: both headers, a job with an idempotency key, MCP, refusals.
    assert_ok(await client.get("/api/v2/credits", headers=owner.headers))
    assert_ok(await client.get("/api/v2/credits", headers={"x-api-key": narrow.key}))
    assert_ok(await client.get("/api/v1/connect/accounts", headers=from_cli.headers))
    echo = await client.post(
        "/api/v2/test/echo", json={"message": "hi"}, headers={**expiring.headers, "Idempotency-Key": "i-1"}
    )
    job = assert_ok(echo, 202)["item"]
    assert_ok(await client.get(f"/api/v2/jobs/{job['id']}", headers=expiring.headers))
    assert (await call(client, owner.headers, "get_credits"))["isError"] is False
    assert_error(await client.get("/api/v2/credits", headers=revoked.headers), 401, "api_key_revoked")
    assert_error(
        await client.get("/api/v2/connect/accounts", headers=narrow.headers), 403, "permission_denied"
    )

    dump = await dump_database(runtime)
    keys = {k.key_id: k.key for k in (owner, narrow, expiring, revoked, from_cli)}
    for key_id, raw in keys.items():
        assert key_id in dump  # the dump does see each key's row, with its recognisable prefix
        assert raw.rsplit("_", 1)[-1][:8] in dump
    assert leaked_keys(dump, keys) == []
    # The check can fail: a key a client put in a job's body is stored in clear, and found.
    careless = {"message": f"my key is {narrow.key}"}
    assert_ok(await client.post("/api/v2/test/echo", json=careless, headers=owner.headers), 202)
    assert leaked_keys(await dump_database(runtime), keys) == [narrow.key_id]


async def test_provider_secrets_are_encrypted_at_rest_and_never_copied_out(
    client: httpx.AsyncClient,
    runtime: Runtime,
    accounts: AccountFactory,
    settings: Settings,
    smtp_server: tuple[Inbox, int],
) -> None:
    inbox, port = smtp_server
    owner = await accounts.create()
    secrets = {name: f"{name}-{uuid.uuid4().hex}" for name in ("smtp", "unipile", "whatsapp", "service")}
    for name, value in secrets.items():
        log_secrets.register_secret(value, f"the {name} provider secret")
    user = ("--user", owner.user_id)
    smtp = await run_cli(
        settings, "account", "add", *user, "--channel", "email", "--provider", "smtp",
        "--smtp-host", "127.0.0.1", "--smtp-port", str(port), "--smtp-tls", "none",
        "--smtp-username", "sender", "--smtp-password", secrets["smtp"],
        "--from-address", "sales@leadwire.example",
    )  # fmt: skip
    # Secrets kept off the command line: from the environment, and from standard input.
    unipile = await run_cli(
        settings, "account", "add", *user, "--channel", "linkedin", "--provider", "unipile",
        "--unipile-dsn", "https://api1.unipile.example:13111", "--unipile-account-id", "acc_1",
        env={"LEADWIRE_UNIPILE_API_KEY": secrets["unipile"]},
    )  # fmt: skip
    whatsapp = await run_cli(
        settings, "account", "add", *user, "--channel", "whatsapp", "--provider", "whatsapp_cloud",
        "--wa-phone-number-id", "1555", "--wa-access-token", "-", stdin=secrets["whatsapp"] + "\n",
    )  # fmt: skip
    service = await accounts.connect_provider(
        owner.user_id, "linkedin", "unipile", {"unipile_dsn": "https://u.example", "unipile_account_id": "a"},
        {"api_key": secrets["service"]},
    )  # fmt: skip
    ids = {smtp["account_id"], unipile["account_id"], whatsapp["account_id"], service}
    # The public API lists them, without their secrets.
    for path in ("/api/v2/connect/accounts", "/api/v1/connect/accounts"):
        listed = await client.get(path, headers=owner.headers)
        assert ids <= {a["account_id"] for a in assert_ok(listed)["items"]}
        assert not [name for name, value in secrets.items() if value in listed.text]
    # The secret is used (the SMTP server refuses it: it accepts only `right`), and not copied anywhere.
    async with running_worker(runtime):
        created = await client.post(
            "/api/v2/outreach/dispatches", json=email(smtp["account_id"]), headers=owner.headers
        )
        job = await poll_job(client, owner.headers, assert_ok(created, 202)["item"]["id"], until=("failed",))
    assert job["error"]["code"] == "account_disconnected" and inbox.messages == []
    assert Outbox(settings.data_dir).read("email") == []

    dump = await dump_database(runtime)
    assert all(account_id in dump for account_id in ids)
    assert [name for name, value in secrets.items() if value in dump] == []
    box = SecretBox(runtime.settings.resolved_secret_key)
    async with transaction(runtime.reader) as session:
        stored = {
            a.id: a.encrypted_secret
            for a in (await session.scalars(select(ConnectAccount).where(ConnectAccount.id.in_(ids)))).all()
        }
    tokens = [token for token in stored.values() if token is not None]
    assert len(tokens) == len(ids) and all(token in dump for token in tokens)  # the dump holds ciphertext
    assert sorted(v for token in tokens for v in box.open(token).values()) == sorted(secrets.values())


# --- every route behind the key and scope dependency ------------------------------------------------


def dependency_calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for sub in dependant.dependencies:
        if sub.call is not None:
            yield sub.call
        yield from dependency_calls(sub)


def required_scope(dependant: Dependant) -> tuple[bool, str | None]:
    """(whether a `require(...)` guards the route, the scope it names)."""
    for fn in dependency_calls(dependant):
        closure = inspect.getclosurevars(fn).nonlocals if inspect.isfunction(fn) else {}
        if isinstance(closure.get("permission"), Permission):
            return True, closure["permission"].scope
    return False, None


def behind_mcp_auth(app: Any) -> bool:
    for _ in range(4):
        if isinstance(app, McpAuth):
            return True
        app = getattr(app, "app", None)
    return False


def route_table(app: FastAPI) -> list[tuple[str, str, str | None]]:
    """(path, guard, scope) for every route: guard is `public`, `require`, `mcp` or `NONE`."""
    table = []
    for context in iter_route_contexts(app.routes):
        route = context.original_route
        path = context.path or ""
        if isinstance(route, APIRoute):
            dependant = getattr(context, "dependant", None) or route.dependant
            calls = set(dependency_calls(dependant))
            guarded, scope = required_scope(dependant)
            if guarded and authenticated_caller in calls:
                table.append((path, "require", scope))
                continue
        if path in PUBLIC_ROUTES:
            table.append((path, "public", None))
        elif path in CONSOLE_ROUTES:
            table.append((path, "console", None))
        elif path in MCP_PATHS and behind_mcp_auth(getattr(route, "app", None)):
            table.append((path, "mcp", None))
        else:
            table.append((path, "NONE", None))
    return table


def unguarded(app: FastAPI) -> list[str]:
    return sorted(path for path, guard, _ in route_table(app) if guard == "NONE")


def test_every_route_is_behind_require_or_explicitly_public(settings: Settings) -> None:
    table = route_table(create_app(settings))
    assert unguarded(create_app(settings)) == []
    guarded = [path for path, guard, _ in table if guard == "require"]
    assert guarded and all(path.startswith("/api/") for path in guarded)
    assert not [path for path, guard, _ in table if path.startswith("/api/") and guard != "require"]
    assert {path for path, guard, _ in table if guard == "public"} == PUBLIC_ROUTES  # no stale entry
    assert {path for path, guard, _ in table if guard == "mcp"} == MCP_PATHS
    assert {path for path, guard, _ in table if guard == "console"} == CONSOLE_ROUTES
    assert len([g for _, g, _ in table if g == "mcp"]) == 2  # /mcp and the /mcp/ mount
    # Every other route names its scope at the door.
    assert {path for path, guard, scope in table if guard == "require" and not scope} == JOB_ROUTES


def test_a_new_route_without_the_scope_dependency_fails_the_route_table(settings: Settings) -> None:
    app = create_app(settings)
    extra = APIRouter()

    @extra.get("/api/v2/unguarded")
    async def unguarded_route() -> dict[str, str]:
        return {}

    @extra.get("/api/v2/authenticated-only")
    async def authenticated_only(caller: Caller = Depends(authenticated_caller)) -> dict[str, str]:
        return {}

    app.include_router(extra)
    assert unguarded(app) == ["/api/v2/authenticated-only", "/api/v2/unguarded"]


def concrete(path: str) -> str:
    return re.sub(r"\{[^}]+\}", DUMMY_ID, path)


async def test_every_authenticated_route_refuses_no_key_and_a_key_without_its_scope(
    client: httpx.AsyncClient, app: FastAPI, accounts: AccountFactory
) -> None:
    """Extends test_auth.py::test_scope_matrix from three read routes to the whole route table: no key
    is 401, a key without scopes or with every scope but the route's is 403, the scope's holder passes."""
    owner = await accounts.create()
    no_scopes = await accounts.key(owner.user_id, scopes=[])
    mailbox = await accounts.connect(owner.user_id, "email")

    async def job(path: str, body: dict[str, Any]) -> str:
        job_id: str = assert_ok(await client.post(path, json=body, headers=owner.headers), 202)["item"]["id"]
        return job_id

    # A job route's scope is its job's capability scope (an echo job is research's).
    jobs = {
        ("GET", "/api/v2/jobs/{job_id}"): (await job("/api/v2/test/echo", {}), "research:read"),
        ("POST", "/api/v2/jobs/{job_id}/cancel"): (await job("/api/v2/test/echo", {}), "research:write"),
        ("GET", "/api/v1/outreach/jobs/{job_id}"): (
            await job("/api/v1/outreach/dispatches", email(mailbox)),
            "outreach:read",
        ),
        # The list's door: a read scope of any capability with jobs (a key holding another still lists).
        ("GET", "/api/v2/jobs"): ("", "research:read"),
    }
    keys: dict[str, tuple[TestAccount, TestAccount]] = {}
    failures: list[str] = []
    checked = 0
    for context in iter_route_contexts(app.routes):
        route = context.original_route
        if (
            not isinstance(route, APIRoute)
            or not required_scope(getattr(context, "dependant", None) or route.dependant)[0]
        ):
            continue
        path = context.path or ""
        for method in sorted((context.methods or set()) - {"HEAD"}):
            scope = required_scope(getattr(context, "dependant", None) or route.dependant)[1]
            url = concrete(path)
            if scope is None:
                job_id, scope = jobs[(method, path)]
                url = path.replace("{job_id}", job_id)
            if scope not in keys:
                keys[scope] = (
                    await accounts.key(owner.user_id, scopes=[scope]),
                    await accounts.key(owner.user_id, scopes=[s for s in all_scopes() if s != scope]),
                )
            holder, others = keys[scope]
            body: dict[str, Any] = {"json": {}} if method == "POST" else {}
            attempts: list[tuple[dict[str, str], int, str]] = [
                ({}, 401, "api_key_missing"),
                (no_scopes.headers, 403, "permission_denied"),
            ]
            if path != "/api/v2/jobs":
                attempts.append((others.headers, 403, "permission_denied"))
            for headers, status, code in attempts:
                response = await client.request(method, url, headers=headers, **body)
                try:
                    assert_error(response, status, code)
                except AssertionError as exc:
                    failures.append(f"{method} {path} ({scope}): {exc}")
            if not url.endswith("/stream"):  # the holder passes the door (then 404, 400, 202 ...)
                response = await client.request(method, url, headers=holder.headers, **body)
                if response.status_code in (401, 403):
                    failures.append(f"{method} {path}: {scope} holder got {response.text}")
            checked += 1
    assert checked >= 30 and not failures, "\n".join(failures)


DUMMIES: dict[str, Any] = {"string": "x", "integer": 1, "number": 1, "boolean": True, "array": ["x"]}


def dummy_arguments(tool: dict[str, Any], job_id: str) -> dict[str, Any]:
    """Every required argument, with a value of its type (a real job id for `job_id`)."""
    schema = tool["inputSchema"]
    arguments = {}
    for name in schema.get("required", []):
        kind = schema["properties"][name].get("type", "object")
        arguments[name] = job_id if name == "job_id" else DUMMIES.get(kind, {})
    return arguments


async def test_mcp_refuses_no_key_and_every_tool_refuses_a_key_without_scopes(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    for path in ("/mcp", "/mcp/"):
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
        assert_error(await client.post(path, json=body, headers=MCP_HEADERS), 401, "api_key_missing")
    owner = await accounts.create()
    no_scopes = await accounts.key(owner.user_id, scopes=[])
    job_id = assert_ok(await client.post("/api/v2/test/echo", json={}, headers=owner.headers), 202)["item"][
        "id"
    ]
    tools = (await rpc(client, owner.headers, "tools/list", {})).json()["result"]["tools"]
    assert len(tools) >= 20
    refused = {
        t["name"]: error_text(await call(client, no_scopes.headers, t["name"], **dummy_arguments(t, job_id)))
        for t in tools
    }
    others = {name: text for name, text in refused.items() if "permission_denied" not in text}
    assert others == {}, "\n".join(f"{name}: {text}" for name, text in others.items())


# --- the session-wide log guard ---------------------------------------------------------------------


def record(message: str, *args: Any, **extra: Any) -> logging.LogRecord:
    made = logging.LogRecord("leadwire.access", logging.INFO, __file__, 1, message, args, None)
    made.__dict__.update(extra)
    return made


def test_the_log_guard_finds_a_key_a_body_or_an_attachment_in_a_line() -> None:
    guard = log_secrets.SecretLog()
    raw = "lw_live_" + "Ab3" * 10 + "xy"
    guard.register_key(raw, "API key key_1")
    guard.register_text("Dear Jane, our offer stands until Friday", "a message body")
    guard.register_text("JVBERi0xLjQgdGlueQ==", "an attachment")
    guard.register_text("short", "too short to register")
    handler = log_secrets.SecretLogHandler(guard)
    for clean in (record("GET /api/v2/credits 200", key_id="key_1"), record("prefix %s", raw[:16])):
        handler.emit(clean)
    assert guard.flush() == []
    handler.emit(record("auth header %s", f"Bearer {raw}"))
    handler.emit(record("body only", route=raw.rsplit("_", 1)[-1] + "tail"))
    handler.emit(record("sent: %r", {"text": "Dear Jane, our offer stands until Friday"}))
    handler.emit(record("short and JVBERi0xLjQgdGlueQ== attached"))
    handler.emit(logging.LogRecord("httpx", logging.INFO, __file__, 1, raw, None, None))  # the test client
    leaks = guard.flush()
    assert [leak.label for leak in leaks] == [
        "API key key_1",
        "API key key_1",
        "a message body",
        "an attachment",
    ]
    assert all(raw not in str(leak) and "<key>" in str(leak) for leak in leaks[:2])
    assert guard.leaks == leaks


def test_the_log_guard_is_installed_for_the_session_and_bounded() -> None:
    assert log_secrets.HANDLER in logging.getLogger().handlers
    assert logging.getLogger("leadwire").getEffectiveLevel() <= logging.INFO
    small = log_secrets.SecretLog(max_chars=1000)
    small.register_text("a secret of twenty chars", "a secret")
    handler = log_secrets.SecretLogHandler(small)
    handler.emit(record("a secret of twenty chars"))
    for n in range(100):
        handler.emit(record("line %d %s", n, "x" * 50))
    assert small.size <= 1000 and len(small.leaks) == 1  # searched when the buffer filled, then dropped


async def test_factory_keys_and_outreach_bodies_are_registered(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    assert owner.key.rsplit("_", 1)[-1] in log_secrets.REGISTRY.keys
    mailbox = await accounts.connect(owner.user_id, "email")
    text_body = f"Registered body {uuid.uuid4().hex}"
    body = email(mailbox, content={"subject": "s", "text": text_body})
    assert_ok(await client.post("/api/v2/outreach/dispatches", json=body, headers=owner.headers), 202)
    assert text_body in log_secrets.REGISTRY.texts
