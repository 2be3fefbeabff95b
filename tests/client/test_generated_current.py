"""The SDK's creation methods and the command line's options come from the server's request models:
client/generated.py is what `python -m leadwire.sdk_codegen` writes from the app's OpenAPI document
today (a server field change fails here until it is regenerated: `make sdk`), each method sends the
body its field table describes, and each command's options are the fields of its operation (flag,
required, range, choices, help)."""

from __future__ import annotations

import dataclasses
import difflib
import inspect
from datetime import date
from typing import Any, get_args

import pytest
import typer
from click.core import Command

from leadwire import sdk_codegen
from leadwire.cli import app
from leadwire.client import Leadwire, generated
from leadwire.client.core import Call
from leadwire.client.generated import (
    CREATE_WEBSET,
    CUSTOMS_CANDIDATES,
    CUSTOMS_REPORT,
    CUSTOMS_SEARCH,
    CUSTOMS_SECTION,
    DISPATCH,
    LIKE_POST,
    START_FIND_MORE,
)
from leadwire.client.operation import Field, Operation
from leadwire.client.options import FROM_SCHEMA, schema_options


def test_generated_py_is_what_the_server_s_openapi_document_makes_today() -> None:
    written = sdk_codegen.TARGET.read_text()
    current = sdk_codegen.render(sdk_codegen.openapi())
    diff = "".join(
        difflib.unified_diff(
            written.splitlines(keepends=True), current.splitlines(keepends=True), "written", "current", n=1
        )
    )
    assert current == written, f"client/generated.py is behind the server: run `make sdk`\n{diff[:6000]}"


def test_every_sdk_method_of_the_generator_exists_with_a_docstring_and_its_fields() -> None:
    for method in sdk_codegen.METHODS:
        function = getattr(Leadwire, method.name)
        assert function.__doc__ and "POST /api/" in function.__doc__, method.name
        parameters = inspect.signature(function).parameters
        operation = _operation(method.name)
        asked = {f.name for f in operation.fields if f.const is None}
        assert asked <= set(parameters), (method.name, asked - set(parameters))
        for field in operation.fields:
            if field.name in parameters:
                required = parameters[field.name].default is inspect.Parameter.empty
                assert required == field.required, (method.name, field.name)


def _operation(method: str) -> Operation:
    found = getattr(generated, method.upper())
    return found if isinstance(found, Operation) else next(iter(found.values()))


class Recorder(Leadwire):
    def _run(self, call: Any) -> Any:
        return call


def test_bodies_are_built_from_the_field_tables() -> None:
    with Recorder("lw_live_x", "http://127.0.0.1:9") as sdk:
        public_web: Call = sdk.public_web(["cold chain"], search_limit=3, include_domains=[], wait=10)
        contacts: Call = sdk.contacts("acme.example", positions=["sales"], idempotency_key="k-1")
        dispatch: Call = sdk.dispatch("acct_1", "email", {"address": "a@b.example"}, {"subject": "Hi"})
        like: Call = sdk.like_post("https://www.linkedin.com/in/ada", "robotics", post_limit=5, version="v1")
        webset: Call = sdk.create_webset("EU forwarders", count=100)
        more: Call = sdk.start_find_more("ws_1", count=25)
        search: Call = sdk.customs_search("importer", date(2024, 1, 1), "2024-12-31", hs_code="8471")

    assert (public_web.path, public_web.json) == (
        "/api/v2/research/public-web",
        {"queries": ["cold chain"], "search_limit": 3, "include_domains": []},
    )
    assert public_web.headers is not None and public_web.headers["Prefer"] == "wait=10"
    assert contacts.json == {"domain": "acme.example", "positions": ["sales"]}
    assert contacts.headers == {"Idempotency-Key": "k-1"}
    # The constant `action` is always sent, and never asked for.
    assert dispatch.path == "/api/v2/outreach/dispatches"
    assert dispatch.json == {
        "account_id": "acct_1",
        "channel": "email",
        "action": "outreach",
        "recipient": {"address": "a@b.example"},
        "content": {"subject": "Hi"},
    }
    assert "action" not in inspect.signature(Leadwire.dispatch).parameters
    assert like.path == "/api/v1/outreach/linkedin/post-likes"
    assert like.json == {
        "profile_url": "https://www.linkedin.com/in/ada",
        "content": "robotics",
        "post_limit": 5,
    }
    # Creating a webset does not take `Prefer: wait` (the operation documents no finished answer).
    assert (webset.path, webset.json) == ("/api/v2/websets", {"query": "EU forwarders", "count": 100})
    assert webset.headers is not None and "Prefer" not in webset.headers
    assert (more.path, more.json) == ("/api/v2/websets/ws_1/find-more", {"count": 25})
    assert more.headers is not None and more.headers["Idempotency-Key"].startswith("sdk-")
    assert search.json == {
        "company_role": "importer",
        "start_date": "2024-01-01",
        "end_date": "2024-12-31",
        "hs_code": "8471",
    }


def test_a_version_or_section_outside_the_operations_is_a_value_error_naming_them() -> None:
    with Recorder("lw_live_x", "http://127.0.0.1:9") as sdk:
        with pytest.raises(ValueError, match="version must be one of v1, v2"):
            sdk.like_post("https://www.linkedin.com/in/ada", "robotics", version="v3")
        with pytest.raises(ValueError, match="section must be one of counterparties, categories"):
            sdk.customs_section("partners", "Acme", "importer", "2024-01-01", "2024-12-31")


# The customs commands' flags that are not the field's name.
CUSTOMS = {
    "start_date": "--start",
    "end_date": "--end",
    "company_role": "--role",
    "country_codes": "--countries",
    "product_description": "--product",
    "origin_country_code": "--origin",
    "destination_country_code": "--destination",
}
# (command, its operation, flags that are not the field's name, fields it asks for its own way)
COMMANDS: list[tuple[tuple[str, ...], Operation, dict[str, str], set[str]]] = [
    (("customs", "candidates"), CUSTOMS_CANDIDATES, CUSTOMS, set()),
    (("customs", "search"), CUSTOMS_SEARCH, CUSTOMS, set()),
    (("customs", "section"), CUSTOMS_SECTION["trends"], CUSTOMS, set()),
    (("customs", "report"), CUSTOMS_REPORT, CUSTOMS, set()),
    (
        ("outreach", "send"),
        DISPATCH["v2"],
        {"account_id": "--account", "min_channel_task_interval_seconds": "--interval"},
        {"metadata", "address", "profile_url", "phone", "attachments", "attachment"},
    ),
    (
        ("outreach", "like"),
        LIKE_POST["v2"],
        {
            "profile_url": "--profile",
            "content": "--topic",
            "account_id": "--account",
            "min_channel_task_interval_seconds": "--interval",
        },
        set(),
    ),
    (
        ("websets", "create"),
        CREATE_WEBSET,
        {"type": "--seed", "id": "--seed-import", "role": "--trade-role"},
        {"exclude"},
    ),
    (("websets", "find-more"), START_FIND_MORE, {}, {"exclude"}),
]


def _command(path: tuple[str, ...]) -> Command:
    command: Any = typer.main.get_command(app)
    for name in path:
        command = command.get_command(None, name)
    return command


def _leaves(fields: tuple[Field, ...]) -> list[Field]:
    """The fields, an object's members in its place (as the command line asks for them: a member of an
    optional object only when the object is given)."""
    return [
        dataclasses.replace(m, required=m.required and f.required)
        for f in fields
        if f.const is None
        for m in (f.fields if f.fields else (f,))
        if m.const is None
    ]


@pytest.mark.parametrize(
    ("path", "operation", "flags", "own"), COMMANDS, ids=[" ".join(c[0]) for c in COMMANDS]
)
def test_each_command_asks_for_its_operation_s_fields_as_the_schema_describes_them(
    path: tuple[str, ...], operation: Operation, flags: dict[str, str], own: set[str]
) -> None:
    params = {param.name: param for param in _command(path).params}
    for field in _leaves(operation.fields):
        if field.name in own:
            assert field.name not in params, field.name
            continue
        param: Any = params[field.name]
        assert param.required == field.required, field.name
        if param.param_type_name == "option":
            assert flags.get(field.name, "--" + field.name.replace("_", "-")) in param.opts, param.opts
            assert (param.min, param.max) == (field.minimum, field.maximum), field.name
        if field.enum:
            assert get_args(param.type_descriptor.annotation) == field.enum, field.name
        if field.description:
            assert field.description in param.help, (field.name, param.help)
        if field.default is not None:
            assert f"default {field.default}" in param.help, (field.name, param.help)


def test_a_command_without_the_marker_or_with_a_field_it_cannot_ask_for_is_refused() -> None:
    def plain(name: str = "x") -> None:
        return None

    def with_fields(fields: dict[str, Any] = FROM_SCHEMA) -> None:
        return None

    with pytest.raises(TypeError, match="FROM_SCHEMA"):
        schema_options(CREATE_WEBSET)(plain)
    with pytest.raises(TypeError, match="metadata"):  # an untyped field: no option can give it
        schema_options(DISPATCH["v2"])(with_fields)
