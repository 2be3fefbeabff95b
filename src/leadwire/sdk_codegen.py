"""Writes the SDK's creation methods from the server's OpenAPI document: `src/leadwire/client/generated.py`
holds each creation operation's body fields as data (`client/operation.py`: name, Python type, required,
server default, description, allowed values, limits, format) and `Creations`, a mixin with one typed,
documented method per SDK call. The command line's options are derived from the same tables
(`client/options.py`), so a request model is defined once, on the server.

    .venv/bin/python -m leadwire.sdk_codegen          # rewrite client/generated.py (`make sdk`)
    .venv/bin/python -m leadwire.sdk_codegen --check  # exit 1 when it is not current

tests/client/test_generated_current.py fails when a server change leaves the file behind. The SDK itself
imports nothing of the server: this module, which builds the app, is not part of the client package.
What is the SDK's own choice (a method's name, which argument picks among operations, what it returns)
is `METHODS` below; everything about the fields comes from the document.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from leadwire.app import create_app
from leadwire.client.operation import Field, facts
from leadwire.config import Settings

TARGET = Path(__file__).with_name("client") / "generated.py"
COMMAND = "python -m leadwire.sdk_codegen"
JOB = "the job (the finished job when it ends within `wait`)"
TYPES = {"string": str, "integer": int, "number": float, "boolean": bool, "array": list, "object": dict}
TYPE_SOURCE = {
    str: "str",
    int: "int",
    float: "float",
    bool: "bool",
    list: "list",
    dict: "dict",
    object: "object",
}
DOC_WIDTH = 100  # a docstring line, after its 8 spaces of indentation, within the 110 of the project
UNBROKEN: dict[str, Any] = {"break_on_hyphens": False, "break_long_words": False}  # paths, codes


@dataclass(frozen=True)
class Method:
    """An SDK creation method: its operation, or the operations one of its arguments (`selector`)
    chooses among; `default` is that argument's default (none: it is the first argument)."""

    name: str
    paths: Mapping[str, str]  # selector value -> path; {"": path} for a method of one operation
    returns: str
    selector: str = ""
    default: str | None = None
    summary: str = ""  # the first line when the operations' summaries differ and none is the default
    accepts: Mapping[str, str] = field(default_factory=dict)  # field -> a wider Python type than the schema's


def one(name: str, path: str, returns: str = JOB, **options: Any) -> Method:
    return Method(name, {"": path}, returns, **options)


def versions(name: str, path: str, returns: str) -> Method:
    """A method on `/api/v1/...` and `/api/v2/...`, v2 unless `version="v1"`."""
    paths = {version: path.replace("/api/v2/", f"/api/{version}/") for version in ("v1", "v2")}
    return Method(name, paths, returns, selector="version", default="v2")


SECTIONS = ("counterparties", "categories", "trends", "countries")
REDUCED = (
    "the reduced item `{id, status, action, channel, scheduled_at}`, or the finished job when it ends "
    "within `wait`"
)
METHODS = (
    one("public_web", "/api/v2/research/public-web"),
    one("contacts", "/api/v2/research/contacts"),
    versions(
        "dispatch",
        "/api/v2/outreach/dispatches",
        REDUCED + "; build attachments with `attachment_from_file`",
    ),
    versions("like_post", "/api/v2/outreach/linkedin/post-likes", REDUCED),
    one(
        "customs_candidates",
        "/api/v2/customs/company-candidates",
        JOB + ", whose result is `{query, date_range, routing_evidence, identity_notice, total, page, "
        "page_size, candidates}`; `country_codes` may be a list",
        accepts={"country_codes": "str | list[str]"},
    ),
    one(
        "customs_search",
        "/api/v2/customs/companies/search",
        JOB + ", whose result's `data.items` are the companies (give at least one filter)",
    ),
    Method(
        "customs_section",
        {section: f"/api/v2/customs/{section}" for section in SECTIONS},
        JOB + ", whose result's `data.items` are the section's rows",
        selector="section",
        summary="One section of a company's trade",
    ),
    one(
        "customs_report",
        "/api/v2/customs/trade-reports",
        JOB + ", whose result's `sections` (counterparties, categories, trend, countries) are each "
        "`{status: complete, data}` or `{status: failed, error}`",
    ),
    one(
        "create_webset",
        "/api/v2/websets",
        "`{webset: {id, status, count, target_kind}, preparation_job: {id, status}}`",
    ),
    one(
        "start_find_more",
        "/api/v2/websets/{webset_id}/find-more",
        "the `websets.find_more` job, without following it (`find_more` also follows the run)",
    ),
    one(
        "create_enrichment",
        "/api/v2/websets/{webset_id}/enrichments",
        "the enrichment `{id, status, description, format, options, progress, job_id, ...}`",
    ),
)


def openapi() -> dict[str, Any]:
    """The document the server publishes at /openapi.json (the product's routes; no database)."""
    with tempfile.TemporaryDirectory() as scratch:
        document: dict[str, Any] = create_app(Settings(data_dir=Path(scratch), plugins="")).openapi()
    return document


class Schemas:
    """The document's request schemas as `Field`s; a named object schema becomes a module constant."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.components: dict[str, Any] = document.get("components", {}).get("schemas", {})
        self.tables: dict[str, tuple[Field, ...]] = {}  # schema name -> its fields
        self.constants: dict[int, str] = {}  # id of a fields tuple -> its constant
        self.sources: dict[str, str] = {}  # constant -> source ("(Field(...), ...)" or another constant)

    def table(self, reference: str) -> tuple[Field, ...]:
        """The fields of `#/components/schemas/Name`, once per name (a constant of the module)."""
        name = reference.rsplit("/", 1)[-1]
        if name not in self.tables:
            schema = self.components[name]
            required = set(schema.get("required", ()))
            fields = tuple(
                self.field(key, value, key in required) for key, value in schema["properties"].items()
            )
            self.tables[name] = fields
            constant = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).upper()
            source = "(" + "".join(f"\n    {self.source(f)}," for f in fields) + "\n)"
            same = [other for other, text in self.sources.items() if text == source]
            self.sources[constant] = same[0] if same else source
            self.constants[id(fields)] = constant
        return self.tables[name]

    def field(self, name: str, schema: dict[str, Any], required: bool) -> Field:
        schema = self.flat(schema)
        members: tuple[Field, ...] = ()
        if "$ref" in schema:
            named = self.components[schema["$ref"].rsplit("/", 1)[-1]]
            if "properties" in named:
                members = self.table(schema["$ref"])
            else:  # an enum or a constrained scalar of its own name: inlined
                schema = self.flat({**named, **{k: v for k, v in schema.items() if k != "$ref"}})
        kind = dict if members else TYPES.get(schema.get("type", ""), object)
        if "enum" in schema or "const" in schema:
            kind = type((schema.get("enum") or [schema.get("const")])[0])
        items = schema.get("items")
        title = schema.get("title", "")
        return Field(
            name,
            kind,
            required=required,
            default=schema.get("default"),
            description=schema.get("description", ""),
            title="" if title == name.replace("_", " ").title() else title,
            enum=tuple(schema.get("enum", ())),
            const=schema.get("const"),
            minimum=schema.get("minimum", schema.get("ge")),
            maximum=schema.get("maximum", schema.get("le")),
            min_length=schema.get("minLength", schema.get("minItems")),
            max_length=schema.get("maxLength", schema.get("maxItems")),
            pattern=schema.get("pattern"),
            format=schema.get("format"),
            examples=tuple(schema.get("examples", ())),
            items=None if items is None else self.field("", items, False),
            fields=members,
        )

    def flat(self, schema: dict[str, Any]) -> dict[str, Any]:
        """`anyOf: [X, null]` (an optional field) as X with the outer keys (title, default, limits);
        a lone `allOf: [X]` as X; several non-null alternatives as no type (anything)."""
        outer = {key: value for key, value in schema.items() if key not in ("anyOf", "allOf")}
        choices = [
            part for part in schema.get("anyOf", schema.get("allOf", [])) if part.get("type") != "null"
        ]
        if len(choices) == 1:
            return {**choices[0], **outer}
        return outer

    def source(self, field: Field) -> str:
        """`Field("page", int, default=1, minimum=1, maximum=1000)`: the attributes not at their default."""
        parts = [repr(field.name), TYPE_SOURCE[field.type]]
        for attribute in dataclasses.fields(Field)[2:]:
            value = getattr(field, attribute.name)
            if value == attribute.default:
                continue
            if attribute.name == "items":
                text = self.source(value)
            elif attribute.name == "fields":
                text = self.constants[id(value)]
            else:
                text = repr(value)
            parts.append(f"{attribute.name}={text}")
        return f"Field({', '.join(parts)})"


def python_type(field: Field, accepts: Mapping[str, str] | None = None) -> str:
    """The Python type a method takes for the field (`accepts`: a wider one the SDK converts)."""
    if accepts and field.name in accepts:
        return accepts[field.name]
    if field.enum:
        return f"Literal[{', '.join(map(repr, field.enum))}]"
    if field.format == "date":
        return "Day"
    if field.type is list:
        return "list[" + (python_type(field.items) if field.items else "Any") + "]"
    if field.type is dict:
        return "dict[str, Any]"
    return "Any" if field.type is object else TYPE_SOURCE[field.type]


def parameter(field: Field, accepts: Mapping[str, str]) -> str:
    """`name: type` for a required field, `name: type | None = None` for an optional one."""
    text = python_type(field, accepts)
    if field.required:
        return f"{field.name}: {text}"
    return f"{field.name}: {text} = None" if text == "Any" else f"{field.name}: {text} | None = None"


def shape(fields: tuple[Field, ...]) -> str:
    """`{filename, contentBase64, contentType?}`: an object's members, `?` for the optional ones."""
    return "{" + ", ".join(f.name + ("" if f.required else "?") for f in fields) + "}"


def describe(field: Field) -> str:
    """A field's line in a method's docstring: its description and what the schema says of it (its
    choices unless the description names them all); empty when the document says nothing of it."""
    said = [field.description] if field.description else []
    named = all(str(value) in field.description for value in field.enum)
    said += facts(field, choices=not named)
    if field.type is dict and field.fields:
        said.append(shape(field.fields))
    elif field.items is not None and field.items.fields:
        said.append("a list of " + shape(field.items.fields))
    return "; ".join(said)


def wrapped(name: str, text: str, depth: int = 1) -> list[str]:
    """A docstring's `name: text.` under Args (depth 1) or under an object field (depth 2); nothing
    for no text."""
    if not text:
        return []
    indent = "    " * depth
    return textwrap.wrap(
        f"{name}: {text}.", DOC_WIDTH, initial_indent=indent, subsequent_indent=f"{indent}    ", **UNBROKEN
    )


class Writer:
    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.schemas = Schemas(document)
        self.operations: list[str] = []  # constant definitions, in method order
        self.methods: list[str] = []

    def operation(self, path: str) -> tuple[dict[str, Any], tuple[Field, ...]]:
        """The POST operation at `path` and its body's fields."""
        found = self.document["paths"].get(path, {}).get("post")
        if found is None:
            raise SystemExit(f"the OpenAPI document has no POST {path}: update METHODS in {__name__}")
        reference = found["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        return found, self.schemas.table(reference)

    def add(self, method: Method) -> None:
        """The method's operation (a constant), or its selector's values and their operations (a map),
        and the method itself."""
        chosen = {value: self.operation(path) for value, path in method.paths.items()}
        made = {}
        for value, path in method.paths.items():
            found, fields = chosen[value]
            if [f.name for f in fields] != [f.name for f in next(iter(chosen.values()))[1]]:
                raise SystemExit(f"{method.name}: the operations of `{method.selector}` take other fields")
            arguments = [repr(path), repr(found.get("summary", "")), self.schemas.constants[id(fields)]]
            if _path_params(path):
                arguments.append(f"path_params={_path_params(path)!r}")
            arguments.append(f"waits={_waits(found)}")
            made[value] = f"Operation({', '.join(arguments)})"
        name = method.name.upper()
        if method.selector:
            values = ", ".join(map(repr, method.paths))
            pairs = "".join(f"\n    {value!r}: {operation}," for value, operation in made.items())
            self.operations.append(f"{_alias(method)} = Literal[{values}]")
            self.operations.append(f"{name}: dict[{_alias(method)}, Operation] = {{{pairs}\n}}")
        else:
            self.operations.append(f"{name} = {made['']}")
        self.methods.append(self.method(method, chosen))

    def method(self, method: Method, chosen: dict[str, tuple[dict[str, Any], tuple[Field, ...]]]) -> str:
        """The method's source: the signature and docstring of the default (or first) operation."""
        found, fields = chosen.get(method.default or "", next(iter(chosen.values())))
        given = [f for f in fields if f.const is None]  # a constant is always sent, never asked for
        waits = _waits(found)
        first = [f"{name}: str" for name in _path_params(next(iter(method.paths.values())))]
        choice = _alias(method)
        if method.selector and method.default is None:
            first.insert(0, f"{method.selector}: {choice}")
        last = [parameter(f, method.accepts) for f in given if not f.required]
        last += ["wait: int | None = None"] if waits else []
        last += ["idempotency_key: str | None = None"]
        if method.selector and method.default is not None:
            last.append(f"{method.selector}: {choice} = {method.default!r}")
        required = [parameter(f, method.accepts) for f in given if f.required]
        parameters = ", ".join(["self", *first, *required, "*", *last])
        if method.selector:
            target = f"select({method.name.upper()}, {method.selector!r}, {method.selector})"
        else:
            target = method.name.upper()
        summary = method.summary or found.get("summary", "")
        docstring = self.docstring(method, given, summary, waits, chosen)
        return (
            f"    def {method.name}({parameters}) -> R:\n{docstring}\n"
            f"        return self._create({target}, locals())\n"
        )

    def docstring(
        self,
        method: Method,
        fields: list[Field],
        summary: str,
        waits: bool,
        chosen: dict[str, tuple[dict[str, Any], tuple[Field, ...]]],
    ) -> str:
        """Its summary, path and what it returns, then a line per argument from the fields."""
        paths = list(method.paths.values())
        path = paths[0] if len(paths) == 1 else _pattern(paths, method.selector)
        said = f"{summary} (`POST\0{path}`); returns {method.returns}."  # \0: the path stays by POST
        lead = [line.replace("\0", " ") for line in textwrap.wrap(said, DOC_WIDTH - 3, **UNBROKEN)]
        args = []
        if method.selector:
            values = [
                f"{value} ({found.get('summary', '')})" if method.default is None else value
                for value, (found, _) in chosen.items()
            ]
            default = f"; default {method.default}" if method.default else ""
            args += wrapped(method.selector, "one of " + ", ".join(values) + default)
        for name in _path_params(paths[0]):
            args += wrapped(name, "the id in the path")
        for f in [f for f in fields if f.required] + [f for f in fields if not f.required]:
            args += wrapped(f.name, describe(f))  # a field the document says nothing of has no line
            for member in f.fields:
                args += wrapped(member.name, describe(member), depth=2)
        if waits:
            args += wrapped("wait", "seconds the server may hold the answer (`Prefer: wait`), at most 60")
        args += wrapped("idempotency_key", "the creation's key; generated when not given, a retry reuses it")
        lines = [*lead, "", "Args:", *args]
        text = "\n".join(f"        {line}" if line else "" for line in lines)
        text = text.replace("\\", "\\\\").replace('"""', '\\"""')
        return '        """' + text.lstrip() + '\n        """'

    def module(self) -> str:
        tables = "\n\n".join(f"{constant} = {source}" for constant, source in self.schemas.sources.items())
        return HEADER.format(
            command=COMMAND,
            tables=tables,
            operations="\n\n".join(self.operations),
            methods="\n".join(self.methods),
        )


def _alias(method: Method) -> str:
    """`CustomsSection`, `DispatchVersion`: the type of a selector's values."""
    words = method.name.split("_")
    words += [] if words[-1] == method.selector else [method.selector]
    return "".join(word.capitalize() for word in words)


HEADER = '''\
"""The API's creation operations as the SDK sees them, generated from the server's OpenAPI document by
`{command}`: do not edit (`make sdk` rewrites it; tests/client/test_generated_current.py
fails when it is behind the server).

First each request body's fields (`operation.Field`), then each operation (`operation.Operation`), then
`Creations`: one typed method per SDK call, its signature and docstring from the same fields, each
sending `self._create(operation, locals())` (surface.py). The command line's options come from the
same tables (options.py).
"""

# ruff: noqa: E501 (the server's summaries are kept whole)

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

from leadwire.client.operation import Day, Field, Operation, select

R = TypeVar("R")

{tables}

{operations}


class Creations(Generic[R]):
    """The creation calls; `R` is what a call yields (the value, or an awaitable of it)."""

    def _create(self, operation: Operation, given: dict[str, Any]) -> R:
        raise NotImplementedError

{methods}'''


def _waits(operation: dict[str, Any]) -> bool:
    """Whether the operation honours `Prefer: wait`: it declares the header and a 200 (the finished
    job) beside its 202."""
    parameters = operation.get("parameters", ())
    prefer = any(p.get("in") == "header" and p.get("name") == "Prefer" for p in parameters)
    return prefer and "200" in operation.get("responses", {})


def _path_params(path: str) -> tuple[str, ...]:
    return tuple(re.findall(r"\{(\w+)\}", path))


def _pattern(paths: list[str], selector: str) -> str:
    """`/api/{version}/outreach/dispatches`: the paths with the segment that differs named."""
    parts = [path.split("/") for path in paths]
    return "/".join(
        segments[0] if len(set(segments)) == 1 else f"{{{selector}}}" for segments in zip(*parts, strict=True)
    )


def render(document: dict[str, Any]) -> str:
    """generated.py's text for `document`, formatted as `ruff format` leaves it."""
    writer = Writer(document)
    for method in METHODS:
        writer.add(method)
    return _formatted(writer.module())


def _formatted(source: str) -> str:
    try:
        from ruff.__main__ import find_ruff_bin
    except ImportError:  # pragma: no cover - the dev extras bring ruff
        raise SystemExit("ruff is needed to write generated.py: pip install -e '.[dev]'") from None
    result = subprocess.run(
        [find_ruff_bin(), "format", "--stdin-filename", str(TARGET), "-"],
        input=source,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"ruff could not format the generated module:\n{result.stderr}")
    return result.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when generated.py is not current")
    arguments = parser.parse_args(argv)
    text = render(openapi())
    current = TARGET.read_text() if TARGET.exists() else ""
    if arguments.check:
        if text != current:
            print(f"{TARGET} is not current: run `{COMMAND}`", file=sys.stderr)
            return 1
        return 0
    if text != current:
        TARGET.write_text(text)
        print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
