"""Every response the suite receives is checked against the app's own OpenAPI document: the status
must be one the operation documents, and the JSON body must validate against that status's schema.
So the published document cannot drift from what the API sends."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import httpx
from fastapi import FastAPI
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

# Routes of the test-only plugin and the non-REST faces are not part of the published API.
UNDOCUMENTED_PREFIXES = ("/api/v2/test/", "/mcp", "/docs", "/openapi.json", "/redoc")


@dataclass
class Operation:
    pattern: re.Pattern[str]
    method: str
    responses: dict[str, Any]


@dataclass
class Contract:
    """An app's OpenAPI document, ready to check responses against: its operations, the document as a
    schema registry, and a validator per documented (operation, status, media type) built on first use."""

    operations: list[Operation]
    registry: Registry  # type: ignore[type-arg]
    validators: dict[tuple[int, str, str], Draft202012Validator] = field(default_factory=dict)

    @classmethod
    def of(cls, document: dict[str, Any]) -> Contract:
        registry = Registry().with_resource(  # type: ignore[call-arg]
            "urn:openapi", Resource.from_contents(document, default_specification=DRAFT202012)
        )
        operations = []
        for path, item in document.get("paths", {}).items():
            pattern = re.compile("^" + re.sub(r"\{[^/]+\}", "[^/]+", path) + "$")
            for method, operation in item.items():
                operations.append(Operation(pattern, method.upper(), operation.get("responses", {})))
        return cls(operations, registry)


# Building an app's document takes ~0.5 s, and nearly every test builds an app with the same routes:
# documents are kept per route set (each route's path, methods and endpoint), which is all they are
# built from besides the app's title and version.
_CONTRACTS: dict[tuple[Any, ...], Contract] = {}


def _route_set(app: FastAPI) -> tuple[Any, ...]:
    routes = tuple(
        (
            getattr(route, "path", ""),
            tuple(sorted(getattr(route, "methods", None) or ())),
            getattr(getattr(route, "endpoint", None), "__qualname__", type(route).__name__),
        )
        for route in app.routes
    )
    return (app.title, app.version, routes)


def contract_of(app: FastAPI) -> Contract:
    key = _route_set(app)
    if key not in _CONTRACTS:
        _CONTRACTS[key] = Contract.of(app.openapi())
    return _CONTRACTS[key]


@dataclass
class ResponseConformance:
    app: FastAPI
    failures: list[str] = field(default_factory=list)
    checked: int = 0
    _contract: Contract | None = None

    def _load(self) -> Contract:
        if self._contract is None:
            self._contract = contract_of(self.app)
        return self._contract

    def check(self, response: httpx.Response) -> None:
        request = response.request
        path = request.url.path
        if path.startswith(UNDOCUMENTED_PREFIXES):
            return
        contract = self._load()
        operation = next(
            (o for o in contract.operations if o.method == request.method and o.pattern.match(path)), None
        )
        if operation is None:
            return  # an unknown route or method: answered 404/405, which no operation can document
        self.checked += 1
        where = f"{request.method} {path} -> {response.status_code}"
        documented = operation.responses.get(str(response.status_code))
        if documented is None:
            self.failures.append(f"{where}: status not documented ({sorted(operation.responses)})")
            return
        content = documented.get("content", {})
        media = response.headers.get("content-type", "").split(";")[0]
        schema = content.get(media, {}).get("schema")
        if schema is None:
            if content and media not in content:
                self.failures.append(f"{where}: media type {media} not documented ({sorted(content)})")
            return
        which = (id(operation), str(response.status_code), media)
        validator = contract.validators.get(which)
        if validator is None:
            resolved = self._resolve_refs(schema)
            validator = Draft202012Validator(resolved, registry=contract.registry)  # type: ignore[call-arg]
            contract.validators[which] = validator
        # A text body (the Prometheus exposition, an export's JSON lines) is checked as the string it is.
        body = response.json() if media == "application/json" or media.endswith("+json") else response.text
        errors = sorted(validator.iter_errors(body), key=lambda e: list(e.path))
        if errors:
            first = errors[0]
            self.failures.append(f"{where}: {first.message} at {list(first.absolute_path)}")

    @staticmethod
    def _resolve_refs(schema: dict[str, Any]) -> dict[str, Any]:
        """Point the document's local refs (`#/components/...`) at the registered document."""

        def walk(node: Any) -> Any:
            if isinstance(node, dict):
                return {
                    k: (
                        "urn:openapi" + v
                        if k == "$ref" and isinstance(v, str) and v.startswith("#")
                        else walk(v)
                    )
                    for k, v in node.items()
                }
            if isinstance(node, list):
                return [walk(v) for v in node]
            return node

        resolved: dict[str, Any] = walk(schema)
        return resolved

    def hook(self) -> Any:
        async def on_response(response: httpx.Response) -> None:
            await response.aread()
            self.check(response)

        return on_response
