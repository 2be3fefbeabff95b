"""`leadwire admin`: operator commands (users, keys, credits, connected accounts), and the CLI's output
convention: one JSON object on stdout, or `{"error": ...}` on stderr with exit code 1 (an operator and
test contract: keep the shapes)."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

import typer

from leadwire.channels.values import CHANNELS, PROVIDERS_BY_CHANNEL, STATUSES
from leadwire.config import Settings, load_settings
from leadwire.platform.plans import PLANS

T = TypeVar("T")

KEY_MODES = ("live", "test")
SMTP_TLS = ("starttls", "tls", "none")


def one_of(values: Any) -> str:
    return ", ".join(values)


# A secret on the command line is visible to every user of the machine (ps) and kept in shell history.
SECRET_HELP = "; better from its environment variable, or '-' to read it from standard input"
PROVIDERS_HELP = "; ".join(f"{channel}: {one_of(names)}" for channel, names in PROVIDERS_BY_CHANNEL.items())

admin_app = typer.Typer(
    no_args_is_help=True,
    help="Operator commands on the server's database (LEADWIRE_DATABASE_URL): users, keys, credits, "
    "connected accounts. JSON on stdout; errors as JSON on stderr, exit 1.",
)
user_app = typer.Typer(no_args_is_help=True, help="Users (accounts): create one with a plan and credits.")
key_app = typer.Typer(no_args_is_help=True, help="API keys: create, list, revoke.")
credits_app = typer.Typer(no_args_is_help=True, help="Credits: grant more to a user.")
account_app = typer.Typer(
    no_args_is_help=True, help="Connected channel accounts (email, LinkedIn, WhatsApp): add, set status."
)
admin_app.add_typer(user_app, name="user")
admin_app.add_typer(key_app, name="key")
admin_app.add_typer(credits_app, name="credits")
admin_app.add_typer(account_app, name="account")


def emit(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload) + "\n")


def fail(message: str) -> None:
    sys.stderr.write(json.dumps({"error": message}) + "\n")
    raise typer.Exit(code=1)


def install_capabilities(settings: Settings) -> None:
    """Scopes, actions, plan features and body limits come from the capabilities' declarations."""
    from leadwire import capabilities

    capabilities.enabled(settings.plugin_modules)


async def _with_session(settings: Settings, work: Callable[[Any], Awaitable[T]]) -> T:
    import leadwire.models  # noqa: F401 - every table must be known for foreign keys to resolve
    from leadwire.platform.db import make_engine, make_sessionmaker, transaction

    engine = make_engine(settings.resolved_database_url)
    try:
        async with transaction(make_sessionmaker(engine)) as session:
            return await work(session)
    finally:
        await engine.dispose()


def _admin(work: Callable[[Any], Awaitable[dict[str, Any]]]) -> None:
    settings = load_settings()
    install_capabilities(settings)
    from sqlalchemy.exc import IntegrityError

    try:
        emit(asyncio.run(_with_session(settings, work)))
    except (ValueError, LookupError) as exc:
        fail(str(exc))
    except IntegrityError:
        fail("conflicts with existing data (duplicate email, or an id that does not exist)")


@user_app.command("create")
def user_create(
    email: str = typer.Option(..., help="the user's email address (unique)"),
    plan: str = typer.Option("free", help=f"membership plan: {one_of(PLANS)}"),
    credits: int = typer.Option(0, min=0, help="credits granted at creation"),
) -> None:
    """Create a user; prints its user_id (create a key for it with `admin key create`)."""
    from leadwire.platform.billing import grant
    from leadwire.platform.users import create_user

    if plan not in PLANS:
        fail(f"unknown plan {plan!r}: one of {one_of(PLANS)}")

    async def work(session: Any) -> dict[str, Any]:
        user = await create_user(session, email=email, plan=plan)
        if credits:
            await grant(session, user.id, credits)
        return {"user_id": user.id}

    _admin(work)


@key_app.command("create")
def key_create(
    user: str = typer.Option(..., help="the user_id the key acts for"),
    scopes: str = typer.Option(
        "all",
        help="all, or a comma-separated list of scopes (capability:read or :write, e.g. "
        "research:read,credits:read); an unknown scope is refused with the list of known ones",
    ),
    expires_in: int | None = typer.Option(None, min=1, help="seconds until the key expires (default never)"),
    mode: str = typer.Option("live", help=f"key prefix lw_<mode>_: {one_of(KEY_MODES)}"),
) -> None:
    """Create an API key; prints it once (only its digest is stored)."""
    from leadwire.platform.users import all_scopes, issue_key, parse_scopes

    if mode not in KEY_MODES:
        fail(f"unknown mode {mode!r}: one of {one_of(KEY_MODES)}")

    def chosen() -> list[str]:
        try:
            return parse_scopes(scopes)
        except ValueError as exc:
            raise ValueError(f"{exc} (known: {one_of(all_scopes())})") from None

    async def work(session: Any) -> dict[str, Any]:
        issued = await issue_key(
            session,
            user_id=user,
            scopes=chosen(),
            mode=mode,
            expires_in=timedelta(seconds=expires_in) if expires_in else None,
        )
        return {"key_id": issued.key_id, "key": issued.key}

    _admin(work)


@key_app.command("list")
def key_list(user: str = typer.Option(..., help="the user_id whose keys to list")) -> None:
    """The user's keys: id, prefix, scopes, dates; never the key itself (only its digest is stored)."""
    from leadwire.platform.time import iso
    from leadwire.platform.users import list_keys

    async def work(session: Any) -> dict[str, Any]:
        keys = await list_keys(session, user)
        return {
            "user_id": user,
            "keys": [
                {
                    "key_id": key.id,
                    "prefix": key.prefix,
                    "mode": key.mode,
                    "scopes": key.scopes,
                    "created_at": iso(key.created_at),
                    "expires_at": iso(key.expires_at),
                    "revoked_at": iso(key.revoked_at),
                }
                for key in keys
            ],
        }

    _admin(work)


@key_app.command("revoke")
def key_revoke(key_id: str = typer.Argument(..., help="the key_id (key_…) to revoke")) -> None:
    """Revoke a key: it is refused (401 api_key_revoked) from now on, in every API process at once on
    PostgreSQL."""
    from leadwire.platform.notify import make_notifier
    from leadwire.platform.users import revoke_key

    # On PostgreSQL every API process forgets the key when this commits (NOTIFY needs no listener here).
    notifier = make_notifier(load_settings().resolved_database_url)

    async def work(session: Any) -> dict[str, Any]:
        key = await revoke_key(session, notifier, key_id)
        return {"key_id": key.id, "revoked": True}

    _admin(work)


@credits_app.command("grant")
def credits_grant(
    user: str = typer.Option(..., help="the user_id to credit"),
    amount: int = typer.Option(..., min=1, help="credits to add"),
) -> None:
    """Grant credits; prints the new balance."""
    from leadwire.platform.billing import grant
    from leadwire.platform.users import User

    async def work(session: Any) -> dict[str, Any]:
        if await session.get(User, user) is None:
            raise LookupError(f"no user {user}")
        view = await grant(session, user, amount)
        return {"user_id": user, "balance": view.balance}

    _admin(work)


@account_app.command("add")
def account_add(
    user: str = typer.Option(..., help="the user_id that owns the account"),
    channel: str = typer.Option(..., help=f"one of {one_of(CHANNELS)}"),
    provider: str = typer.Option(..., help=f"the channel's provider: {PROVIDERS_HELP}"),
    name: str | None = typer.Option(None, help="display name (default: '<channel> (<provider>)')"),
    identifier: str | None = typer.Option(None, help="address, profile URL or phone shown for the account"),
    smtp_host: str | None = typer.Option(None, help="smtp: the server's host (required)"),
    smtp_port: int = typer.Option(587, help="smtp: the server's port"),
    smtp_username: str | None = typer.Option(None, help="smtp: login user name"),
    smtp_password: str | None = typer.Option(
        None, envvar="LEADWIRE_SMTP_PASSWORD", help=f"smtp: login password (stored encrypted){SECRET_HELP}"
    ),
    smtp_tls: str = typer.Option("starttls", help=f"smtp: one of {one_of(SMTP_TLS)}"),
    from_address: str | None = typer.Option(None, help="smtp: the sender address (required)"),
    unipile_dsn: str | None = typer.Option(None, help="unipile: the API DSN (required)"),
    unipile_api_key: str | None = typer.Option(
        None, envvar="LEADWIRE_UNIPILE_API_KEY", help=f"unipile: the API key (stored encrypted){SECRET_HELP}"
    ),
    unipile_account_id: str | None = typer.Option(None, help="unipile: the LinkedIn account id (required)"),
    wa_phone_number_id: str | None = typer.Option(
        None, help="whatsapp_cloud: the phone number id (required)"
    ),
    wa_access_token: str | None = typer.Option(
        None,
        envvar="LEADWIRE_WA_ACCESS_TOKEN",
        help=f"whatsapp_cloud: the access token (stored encrypted){SECRET_HELP}",
    ),
) -> None:
    """Connect a channel account for a user; prints its account_id (secrets are stored encrypted)."""
    from leadwire.channels import connected
    from leadwire.platform.crypto import SecretBox

    settings_, secret = _provider_options(
        provider,
        smtp_host=smtp_host,
        smtp_port=smtp_port,
        smtp_username=smtp_username,
        smtp_password=_secret(smtp_password),
        smtp_tls=smtp_tls,
        from_address=from_address,
        unipile_dsn=unipile_dsn,
        unipile_api_key=_secret(unipile_api_key),
        unipile_account_id=unipile_account_id,
        wa_phone_number_id=wa_phone_number_id,
        wa_access_token=_secret(wa_access_token),
    )
    box = SecretBox(load_settings().resolved_secret_key) if secret else None

    async def work(session: Any) -> dict[str, Any]:
        account = await connected.add_account(
            session,
            user_id=user,
            channel=channel,
            provider=provider,
            display_name=name or f"{channel} ({provider})",
            identifier=identifier or from_address or unipile_account_id or wa_phone_number_id or "",
            settings=settings_,
            secret=secret,
            box=box,
        )
        return {"account_id": account.id}

    _admin(work)


def _secret(value: str | None) -> str | None:
    """A provider secret as given: ``-`` reads it from standard input (one line), so it need not appear
    in the process list or the shell history; its environment variable does the same."""
    if value != "-":
        return value
    read = sys.stdin.readline().rstrip("\r\n")
    if not read:
        fail("expected the secret on standard input (one line)")
    return read


def _provider_options(provider: str, **options: Any) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Split provider options into clear settings and the secret part that is stored encrypted."""
    if provider == "smtp":
        if not options["smtp_host"] or not options["from_address"]:
            fail("smtp needs --smtp-host and --from-address")
        if options["smtp_tls"] not in SMTP_TLS:
            fail(f"unknown --smtp-tls {options['smtp_tls']!r}: one of {one_of(SMTP_TLS)}")
        clear = {
            k: options[k] for k in ("smtp_host", "smtp_port", "smtp_username", "smtp_tls", "from_address")
        }
        return clear, ({"smtp_password": options["smtp_password"]} if options["smtp_password"] else None)
    if provider == "unipile":
        if not options["unipile_dsn"] or not options["unipile_api_key"] or not options["unipile_account_id"]:
            fail("unipile needs --unipile-dsn, --unipile-api-key and --unipile-account-id")
        return {k: options[k] for k in ("unipile_dsn", "unipile_account_id")}, {
            "api_key": options["unipile_api_key"]
        }
    if provider == "whatsapp_cloud":
        if not options["wa_phone_number_id"] or not options["wa_access_token"]:
            fail("whatsapp_cloud needs --wa-phone-number-id and --wa-access-token")
        return {"phone_number_id": options["wa_phone_number_id"]}, {
            "access_token": options["wa_access_token"]
        }
    return {}, None


@account_app.command("set-status")
def account_set_status(
    account_id: str = typer.Argument(..., help="the account_id (acct_…)"),
    status: str = typer.Argument(..., help=f"one of {one_of(STATUSES)}"),
) -> None:
    """Set a connected account's status (e.g. reconnect_required to stop sends from it)."""
    from leadwire.channels import connected

    async def work(session: Any) -> dict[str, Any]:
        account = await connected.set_status(session, account_id, status)
        return {"account_id": account.id, "status": account.status}

    _admin(work)
