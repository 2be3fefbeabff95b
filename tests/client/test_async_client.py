"""The async SDK against the real app: envelopes, errors, polling, and retries that reuse the key."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from leadwire.client import AsyncLeadwire, LeadwireError
from leadwire.platform.db import transaction
from leadwire.platform.jobs.models import Job
from leadwire.platform.runtime import Runtime
from leadwire.providers.search import SearchProviderError
from tests.support.accounts import AccountFactory
from tests.support.jobs import running_worker


class LoseFirstResponse(httpx.AsyncBaseTransport):
    """Delivers the first request to the app, then fails as if the response was lost on the way back."""

    def __init__(self, app: FastAPI) -> None:
        self.inner = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        self.keys: list[str | None] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.keys.append(request.headers.get("idempotency-key"))
        response = await self.inner.handle_async_request(request)
        if len(self.keys) == 1:
            raise httpx.ReadTimeout("lost", request=request)
        return response


@pytest.fixture
async def sdk(app: FastAPI, accounts: AccountFactory) -> AsyncIterator[AsyncLeadwire]:
    acct = await accounts.create(credits=100)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with AsyncLeadwire(acct.key, "http://leadwire.test", transport=transport) as client:
        yield client


async def test_reads_unwrap_the_envelope(sdk: AsyncLeadwire) -> None:
    assert (await sdk.credits())["balance"] == 100
    assert await sdk.accounts(can_send=True) == []


async def test_errors_carry_status_code_and_param(sdk: AsyncLeadwire) -> None:
    with pytest.raises(LeadwireError) as caught:
        await sdk.contacts("Acme Inc")
    assert (caught.value.status, caught.value.code, caught.value.param) == (400, "invalid_domain", "domain")
    assert caught.value.request_id and caught.value.request_id.startswith("req_")
    with pytest.raises(LeadwireError) as missing:
        await sdk.job("job_nope")
    assert missing.value.code == "task_not_found"


async def test_a_retry_after_a_lost_response_reuses_the_key_and_makes_one_job(
    app: FastAPI, runtime: Runtime, accounts: AccountFactory
) -> None:
    # The SDK waits its real first back-off (0.5 s): patching its `asyncio.sleep` would patch the
    # event loop's for the server in this process too, and spin its idempotency-claim beats.
    acct = await accounts.create(credits=100)
    transport = LoseFirstResponse(app)
    async with AsyncLeadwire(acct.key, "http://leadwire.test", transport=transport) as client:
        job = await client.public_web(["logistics"], search_limit=1)
    assert len(transport.keys) == 2 and transport.keys[0] == transport.keys[1] is not None
    async with transaction(runtime.sessionmaker) as session:
        assert await session.scalar(select(func.count()).select_from(Job)) == 1
    assert job["action"] == "research.public_web"


async def test_wait_for_polls_until_terminal(
    sdk: AsyncLeadwire, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("leadwire.client.core.poll_delay", lambda attempt: 0.05)
    monkeypatch.setattr("leadwire.client.asyncio.poll_delay", lambda attempt: 0.05)
    job = await sdk.public_web(["q"], search_limit=1)
    await sdk.cancel(job["id"])
    assert (await sdk.wait_for(job["id"], timeout=5))["status"] == "cancelled"
    second = await sdk.public_web(["q"], search_limit=1)
    runtime.adapters["search"] = _EmptySearch()
    async with running_worker(runtime):
        done = await sdk.wait_for(second["id"], timeout=20)
    assert done["status"] == "succeeded" and done["result"]["results"] == [{"query": "q", "sources": []}]


async def test_a_job_failed_by_its_provider_reads_with_its_error_detail(
    sdk: AsyncLeadwire, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("leadwire.client.asyncio.poll_delay", lambda attempt: 0.05)
    runtime.adapters["search"] = _DownSearch()
    job = await sdk.public_web(["q"], search_limit=1)
    async with running_worker(runtime):
        done = await sdk.wait_for(job["id"], timeout=20)
    assert done["status"] == "failed"
    assert done["error"] == {"code": "search_provider_unavailable", "detail": "HTTP 503"}


class _EmptySearch:
    async def search(self, request: object) -> list[object]:
        return []


class _DownSearch:
    async def search(self, request: object) -> list[object]:
        raise SearchProviderError("search_provider_unavailable", "HTTP 503")
