"""A poll costs the same whatever the job carried: `GET /api/v2/jobs/{id}` of a dispatch that carried a
12 MB body (an 8.9 MB attachment, base64) beside one that carried a few hundred bytes, in the same run.

One `leadwire api` process (no worker: both dispatches stay scheduled, their attachments stored) on
SQLite and on PostgreSQL; `--polls` (400) rounds, each polling both jobs one after the other on one
keep-alive connection. Figure: the p50 of the heavy job's polls, its baseline the light job's p50,
ratio heavy ÷ light (target <= 1.2: a poll reads neither the payload nor the attachments).

    .venv/bin/python bench/job_poll_payload.py [--polls 400]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

import _support as bs

ATTACHMENT_BYTES = 8_900_000  # base64 of it, with the rest of the body, is just under the 12 MiB limit


async def _sender(database_url: str, user_id: str) -> str:
    """A sandbox email account of the user, through the services."""
    import leadwire.models  # noqa: F401 - every table must be known for foreign keys to resolve
    from leadwire.channels import connected
    from leadwire.platform.db import make_engine, make_sessionmaker, transaction

    engine = make_engine(database_url)
    try:
        async with transaction(make_sessionmaker(engine)) as session:
            account = await connected.add_account(
                session, user_id=user_id, channel="email", provider="sandbox", display_name="bench",
                identifier="bench@leadwire.example",
            )  # fmt: skip
            return account.id
    finally:
        await engine.dispose()


def _dispatch(account_id: str, attachment: bytes | None) -> dict[str, object]:
    content: dict[str, object] = {"subject": "Hello", "text": "Plain body"}
    if attachment is not None:
        content["attachments"] = [
            {"filename": "deck.pdf", "contentBase64": base64.b64encode(attachment).decode()}
        ]
    return {
        "account_id": account_id,
        "channel": "email",
        "action": "outreach",
        "recipient": {"address": "jane@acme.example"},
        "content": content,
        "metadata": {"bench": True},
    }


async def _measure(base_url: str, key: str, account_id: str, polls: int) -> tuple[list[float], list[float]]:
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(base_url=base_url, timeout=120.0) as client:
        light = await client.post(
            "/api/v2/outreach/dispatches", json=_dispatch(account_id, None), headers=headers
        )
        heavy = await client.post(
            "/api/v2/outreach/dispatches",
            json=_dispatch(account_id, os.urandom(ATTACHMENT_BYTES)),
            headers=headers,
        )
        for response in (light, heavy):
            if response.status_code != 202:
                raise RuntimeError(f"dispatch answered {response.status_code}: {response.text[:300]}")
        ids = light.json()["item"]["id"], heavy.json()["item"]["id"]
        times: tuple[list[float], list[float]] = ([], [])
        for round_ in range(polls + 20):  # the first 20 rounds warm up
            for job_id, into in zip(ids, times, strict=True):
                started = time.perf_counter()
                response = await client.get(f"/api/v2/jobs/{job_id}", headers=headers)
                elapsed = (time.perf_counter() - started) * 1000
                response.raise_for_status()
                if round_ >= 20:
                    into.append(elapsed)
        return times


@contextlib.contextmanager
def _api(tmp: Path, label: str, database_url: str | None) -> Iterator[tuple[str, str, str]]:
    data_dir = tmp / label
    url = database_url or f"sqlite+aiosqlite:///{data_dir / 'leadwire.db'}"
    env = bs.leadwire_env(data_dir, database_url=url, pycache=tmp / "pycache")
    data_dir.mkdir(parents=True, exist_ok=True)
    bs.run_checked(bs.leadwire_cmd("migrate"), env)
    user_id, keys = asyncio.run(bs.create_account(url, plan="business"))
    account_id = asyncio.run(_sender(url, user_id))
    port = str(bs.free_port())
    with bs.running(bs.leadwire_cmd("api", "--port", port), env, tmp / f"{label}.log") as api:
        base_url = f"http://127.0.0.1:{port}"
        bs.wait_http_ok(f"{base_url}/readyz", api, timeout=120.0)
        yield base_url, keys[0][1], account_id


def _report(label: str, light: list[float], heavy: list[float]) -> None:
    heavy50, light50 = bs.percentile(heavy, 50), bs.percentile(light, 50)
    ratio = bs.safe_ratio(heavy50, light50)
    target = (
        f"poll of a job that carried 12 MB / of one that carried nothing; <= 1.2: {bs.verdict(ratio <= 1.2)}"
    )
    bs.emit_triple(f"job_poll_12mb_p50_{label}", heavy50, light50, "ms", ratio=ratio, target=target)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--polls", type=int, default=400)
    args = parser.parse_args()
    bs.note(f"{args.polls} rounds of GET /api/v2/jobs/{{id}}: a dispatch of 12 MB beside one of ~300 bytes")
    with tempfile.TemporaryDirectory(prefix="leadwire-bench-poll-") as tmp_name:
        tmp = Path(tmp_name)
        with _api(tmp, "sqlite", None) as (base_url, key, account_id):
            light, heavy = asyncio.run(_measure(base_url, key, account_id, args.polls))
        _report("sqlite", light, heavy)
        if not bs.postgres_reachable():
            bs.note(f"PostgreSQL part skipped: not reachable at {bs.PG_URL}")
            return
        with (
            bs.temp_postgres_database("poll") as pg_url,
            _api(tmp, "postgres", bs.sqlalchemy_url(pg_url)) as api,
        ):
            light, heavy = asyncio.run(_measure(*api, args.polls))
        _report("postgres", light, heavy)


if __name__ == "__main__":
    main()
