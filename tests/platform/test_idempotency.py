"""Idempotency keys (docs/api.md, Idempotency keys): replay, conflict, in progress, expiry, takeover."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from sqlalchemy import update

from leadwire.platform.db import transaction
from leadwire.platform.errors import ApiError
from leadwire.platform.idempotency_models import IdempotencyRecord
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error, assert_ok
from tests.support.jobs import create_echo, job_count, running_worker


async def test_same_key_same_body_replays_first_response_without_new_job(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    first = await create_echo(
        client, acct.headers, {"message": "a", "units": 1}, **{"Idempotency-Key": "k-1"}
    )
    # Same JSON, other key order and spacing: still the same body.
    second = await client.post(
        "/api/v2/test/echo",
        content=b'{ "units": 1,  "message": "a" }',
        headers={**acct.headers, "Idempotency-Key": "k-1", "Content-Type": "application/json"},
    )
    assert first.status_code == second.status_code == 202
    assert first.json() == second.json()
    assert second.headers["idempotent-replayed"] == "true"
    assert second.headers["x-request-id"] != first.json()["request_id"]
    assert await job_count(runtime) == 1


async def test_same_key_other_body_is_idempotency_conflict(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    assert_ok(await create_echo(client, acct.headers, {"message": "a"}, **{"Idempotency-Key": "k-2"}), 202)
    response = await create_echo(client, acct.headers, {"message": "b"}, **{"Idempotency-Key": "k-2"})
    assert_error(response, 409, "idempotency_conflict")


async def test_key_is_scoped_to_api_key_and_path(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    other_key = await accounts.key(acct.user_id)
    a = await create_echo(client, acct.headers, {"message": "a"}, **{"Idempotency-Key": "shared"})
    b = await create_echo(client, other_key.headers, {"message": "a"}, **{"Idempotency-Key": "shared"})
    assert a.json()["item"]["id"] != b.json()["item"]["id"]
    assert await job_count(runtime) == 2


async def test_identical_request_in_progress_is_409_with_retry_after(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    async with transaction(runtime.sessionmaker) as session:  # a first request mid-creation
        await _seed_record(session, acct.key_id, body=b'{"message":"a"}', state="in_progress")
    response = await create_echo(client, acct.headers, {"message": "a"}, **{"Idempotency-Key": "busy"})
    assert_error(response, 409, "idempotency_key_in_progress")
    assert response.headers["retry-after"] == "1"


async def test_abandoned_in_progress_record_is_taken_over_after_lock_timeout(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    async with transaction(runtime.sessionmaker) as session:
        await _seed_record(
            session, acct.key_id, body=b'{"message":"a"}', state="in_progress", age=timedelta(minutes=5)
        )
    response = await create_echo(client, acct.headers, {"message": "a"}, **{"Idempotency-Key": "busy"})
    assert_ok(response, 202)
    replay = await create_echo(client, acct.headers, {"message": "a"}, **{"Idempotency-Key": "busy"})
    assert replay.json() == response.json()


async def test_expired_record_is_forgotten(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    first = assert_ok(
        await create_echo(client, acct.headers, {"message": "a"}, **{"Idempotency-Key": "old"}), 202
    )
    async with transaction(runtime.sessionmaker) as session:
        await session.execute(update(IdempotencyRecord).values(expires_at=utcnow() - timedelta(seconds=1)))
    again = assert_ok(
        await create_echo(client, acct.headers, {"message": "b"}, **{"Idempotency-Key": "old"}), 202
    )
    assert again["item"]["id"] != first["item"]["id"]


async def test_error_responses_are_not_stored(client: httpx.AsyncClient, accounts: AccountFactory) -> None:
    acct = await accounts.create()
    bad = await client.post(
        "/api/v2/test/echo", json={"sleep": "x"}, headers={**acct.headers, "Idempotency-Key": "retry-me"}
    )
    assert_error(bad, 400, "invalid_request")
    fixed = await client.post(
        "/api/v2/test/echo", json={"sleep": 0}, headers={**acct.headers, "Idempotency-Key": "retry-me"}
    )
    assert_ok(fixed, 202)


async def test_insufficient_credits_is_not_stored(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create(credits=0)
    body = {"max_units": 10}
    assert_error(
        await create_echo(client, acct.headers, body, **{"Idempotency-Key": "k"}), 402, "insufficient_credits"
    )


@pytest.mark.parametrize("key", [b"x" * 256, "héllo".encode(), b"tab\there", b""])
async def test_invalid_keys_are_invalid_request(
    client: httpx.AsyncClient, accounts: AccountFactory, key: bytes
) -> None:
    acct = await accounts.create()
    headers = [(k.encode(), v.encode()) for k, v in acct.headers.items()] + [(b"Idempotency-Key", key)]
    response = await client.post("/api/v2/test/echo", json={}, headers=headers)
    assert_error(response, 400, "invalid_request", param="Idempotency-Key")


async def test_replay_after_prefer_wait_returns_what_was_sent(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    async with running_worker(runtime):
        first = await create_echo(client, acct.headers, {}, Prefer="wait=10", **{"Idempotency-Key": "w"})
    assert first.status_code == 200
    replay = await create_echo(client, acct.headers, {}, **{"Idempotency-Key": "w"})
    assert replay.status_code == 200 and replay.json() == first.json()


async def test_concurrent_identical_requests_create_one_job(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    responses = await asyncio.gather(
        *(
            create_echo(client, acct.headers, {"message": "same"}, **{"Idempotency-Key": "race"})
            for _ in range(20)
        )
    )
    created = [r for r in responses if r.status_code == 202]
    assert created and all(r.json()["item"] == created[0].json()["item"] for r in created)
    for r in responses:
        if r.status_code != 202:
            assert_error(r, 409, "idempotency_key_in_progress")
    assert await job_count(runtime) == 1


async def _seed_record(
    session, key_id: str, *, body: bytes, state: str, age: timedelta = timedelta(0)
) -> None:
    from leadwire.platform.idempotency import body_fingerprint
    from leadwire.platform.ids import new_id

    now = utcnow() - age
    session.add(
        IdempotencyRecord(
            id=new_id("idem"),
            api_key_id=key_id,
            method="POST",
            path="/api/v2/test/echo",
            key="busy",
            body_hash=body_fingerprint(body),
            state=state,
            locked_at=now,
            created_at=now,
            expires_at=now + timedelta(hours=24),
        )
    )


async def test_endpoint_requiring_a_key_refuses_requests_without_one(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    missing = await client.post("/api/v2/test/keyed-echo", json={}, headers=acct.headers)
    assert_error(missing, 400, "idempotency_key_required", param="Idempotency-Key")
    assert await job_count(runtime) == 0
    keyed = await client.post(
        "/api/v2/test/keyed-echo", json={}, headers={**acct.headers, "Idempotency-Key": "fm-1"}
    )
    assert_ok(keyed, 202)


async def test_a_slow_request_beats_its_claim_so_a_retry_waits_rather_than_takes_over(
    client: httpx.AsyncClient,
    runtime: Runtime,
    accounts: AccountFactory,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """The creation holds its claim for several lock timeouts; its beats keep it, so an identical
    retry meanwhile is 409, and the key yields one job."""
    monkeypatch.setattr(runtime.settings, "idempotency_lock_timeout_seconds", 0.3)
    acct = await accounts.create()
    release = tmp_path / "release"
    body = {"message": "slow", "hold_creation_until": str(release)}
    slow = asyncio.create_task(create_echo(client, acct.headers, body, **{"Idempotency-Key": "slow"}))
    await asyncio.sleep(0.9)  # three lock timeouts into the creation
    retry = await create_echo(client, acct.headers, body, **{"Idempotency-Key": "slow"})
    assert_error(retry, 409, "idempotency_key_in_progress")
    release.touch()
    assert_ok(await slow, 202)
    assert await job_count(runtime) == 1


async def test_a_claim_taken_over_voids_the_first_requests_completion(
    runtime: Runtime, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Had the first request only been slow (its beats lost), the takeover gives the record a new id:
    the first request's completion finds its claim gone and raises, so its transaction (and job) rolls
    back and only the second request's response is stored."""
    from leadwire.platform import idempotency

    monkeypatch.setattr(runtime.settings, "idempotency_lock_timeout_seconds", 0.05)
    acct = await accounts.create()
    asked = {"api_key_id": acct.key_id, "method": "POST", "path": "/p", "key": "k", "body": b"{}"}
    first = await idempotency.claim(runtime, **asked)
    await asyncio.sleep(0.1)  # not beaten for longer than the lock timeout
    second = await idempotency.claim(runtime, **asked)
    assert isinstance(first, idempotency.Claim) and isinstance(second, idempotency.Claim)
    assert first.record_id != second.record_id
    async with transaction(runtime.sessionmaker) as session:
        with pytest.raises(ApiError) as late:
            await idempotency.complete(session, first, status=202, body={"from": "first"})
    assert late.value.code == "idempotency_key_in_progress"
    async with transaction(runtime.sessionmaker) as session:
        await idempotency.complete(session, second, status=202, body={"from": "second"})
    replay = await idempotency.claim(runtime, **asked)
    assert isinstance(replay, idempotency.Replay) and replay.body == {"from": "second"}


async def test_in_progress_answers_do_not_spend_the_creation_budget(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    """A free key may create 20 jobs a minute; 30 retries answered "in progress" leave all 20."""
    acct = await accounts.create(plan="free")
    async with transaction(runtime.sessionmaker) as session:  # a first request mid-creation
        await _seed_record(session, acct.key_id, body=b'{"message":"a"}', state="in_progress")
    for _ in range(30):
        busy = await create_echo(client, acct.headers, {"message": "a"}, **{"Idempotency-Key": "busy"})
        assert_error(busy, 409, "idempotency_key_in_progress")
    later = {"scheduled_in": 3600}  # not due: the plan's 5 active jobs are not what this measures
    for n in range(20):
        assert_ok(await create_echo(client, acct.headers, {"message": str(n), **later}), 202)
    assert_error(await create_echo(client, acct.headers, later), 429, "api_key_rate_limit_exceeded")
