"""The request bodies of the API's creation operations, as data: what `generated.py` (written from the
server's OpenAPI document by `python -m leadwire.sdk_codegen`) is made of, and how a call's arguments
become the body it sends.

A `Field` is one member of a request body: its Python type, whether it is required, the server's
default, its description, its allowed values, limits and format, and for an object its own fields. An
`Operation` is a POST: its path, summary and body fields. The SDK's creation methods and the command
line's options are both derived from these tables, so the request model is defined once, on the server.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, TypeVar

from leadwire.client.core import Call, creation

Day = str | date  # a date, or one written YYYY-MM-DD
Number = int | float
K = TypeVar("K", bound=str)  # a selector's values: `Literal["v1", "v2"]`


@dataclass(frozen=True)
class Field:
    name: str
    type: type  # str, int, float, bool, list (see `items`), dict (see `fields`) or object (anything)
    required: bool = False
    default: Any = None  # what the server takes when the field is not sent
    description: str = ""
    title: str = ""
    enum: tuple[Any, ...] = ()  # the allowed values
    const: Any = None  # the one allowed value: always sent, never asked for
    minimum: Number | None = None
    maximum: Number | None = None
    min_length: int | None = None  # characters of a string, items of a list
    max_length: int | None = None
    pattern: str | None = None
    format: str | None = None  # "date": a date, or text YYYY-MM-DD
    examples: tuple[Any, ...] = ()
    items: Field | None = None  # a list's items
    fields: tuple[Field, ...] = ()  # an object's members

    @property
    def label(self) -> str:
        """The description, or else the title in lower case (`page size`)."""
        return self.description or (self.title or self.name.replace("_", " ")).lower()


@dataclass(frozen=True)
class Operation:
    path: str  # with `{name}` for each of `path_params`
    summary: str
    fields: tuple[Field, ...]
    path_params: tuple[str, ...] = ()
    waits: bool = False  # honours `Prefer: wait=N`
    method: str = "POST"


def select(operations: Mapping[K, Operation], argument: str, value: K) -> Operation:
    """The operation `value` names (a version, a section); a ValueError before any request otherwise."""
    if value not in operations:
        raise ValueError(f"{argument} must be one of " + ", ".join(operations))
    return operations[value]


def creation_call(operation: Operation, given: Mapping[str, Any]) -> Call:
    """The creation POST for a method's arguments (`given`, its `locals()`): path parameters in the
    path, the body from the fields given, `wait` and `idempotency_key` as headers (core.creation)."""
    path = operation.path.format(**{name: given[name] for name in operation.path_params})
    wait = given.get("wait") if operation.waits else None
    return creation(
        path, body(operation.fields, given), idempotency_key=given.get("idempotency_key"), wait=wait
    )


def body(fields: tuple[Field, ...], given: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON body: each field given (None is not given, not sent), a constant field always."""
    sent = {}
    for field in fields:
        value = sendable(field, field.const if field.const is not None else given.get(field.name))
        if value is not None:
            sent[field.name] = value
    return sent


def sendable(field: Field, value: Any) -> Any:
    """`value` as the body carries it: a date as YYYY-MM-DD, a list for a text field joined with commas
    (`country_codes`), an object with its constant members, an optional one without its None members
    (None when nothing is left)."""
    if value is None:
        return None
    if field.format == "date" and isinstance(value, date):
        return day(value)
    if field.type is str and isinstance(value, list | tuple):
        return ",".join(str(part) for part in value)
    if field.fields and isinstance(value, Mapping):
        constants = {m.name: m.const for m in field.fields if m.const is not None}  # `seed.type`
        if field.required:
            return {**constants, **value}
        kept = {name: member for name, member in value.items() if member is not None}
        return {**constants, **kept} if kept else None
    return value


def day(value: Day) -> str:
    if isinstance(value, datetime):
        return value.date().isoformat()
    return value.isoformat() if isinstance(value, date) else value


def facts(field: Field, *, choices: bool = True, bounds: bool = True) -> list[str]:
    """What the schema says of a field beyond its description, as short phrases (`YYYY-MM-DD`,
    `1-20`, `at most 2000 characters`, `default 20`); the command line leaves out what it shows
    itself (choices, bounds)."""
    said = []
    if choices and field.enum:
        said.append(" or ".join(", ".join(map(str, field.enum)).rsplit(", ", 1)))
    if field.format == "date":
        said.append("YYYY-MM-DD")
    if bounds and (field.minimum is not None or field.maximum is not None):
        said.append(_span(field.minimum, field.maximum, ""))
    if field.min_length is not None or field.max_length is not None:
        unit = " items" if field.type is list else " characters"
        said.append(_span(field.min_length, field.max_length, unit))
    if field.items is not None and (item := facts(field.items, choices=choices, bounds=bounds)):
        said.append("each " + ", ".join(item))
    if field.examples:
        said.append(f"e.g. {field.examples[0]}")
    if field.default is not None and not isinstance(field.default, dict | list):
        said.append(f"default {field.default}")
    return said


def _span(low: Number | None, high: Number | None, unit: str) -> str:
    if low is not None and high is not None:
        return f"{low}{unit}" if low == high else f"{low}-{high}{unit}"
    return f"at least {low}{unit}" if low is not None else f"at most {high}{unit}"
