"""A command's options derived from an operation's body fields (generated.py), not written again: the
flag from the field's name (`page_size` -> `--page-size`), the help from its description and what the
schema says of it (format, length, example, the server's default), the range from its minimum and
maximum, the choices from its allowed values, required when the API requires it.

    @customs_app.command("search")
    @schema_options(CUSTOMS_SEARCH, flags={"company_role": "--role"}, helps=HELPS)
    def search(fields: Fields = FROM_SCHEMA, api_url: str = ApiUrl, ...) -> None:
        lw.customs_search(**fields)

The parameter whose default is `FROM_SCHEMA` stands where the derived options go; the command receives
the values given as that one argument, under the API's names (an object's members as a dict, as
`filters`), ready to pass to the SDK method of the same operation.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Any, Literal, cast

import typer

from leadwire.client.operation import Field, Operation, facts

Fields = dict[str, Any]  # the values given for an operation's fields, by the API's names
FROM_SCHEMA: Any = object()  # the default that marks the parameter receiving them
Command = Callable[..., None]


def schema_options(
    operation: Operation,
    *,
    flags: Mapping[str, str] | None = None,
    arguments: Collection[str] = (),
    helps: Mapping[str, str] | None = None,
    exclude: Collection[str] = (),
) -> Callable[[Command], Command]:
    """Give the command an option (or, for a name in `arguments`, an argument) per field of the body.

    A field is named by itself or, for an object's member, `object.member` (`filters.hs_code`), in each
    of these: `flags`, the flag where it is not the field's name (`--role`; for an argument, its
    metavar); `helps`, the help for a field the request model does not describe (its description wins
    when it has one); `exclude`, the fields the command does not ask for, or asks for its own way.
    In `flags` and `helps` a member's own name (`hs_code`) also matches, so one mapping serves a flat
    body and one that nests the same fields. A constant field is never asked for (it is always sent).
    """

    def derive(command: Command) -> Command:
        own = inspect.signature(command, eval_str=True)
        marker = [p for p in own.parameters.values() if p.default is FROM_SCHEMA]
        if len(marker) != 1:
            raise TypeError(f"{command.__name__}: one parameter must default to FROM_SCHEMA")
        derived = [
            (path, _parameter(path, field, flags or {}, helps or {}, path in arguments))
            for path, field in _fields(operation.fields, exclude)
        ]
        clash = {p.name for _, p in derived} & set(own.parameters)
        if clash:
            raise TypeError(f"{command.__name__}: its own parameters {sorted(clash)} are also fields")
        parameters: list[inspect.Parameter] = []
        for parameter in own.parameters.values():
            parameters += [p for _, p in derived] if parameter is marker[0] else [parameter]

        @functools.wraps(command)
        def run(**given: Any) -> None:
            fields: Fields = {}
            for path, parameter in derived:
                parent = path.rpartition(".")[0]
                into = fields.setdefault(parent, {}) if parent else fields
                into[parameter.name] = given.pop(parameter.name)
            command(**given, **{marker[0].name: fields})

        run.__signature__ = own.replace(parameters=parameters)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in parameters}
        return run

    return derive


def _fields(fields: tuple[Field, ...], exclude: Collection[str]) -> Iterator[tuple[str, Field]]:
    """(path, field) of each field the command asks for: an object's members in its place."""
    for field in fields:
        if field.const is not None or field.name in exclude:
            continue
        if field.type is dict and field.fields:
            # A member of an optional object is asked for only when the object is given at all.
            members = (
                (f"{field.name}.{m.name}", dataclasses.replace(m, required=m.required and field.required))
                for m in field.fields
                if m.const is None
            )
            yield from ((path, member) for path, member in members if path not in exclude)
        elif field.type in (dict, object):
            raise TypeError(f"{field.name}: no option can give this field; exclude it")
        else:
            yield field.name, field


def _parameter(
    path: str, field: Field, flags: Mapping[str, str], helps: Mapping[str, str], argument: bool
) -> inspect.Parameter:
    flag = flags.get(path) or flags.get(field.name)
    said = facts(field, choices=False, bounds=False)  # the help shows choices and ranges itself
    lead = field.description or helps.get(path) or helps.get(field.name) or field.label
    help_text = f"{lead} ({'; '.join(said)})" if said else lead
    default = ... if field.required else None
    info: Any
    if argument:
        info = typer.Argument(default, metavar=flag or field.name.upper(), help=help_text, show_default=False)
    else:
        flag = flag or "--" + field.name.replace("_", "-")
        if field.type is bool:
            flag = f"{flag}/--no-{flag.removeprefix('--')}"
        numeric = field.type in (int, float)
        low, high = (field.minimum, field.maximum) if numeric else (None, None)
        info = typer.Option(default, flag, help=help_text, show_default=False, min=low, max=high)
    annotation = _annotation(field)
    if not field.required:
        annotation = annotation | None
    return inspect.Parameter(
        field.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=info, annotation=annotation
    )


def _annotation(field: Field) -> Any:
    """The type the command line parses the value as: one of the allowed values, or the field's type."""
    if field.enum:
        return cast(Any, Literal)[field.enum]
    if field.type is list:
        return cast(Any, list)[_annotation(field.items) if field.items is not None else str]
    return field.type
