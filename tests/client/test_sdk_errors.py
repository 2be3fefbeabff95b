"""The SDK's `LeadwireError` names the request it answered (method, URL) and, when the server could not
be reached, the underlying cause; `str(error)` shows all of it."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI

from leadwire.client import AsyncLeadwire, Leadwire, LeadwireError
from tests.support.accounts import AccountFactory
from tests.support.processes import free_port

KEY = "lw_live_" + "k" * 32


def assert_unreachable(error: LeadwireError, url: str) -> None:
    assert (error.status, error.code) == (0, "network_error")
    assert (error.method, error.url) == ("GET", url)
    assert error.cause is not None and error.cause.startswith("ConnectError")
    assert "refused" in error.cause.lower(), error.cause
    assert url in str(error) and "GET" in str(error) and error.cause in str(error)


def test_unreachable_server_names_the_url_the_method_and_the_cause() -> None:
    base = f"http://127.0.0.1:{free_port()}"  # bound then closed: nothing listens there
    with Leadwire(KEY, base, max_retries=0) as lw, pytest.raises(LeadwireError) as caught:
        lw.job("job_1")
    assert_unreachable(caught.value, f"{base}/api/v2/jobs/job_1")


async def test_unreachable_server_names_the_url_the_method_and_the_cause_async() -> None:
    base = f"http://127.0.0.1:{free_port()}"
    async with AsyncLeadwire(KEY, base, max_retries=0) as lw:
        with pytest.raises(LeadwireError) as caught:
            await lw.job("job_1")
    assert_unreachable(caught.value, f"{base}/api/v2/jobs/job_1")


async def test_an_http_error_names_the_url_and_the_method(app: FastAPI, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    transport = httpx.ASGITransport(app=app)
    async with AsyncLeadwire(acct.key, "http://leadwire.test", transport=transport) as lw:
        with pytest.raises(LeadwireError) as caught:
            await lw.cancel("job_missing")
    error = caught.value
    assert (error.status, error.code) == (404, "task_not_found")
    assert (error.method, error.url) == ("POST", "http://leadwire.test/api/v2/jobs/job_missing/cancel")
    assert error.cause is None
    assert str(error).startswith("404 task_not_found") and "POST http://leadwire.test/api/v2/jobs" in str(
        error
    )


def test_an_http_error_from_the_sync_client_names_the_url_and_the_method() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        error = {"code": "permission_denied", "message": "permission_denied", "detail": "lacks credits:read"}
        return httpx.Response(403, json={"ok": False, "error": error})

    transport = httpx.MockTransport(refuse)
    with (
        Leadwire(KEY, "http://api.example", transport=transport) as lw,
        pytest.raises(LeadwireError) as caught,
    ):
        lw.credits()
    error = caught.value
    assert (error.method, error.url) == ("GET", "http://api.example/api/v2/credits")
    assert str(error) == "403 permission_denied: lacks credits:read [GET http://api.example/api/v2/credits]"
