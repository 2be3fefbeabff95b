"""The async SDK's `like_post` against the real app, v1 and v2: the reduced queued item, the job read
back, v1's interval floor, and refusals as LeadwireError with the version's code."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI

from leadwire.client import AsyncLeadwire, LeadwireError
from tests.support.accounts import AccountFactory

PROFILE = "https://www.linkedin.com/in/ada-lovelace"
POST_LIKE = "outreach.linkedin.post_like"


def sdk_for(app: FastAPI, key: str) -> AsyncLeadwire:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return AsyncLeadwire(key, "http://leadwire.test", transport=transport)


@pytest.mark.parametrize("version", ["v1", "v2"])
async def test_like_post_creates_the_queued_job_item_and_the_job_reads_back(
    app: FastAPI, accounts: AccountFactory, version: str
) -> None:
    owner = await accounts.create()
    account = await accounts.connect(owner.user_id, "linkedin")
    async with sdk_for(app, owner.key) as sdk:
        item = await sdk.like_post(PROFILE, "supply chain resilience", post_limit=5, version=version)
        assert set(item) == {"id", "status", "action", "channel", "scheduled_at"}
        assert (item["status"], item["action"], item["channel"]) == ("queued", POST_LIKE, "linkedin")
        assert item["id"].startswith("job_") and item["scheduled_at"]
        job = await sdk.job(item["id"])
        v1_job = await sdk.outreach_job(item["id"])
        # Naming the account gives the same kind of item, at the next LinkedIn slot.
        named = await sdk.like_post(PROFILE, "robotics", account_id=account, version=version)
    assert job["id"] == v1_job["id"] == item["id"] and job["status"] == "queued"
    assert named["status"] == "queued" and named["scheduled_at"] > item["scheduled_at"]


@pytest.mark.parametrize("version", ["v1", "v2"])
async def test_like_post_refusals_raise_leadwire_error_with_status_code_and_param(
    app: FastAPI, accounts: AccountFactory, version: str
) -> None:
    owner = await accounts.create()
    await accounts.connect(owner.user_id, "linkedin")
    async with sdk_for(app, owner.key) as sdk:
        with pytest.raises(LeadwireError) as bad_url:
            await sdk.like_post("https://example.com/in/ada", "robotics", version=version)
        with pytest.raises(LeadwireError) as blank_topic:
            await sdk.like_post(PROFILE, "   ", version=version)
        with pytest.raises(LeadwireError) as bad_limit:
            await sdk.like_post(PROFILE, "robotics", post_limit=51, version=version)
        with pytest.raises(LeadwireError) as bad_locale:
            await sdk.like_post(PROFILE, "robotics", locale="fr", version=version)
        with pytest.raises(LeadwireError) as unknown_account:
            await sdk.like_post(PROFILE, "robotics", account_id="acct_nope", version=version)
    assert (bad_url.value.status, bad_url.value.code, bad_url.value.param) == (
        400,
        "invalid_profile_url",
        "profile_url",
    )
    assert (blank_topic.value.status, blank_topic.value.code) == (400, "content_required")
    assert (bad_limit.value.status, bad_limit.value.code) == (400, "post_limit_invalid")
    assert (bad_locale.value.status, bad_locale.value.code) == (400, "locale_invalid")
    assert (unknown_account.value.status, unknown_account.value.code) == (404, "account_not_found")


@pytest.mark.parametrize(
    ("version", "code"),
    [("v1", "account_id_required_multiple_linkedin_accounts"), ("v2", "account_id_required")],
)
async def test_like_post_with_several_linkedin_accounts_needs_the_account_id(
    app: FastAPI, accounts: AccountFactory, version: str, code: str
) -> None:
    owner = await accounts.create()
    first = await accounts.connect(owner.user_id, "linkedin")
    await accounts.connect(owner.user_id, "linkedin")
    async with sdk_for(app, owner.key) as sdk:
        with pytest.raises(LeadwireError) as caught:
            await sdk.like_post(PROFILE, "robotics", version=version)
        chosen = await sdk.like_post(PROFILE, "robotics", account_id=first, version=version)
    assert (caught.value.status, caught.value.code, caught.value.param) == (400, code, "account_id")
    assert chosen["status"] == "queued"


async def test_like_post_without_a_linkedin_account_is_linkedin_account_not_found_on_both_versions(
    app: FastAPI, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    await accounts.connect(owner.user_id, "email")
    async with sdk_for(app, owner.key) as sdk:
        for version in ("v1", "v2"):
            with pytest.raises(LeadwireError) as caught:
                await sdk.like_post(PROFILE, "robotics", version=version)
            assert (caught.value.status, caught.value.code) == (400, "linkedin_account_not_found")


async def test_like_post_interval_below_60_is_refused_on_v2_and_taken_as_60_on_v1(
    app: FastAPI, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    await accounts.connect(owner.user_id, "linkedin")
    async with sdk_for(app, owner.key) as sdk:
        with pytest.raises(LeadwireError) as caught:
            await sdk.like_post(PROFILE, "robotics", min_channel_task_interval_seconds=30)
        item = await sdk.like_post(PROFILE, "robotics", min_channel_task_interval_seconds=30, version="v1")
    assert (caught.value.status, caught.value.code) == (400, "min_channel_task_interval_seconds_invalid")
    assert item["status"] == "queued"
