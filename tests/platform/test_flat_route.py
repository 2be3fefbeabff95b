"""`platform.flat_route`: a flat route answers what the router would have, with every platform header,
and refuses, at start-up, a declaration only FastAPI's solver can serve."""

from __future__ import annotations

from typing import Annotated

import httpx
import pytest
from fastapi import APIRouter, Depends, FastAPI, Header, Query, Request
from starlette.responses import Response

from leadwire.platform.http.flat_route import FlatDispatch, UnsupportedDeclaration, flat_get
from leadwire.platform.http.middleware import SECURITY_HEADERS
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error
from tests.support.jobs import create_echo


async def test_a_polled_job_carries_every_header_a_routed_response_carries(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    account = await accounts.create(plan="business", credits=10)
    job_id = (await create_echo(client, account.headers, {"scheduled_in": 3600})).json()["item"]["id"]
    polled = await client.get(f"/api/v2/jobs/{job_id}", headers=account.headers)
    routed = await client.get("/api/v2/credits", headers=account.headers)  # served by FastAPI's router
    assert polled.status_code == 200 and polled.json()["item"]["id"] == job_id
    for response in (polled, routed):
        assert response.headers["x-request-id"].startswith("req_")
        assert response.headers["cache-control"] == "no-store"
        for name, value in SECURITY_HEADERS:
            assert response.headers[name.decode()] == value.decode()
    assert polled.headers["x-ratelimit-limit"] and polled.headers["ratelimit"].startswith('"poll"')


async def test_refusals_come_from_the_apps_own_handlers(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create(plan="business", credits=10)
    other = await accounts.create(plan="business", credits=10)
    job_id = (await create_echo(client, owner.headers, {"scheduled_in": 3600})).json()["item"]["id"]
    assert_error(await client.get(f"/api/v2/jobs/{job_id}"), 401, "api_key_missing")
    assert_error(await client.get(f"/api/v2/jobs/{job_id}", headers=other.headers), 404, "task_not_found")
    assert_error(await client.get("/api/v2/jobs/" + "j" * 65, headers=owner.headers), 404, "task_not_found")
    # Not a GET: the router answers, as for any route.
    assert_error(
        await client.delete(f"/api/v2/jobs/{job_id}", headers=owner.headers), 405, "method_not_allowed"
    )


def _app_with(register: object) -> FastAPI:
    app = FastAPI()
    router = APIRouter()
    register(router)  # type: ignore[operator]
    app.include_router(router)
    return app


async def _ok(request: Request) -> Response:
    return Response(b"ok")


@pytest.mark.parametrize(
    "declaration",
    [
        "query",
        "header",
        "sync_dependency",
        "int_path",
    ],
)
def test_a_declaration_the_flat_resolver_cannot_serve_fails_when_the_route_is_built(declaration: str) -> None:
    def sync_dependency() -> str:
        return "x"

    def register(router: APIRouter) -> None:
        if declaration == "query":

            @flat_get(router, "/items/{item_id}")
            async def by_query(item_id: str, page: int = Query(1)) -> Response:
                return Response(b"")

        elif declaration == "header":

            @flat_get(router, "/items/{item_id}")
            async def by_header(item_id: str, x_trace: Annotated[str, Header()] = "") -> Response:
                return Response(b"")

        elif declaration == "sync_dependency":

            @flat_get(router, "/items/{item_id}")
            async def by_sync(item_id: str, value: str = Depends(sync_dependency)) -> Response:
                return Response(b"")

        else:

            @flat_get(router, "/items/{item_id}")
            async def by_int(item_id: int) -> Response:
                return Response(b"")

    with pytest.raises(UnsupportedDeclaration):
        app = _app_with(register)
        FlatDispatch(app.router, api=app)._build()


def test_a_flat_route_that_another_get_route_overlaps_is_refused() -> None:
    def register(router: APIRouter) -> None:
        @flat_get(router, "/items/{item_id}")
        async def flat(item_id: str) -> Response:
            return Response(b"")

        router.add_api_route("/items/special", _ok, methods=["GET"])

    app = _app_with(register)
    with pytest.raises(UnsupportedDeclaration, match="overlaps"):
        FlatDispatch(app.router, api=app)._build()
