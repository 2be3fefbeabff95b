"""SSE over the event log, through the whole middleware stack: ids are seqs, Last-Event-ID resumes,
a pruned checkpoint gets `reset`, a bad cursor is 400."""

from __future__ import annotations

from datetime import timedelta

import httpx
import orjson
from sqlalchemy import update

from leadwire.platform.db import transaction
from leadwire.platform.events import log
from leadwire.platform.events.models import Event
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error


def _parse(body: str) -> list[dict[str, str]]:
    events = []
    for block in body.replace("\r\n", "\n").split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line and not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value.lstrip(" ")
        if fields:
            events.append(fields)
    return events


async def _append(runtime: Runtime, topic: str, type_: str, n: int) -> int:
    async with transaction(runtime.sessionmaker) as session:
        return await log.append(session, runtime.notifier, topic, type_, {"n": n})


async def test_stream_replays_from_checkpoint_and_ends_on_complete(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    seqs = [await _append(runtime, "t1", "items.changed", n) for n in range(3)]
    done = await _append(runtime, "t1", "complete", 3)
    response = await client.get(
        f"/api/v2/test/events/t1/stream?stream_cursor={seqs[0]}", headers=acct.headers
    )
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
    events = _parse(response.text)
    assert [e["id"] for e in events] == [str(seqs[1]), str(seqs[2]), str(done)]
    assert [e["event"] for e in events] == ["items.changed", "items.changed", "complete"]
    assert orjson.loads(events[0]["data"]) == {"n": 1}


async def test_last_event_id_wins_over_the_query_cursor(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    seqs = [await _append(runtime, "t2", "items.changed", n) for n in range(3)]
    await _append(runtime, "t2", "complete", 3)
    response = await client.get(
        f"/api/v2/test/events/t2/stream?stream_cursor={seqs[0]}",
        headers={**acct.headers, "Last-Event-ID": str(seqs[2])},
    )
    assert [e["event"] for e in _parse(response.text)] == ["complete"]


async def test_expired_checkpoint_gets_reset(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    old = await _append(runtime, "t3", "items.changed", 0)
    await _append(runtime, "t3", "items.changed", 1)
    async with transaction(runtime.sessionmaker) as session:
        await session.execute(
            update(Event).where(Event.seq == old).values(created_at=utcnow() - timedelta(days=30))
        )
        await log.prune(session, older_than=timedelta(days=7))
    response = await client.get(
        f"/api/v2/test/events/t3/stream?stream_cursor={old - 1}", headers=acct.headers
    )
    assert [e["event"] for e in _parse(response.text)] == ["reset"]


async def test_malformed_cursor_is_invalid_request(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    acct = await accounts.create()
    response = await client.get("/api/v2/test/events/t4/stream?stream_cursor=abc", headers=acct.headers)
    assert_error(response, 400, "invalid_request", param="stream_cursor")
