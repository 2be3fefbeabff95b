"""A prospect list that is running, for the stream benchmarks to write its changes into: an account, a
webset `searching` with its run pending, and the stream checkpoint to follow it from (websets_sse.py,
stream_memory.py, webhooks.py). Leadwire is imported inside the functions: client processes that import
this module never load the app."""

from __future__ import annotations

from typing import Any

import _support as bs


def company_item(n: int) -> dict[str, Any]:
    """A compact company item, the shape discovery puts in `items` (roughly its size)."""
    return {
        "id": f"item_bench{n:08d}",
        "position": n,
        "match_status": "full",
        "score": 0.93,
        "entity": {
            "name": f"Bench Company {n}",
            "website": f"https://bench-{n}.example",
            "industry": "Chemicals",
        },
        "evaluations": [{"criterion_id": "crit_1", "satisfied": "yes"}],
    }


async def running_webset(database_url: str) -> tuple[str, str, int]:
    """An account, a webset that is `searching` (its run pending), its stream checkpoint."""
    import leadwire.models  # noqa: F401 - every table must be known for foreign keys to resolve
    from leadwire.platform.db import make_engine, make_sessionmaker, transaction
    from leadwire.platform.ids import new_id
    from leadwire.platform.time import utcnow
    from leadwire.websets import service
    from leadwire.websets.models import Webset, WebsetRun

    user_id, keys = await bs.create_account(database_url, plan="business")
    engine = make_engine(database_url)
    try:
        async with transaction(make_sessionmaker(engine)) as session:
            now = utcnow()
            webset_id = new_id("ws")
            session.add(
                Webset(
                    id=webset_id,
                    user_id=user_id,
                    name="bench chemical companies in Switzerland",
                    query="chemical companies in Switzerland",
                    target_kind="company",
                    locale="en",
                    count=1000,
                    status="searching",
                    criteria=[],
                    preparation_job_id=new_id("job"),
                    run_number=1,
                    items_revision=0,
                    stage="searching",
                    goal=1000,
                    verified=0,
                    qualified=0,
                    full=0,
                    progress_updated_at=now,
                    created_at=now,
                    started_at=now,
                    updated_at=now,
                )
            )
            await session.flush()
            session.add(
                WebsetRun(
                    id=new_id("run"),
                    webset_id=webset_id,
                    number=1,
                    job_id=None,
                    status="running",
                    released=0,
                    query_index=0,
                    rounds=[],
                    created_at=now,
                )
            )
        async with transaction(make_sessionmaker(engine)) as session:
            cursor, _revision = await service.checkpoint(session, webset_id)
    finally:
        await engine.dispose()
    return webset_id, keys[0][1], cursor
