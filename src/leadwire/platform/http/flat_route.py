"""Routes served without FastAPI's dependency solver, for the hottest reads (the job poll).

FastAPI's `solve_dependencies` and its request wrapping were a fifth of the job poll's profile, more
than the route's own work. A `FlatRoute` is declared like any route — its signature documents it in
OpenAPI, and the route-table security test reads its dependencies as it reads every route's — but it is
served by a resolver that knows only what such a route may declare: the `Request`, `str` path
parameters, and `async def` dependencies made of those (the `require(...)` guard and the authenticated
caller under it), each called once per request. A declaration outside that set fails when the route is
built, at start-up, not on a request.

Errors are the app's: whatever the endpoint or a dependency raises goes to the same exception handlers.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from fastapi import APIRouter, FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, iter_route_contexts
from starlette.convertors import Convertor
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import compile_path
from starlette.types import ASGIApp, Receive, Scope, Send

Endpoint = TypeVar("Endpoint", bound=Callable[..., Awaitable[Response]])
Resolver = Callable[[Request, dict[Any, Any]], Awaitable[dict[str, Any]]]


class UnsupportedDeclaration(TypeError):
    """A flat route (or one of its dependencies) declares something only FastAPI's solver provides."""


class FlatRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        endpoint = self.dependant.call
        if endpoint is None:
            raise UnsupportedDeclaration(f"{self.path}: no endpoint")
        resolve = _resolver(self.dependant, self.path)

        async def handler(request: Request) -> Response:
            response: Response = await endpoint(**await resolve(request, {}))
            return response

        return handler


def flat_get(router: APIRouter, path: str, **options: Any) -> Callable[[Endpoint], Endpoint]:
    """`@router.get(path, ...)`, served as a `FlatRoute`."""

    def register(endpoint: Endpoint) -> Endpoint:
        router.add_api_route(path, endpoint, methods=["GET"], route_class_override=FlatRoute, **options)
        return endpoint

    return register


def _resolver(dependant: Dependant, where: str) -> Resolver:
    """Arguments of `dependant.call` for a request; `cache` holds each dependency's value per request."""
    _refuse_unsupported(dependant, where)
    path_names = [field.name for field in dependant.path_params]
    request_name = dependant.request_param_name
    subs = [(sub.name, sub.call, _resolver(sub, where)) for sub in dependant.dependencies]

    async def resolve(request: Request, cache: dict[Any, Any]) -> dict[str, Any]:
        values: dict[str, Any] = {name: request.path_params[name] for name in path_names}
        if request_name is not None:
            values[request_name] = request
        for name, call, resolve_sub in subs:
            if call not in cache:
                cache[call] = await call(**await resolve_sub(request, cache))  # type: ignore[misc]
            values[name] = cache[call]  # type: ignore[index]
        return values

    return resolve


def _refuse_unsupported(dependant: Dependant, where: str) -> None:
    unsupported = {
        "query parameters": dependant.query_params,
        "headers": dependant.header_params,
        "cookies": dependant.cookie_params,
        "a body": dependant.body_params,
        "a websocket": dependant.websocket_param_name,
        "an HTTP connection": dependant.http_connection_param_name,
        "a response": dependant.response_param_name,
        "background tasks": dependant.background_tasks_param_name,
        "security scopes": dependant.security_scopes_param_name,
    }
    declared = [what for what, value in unsupported.items() if value]
    if declared:
        raise UnsupportedDeclaration(f"{where}: a flat route cannot declare {', '.join(declared)}")
    for field in dependant.path_params:
        if field.field_info.annotation is not str:
            raise UnsupportedDeclaration(f"{where}: path parameter {field.name} must be a str")
    call = dependant.call
    if call is not None and not inspect.iscoroutinefunction(call):
        raise UnsupportedDeclaration(f"{where}: {getattr(call, '__name__', call)} must be an async def")


@dataclass(frozen=True)
class _Served:
    route: APIRoute
    regex: re.Pattern[str]
    convertors: dict[str, Convertor[Any]]
    endpoint: Callable[..., Awaitable[Response]]
    resolve: Resolver


_MATCHED = "leadwire.flat_route"  # the scope key carrying the matched route to `_serve`


class FlatDispatch:
    """ASGI middleware that serves flat routes itself, ahead of FastAPI's middleware stack, router and
    request wrapping (together a third of the job poll's remaining time); any other request goes on.

    It sits outside FastAPI's own layers (`leadwire.app`), and a flat route is served through `wrap`:
    the request-context middleware, so ids, access logs, metrics and security headers are the same for
    every route, and an error no handler takes becomes the same 500 envelope. A flat route is served
    only for GET on its exact pattern, which no other GET route may overlap (checked when the table is
    built), so it answers exactly what the router would have dispatched to it. Exceptions go to the
    app's own handlers, looked up as Starlette looks them up.
    """

    def __init__(
        self, app: ASGIApp, *, api: FastAPI, wrap: Callable[[ASGIApp], ASGIApp] | None = None
    ) -> None:
        self.app = app
        self.api = api
        self._served: list[_Served] | None = None
        self._serve_flat: ASGIApp = wrap(self._serve) if wrap is not None else self._serve

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            served = self._served if self._served is not None else self._build()
            path = _route_path(scope)
            for flat in served:
                match = flat.regex.match(path)
                if match is not None:
                    scope[_MATCHED] = (flat, match)
                    await self._serve_flat(scope, receive, send)
                    return
        await self.app(scope, receive, send)

    async def _serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        flat, match = scope.pop(_MATCHED)
        params = {name: flat.convertors[name].convert(value) for name, value in match.groupdict().items()}
        scope["path_params"] = params
        scope["route"] = flat.route
        scope["endpoint"] = flat.endpoint
        request = Request(scope, receive, send)
        try:
            response = await flat.endpoint(**await flat.resolve(request, {}))
        except Exception as exc:
            handler = _handler_for(self.api.exception_handlers, exc)
            if handler is None:
                raise
            response = await handler(request, exc)
        await response(scope, receive, send)

    def _build(self) -> list[_Served]:
        contexts = list(iter_route_contexts(self.api.routes))
        served = []
        for context in contexts:
            route = context.original_route
            if not isinstance(route, FlatRoute):
                continue
            dependant = getattr(context, "dependant", None) or route.dependant
            regex, _format, convertors = compile_path(context.path or route.path)
            _refuse_overlaps(context.path or route.path, regex, contexts)
            assert dependant.call is not None
            resolve = _resolver(dependant, route.path)
            served.append(_Served(route, regex, convertors, dependant.call, resolve))
        self._served = served
        return served


def _refuse_overlaps(path: str, regex: re.Pattern[str], contexts: list[Any]) -> None:
    """A flat route served ahead of the router must not take a request another GET route would get."""
    for context in contexts:
        other = context.original_route
        other_path = context.path or getattr(other, "path", "")
        if isinstance(other, FlatRoute) or "GET" not in (getattr(other, "methods", None) or ()):
            continue
        if regex.match(other_path):
            raise UnsupportedDeclaration(f"flat route {path} overlaps GET {other_path}")


def _handler_for(handlers: Mapping[Any, Callable[..., Any]], exc: Exception) -> Callable[..., Any] | None:
    for cls in type(exc).__mro__:
        if cls in handlers:
            return handlers[cls]
    return None


def _route_path(scope: Scope) -> str:
    """The path the router matches: without the root path the app is mounted under, if any."""
    path: str = scope["path"]
    root = scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path
