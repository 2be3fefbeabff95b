"""A dispatch's attachments are stored apart from its job row and dropped when the job is over, and an
account's jobs not yet done may carry only so many bytes of them."""

from __future__ import annotations

import base64
from typing import Any

import httpx
from sqlalchemy import func, select

from leadwire.platform.db import transaction
from leadwire.platform.jobs.models import Job, JobBlob
from leadwire.platform.runtime import Runtime
from leadwire.providers.sandbox_channels import Outbox
from tests.outreach.test_dispatch_validation import email
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import job_count, poll_job, running_worker

DISPATCH = "/api/v2/outreach/dispatches"


def with_file(account: str, content: bytes, **changes: Any) -> dict[str, Any]:
    attachment = {"filename": "deck.pdf", "contentBase64": base64.b64encode(content).decode()}
    return email(
        account, content={"subject": "Deck", "text": "See attached", "attachments": [attachment]}, **changes
    )


async def stored(runtime: Runtime, job_id: str) -> tuple[dict[str, Any], int, int]:
    """The job row's payload and blob_bytes, and how many blobs it has."""
    async with transaction(runtime.reader) as session:
        job = await session.get(Job, job_id)
        assert job is not None
        blobs = await session.scalar(
            select(func.count()).select_from(JobBlob).where(JobBlob.job_id == job_id)
        )
        return job.payload, job.blob_bytes, int(blobs or 0)


async def test_attachments_live_apart_from_the_job_row_until_the_message_is_sent(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    account = await accounts.connect(owner.user_id, "email")
    content = b"%PDF-1.4 " + bytes(range(256)) * 40
    job = assert_ok(
        await client.post(DISPATCH, json=with_file(account, content), headers=owner.headers), 202
    )["item"]
    payload, blob_bytes, blobs = await stored(runtime, job["id"])
    (attachment,) = payload["content"]["attachments"]
    assert attachment["contentBase64"] == "" and attachment["blob"].startswith("blob_")
    assert blob_bytes == len(content) and blobs == 1
    async with running_worker(runtime):
        done = await poll_job(client, owner.headers, job["id"], until=("succeeded", "failed"))
    assert done["status"] == "succeeded", done
    (sent,) = Outbox(runtime.settings.data_dir).read("email")
    # The content reached the channel whole (byte for byte over SMTP: test_dispatch_delivery's round trip).
    assert [(a["filename"], a["bytes"]) for a in sent["attachments"]] == [("deck.pdf", len(content))]
    _, blob_bytes, blobs = await stored(runtime, job["id"])
    assert (blob_bytes, blobs) == (0, 0)


async def test_a_cancelled_dispatch_drops_its_attachments(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    account = await accounts.connect(owner.user_id, "email")
    job = assert_ok(
        await client.post(DISPATCH, json=with_file(account, b"x" * 5000), headers=owner.headers), 202
    )
    job_id = job["item"]["id"]
    assert_ok(await client.post(f"/api/v2/jobs/{job_id}/cancel", headers=owner.headers))
    _, blob_bytes, blobs = await stored(runtime, job_id)
    assert (blob_bytes, blobs) == (0, 0)


async def test_an_account_past_its_queued_bytes_is_429_and_no_job_is_created(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    runtime.settings = runtime.settings.model_copy(update={"queued_bytes_per_account": 10_000})
    owner = await accounts.create()
    account = await accounts.connect(owner.user_id, "email")
    first = await client.post(DISPATCH, json=with_file(account, b"a" * 6_000), headers=owner.headers)
    assert_ok(first, 202)
    second = await client.post(DISPATCH, json=with_file(account, b"b" * 6_000), headers=owner.headers)
    assert_error(second, 429, "queued_bytes_limit_exceeded")
    assert int(second.headers["Retry-After"]) > 0
    assert await job_count(runtime) == 1
    # Without attachments, nothing counts against the cap.
    assert_ok(await client.post(DISPATCH, json=email(account), headers=owner.headers), 202)
