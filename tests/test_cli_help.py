"""The `leadwire` command reads on its own: `--version`, help on every command, subcommand, option and
argument, and the allowed values of every fixed-set option shown in its help and enforced."""

from __future__ import annotations

import json
from enum import Enum
from importlib.metadata import version
from typing import Any, Literal, get_args, get_origin

import pytest
import typer
from typer.testing import CliRunner

from leadwire.channels import connected
from leadwire.cli import app
from leadwire.platform.plans import PLANS

WIDE = {"COLUMNS": "250", "TERMINAL_WIDTH": "250"}  # one line per option: values are not wrapped apart


def commands(command: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """Every command of the tree, groups included, with its path under `leadwire` (through the group's
    own listing: the client's commands are loaded when asked for)."""
    found = [(path, command)]
    if hasattr(command, "list_commands"):
        for name in command.list_commands(None):
            found += commands(command.get_command(None, name), (*path, name))
    return found


TREE = commands(typer.main.get_command(app))


def allowed_values(annotation: Any) -> tuple[str, ...]:
    """The values a Literal or Enum annotation (possibly optional, or a list of them) admits."""
    if get_origin(annotation) is Literal:
        return tuple(str(value) for value in get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return tuple(str(member.value) for member in annotation)
    for inner in get_args(annotation):
        if found := allowed_values(inner):
            return found
    return ()


def test_the_tree_is_walked_whole() -> None:
    paths = {" ".join(path) for path, _ in TREE}
    assert {"serve", "api", "worker", "cluster", "migrate", "admin key create", "sandbox outbox"} <= paths
    assert {"ingest shipments", "outreach send", "customs report", "websets items"} <= paths


def test_every_command_and_subcommand_has_help() -> None:
    empty = [" ".join(("leadwire", *path)) for path, command in TREE if not (command.help or "").strip()]
    assert empty == []


def test_every_option_and_argument_has_help() -> None:
    empty = [
        f"leadwire {' '.join(path)}: {param.name}"
        for path, command in TREE
        for param in command.params
        if not (getattr(param, "help", None) or "").strip()
    ]
    assert empty == []


@pytest.mark.parametrize(
    "path", [path for path, command in TREE if not hasattr(command, "commands")], ids=" ".join
)
def test_every_fixed_set_option_shows_its_values_in_the_help(path: tuple[str, ...]) -> None:
    command = dict(TREE)[path]
    fixed = {
        param.name: values
        for param in command.params
        if (values := allowed_values(param.type_descriptor.annotation))
    }
    shown = CliRunner().invoke(app, [*path, "--help"], env=WIDE)
    assert shown.exit_code == 0, shown.output
    missing = {name: v for name, values in fixed.items() for v in values if v not in shown.output}
    assert missing == {}, shown.output


def test_admin_options_name_the_values_the_services_accept() -> None:
    helps: dict[tuple[str, str], dict[str, tuple[str, ...]]] = {
        ("user", "create"): {"plan": tuple(PLANS)},
        ("key", "create"): {"mode": ("live", "test")},
        ("account", "add"): {
            "channel": connected.CHANNELS,
            "provider": tuple({p for names in connected.PROVIDERS_BY_CHANNEL.values() for p in names}),
            "smtp_tls": ("starttls", "tls", "none"),
        },
        ("account", "set-status"): {"status": connected.STATUSES},
    }
    for path, options in helps.items():
        params = {p.name: p.help for p in dict(TREE)[("admin", *path)].params}
        for name, values in options.items():
            assert all(value in params[name] for value in values), (path, name, params[name])


def test_version_prints_the_package_version() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"leadwire {version('leadwire')}"


def test_a_bad_choice_is_refused_with_the_allowed_values() -> None:
    result = CliRunner().invoke(
        app,
        ["outreach", "send", "--account", "acct_1", "--channel", "fax", "--to", "a@b.example"],
        env={**WIDE, "LEADWIRE_API_KEY": "lw_live_x"},
    )
    assert result.exit_code == 2, result.output
    assert "fax" in result.output
    assert all(value in result.output for value in ("email", "linkedin", "whatsapp")), result.output


def test_a_bad_outbox_channel_is_refused_with_the_allowed_values() -> None:
    result = CliRunner().invoke(app, ["sandbox", "outbox", "--channel", "fax"], env=WIDE)
    assert result.exit_code == 2, result.output
    assert all(value in result.output for value in ("email", "linkedin_likes")), result.output


def test_a_bad_admin_value_is_the_json_error_naming_the_allowed_values() -> None:
    # The admin contract: `{"error": ...}` on stderr, exit 1, before any database is opened.
    result = CliRunner().invoke(app, ["admin", "user", "create", "--email", "a@b.example", "--plan", "gold"])
    assert result.exit_code == 1, result.output
    error = json.loads(result.stderr)["error"]
    assert "unknown plan" in error and all(plan in error for plan in PLANS), error
    result = CliRunner().invoke(app, ["admin", "key", "create", "--user", "usr_1", "--mode", "prod"])
    assert result.exit_code == 1 and "live, test" in json.loads(result.stderr)["error"]
