"""The response-conformance check every in-process client runs (tests/support/conformance.py) can fail:
it reports a status an operation does not document and a body outside the documented schema."""

from __future__ import annotations

import httpx
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from tests.support.conformance import ResponseConformance


class Thing(BaseModel):
    count: int


def _app() -> FastAPI:
    app = FastAPI()

    @app.get("/things/{thing_id}", responses={200: {"model": Thing}})
    async def thing(thing_id: str) -> JSONResponse:
        if thing_id == "teapot":
            return JSONResponse({"count": 1}, status_code=418)
        if thing_id == "wrong":
            return JSONResponse({"count": "many"})
        return JSONResponse({"count": 3})

    return app


async def test_conforming_undocumented_and_malformed_responses_are_told_apart() -> None:
    app = _app()
    checker = ResponseConformance(app)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://t", event_hooks={"response": [checker.hook()]}
    ) as http:
        await http.get("/things/fine")
        assert checker.failures == []
        await http.get("/things/teapot")
        await http.get("/things/wrong")
        await http.get("/nowhere")  # no operation: nothing to check
    assert checker.checked == 3
    assert len(checker.failures) == 2
    assert "418: status not documented" in checker.failures[0]
    assert "'many' is not of type 'integer'" in checker.failures[1]
