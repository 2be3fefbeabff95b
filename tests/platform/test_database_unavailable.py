"""A database that cannot be reached gives 503 `task_unavailable`, never a 500 or a hang."""

from __future__ import annotations

import httpx
import pytest

from leadwire.app import create_app
from leadwire.config import Settings
from leadwire.platform.admission.ratelimit import RateLimiter
from leadwire.platform.db import make_engine, make_sessionmaker
from leadwire.platform.notify import Notifier
from leadwire.platform.runtime import Runtime
from tests.support.envelope import assert_error
from tests.support.processes import free_port


@pytest.mark.parametrize("kind", ["postgres", "sqlite"])
async def test_unreachable_database_is_task_unavailable(kind: str, tmp_path) -> None:
    if kind == "postgres":
        url = f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/nowhere"
    else:
        url = f"sqlite+aiosqlite:///{tmp_path}/missing-dir/nope/leadwire.db"
    settings = Settings(data_dir=tmp_path, database_url=url)
    engine = make_engine(url)
    runtime = Runtime(
        settings=settings,
        engine=engine,
        sessionmaker=make_sessionmaker(engine),
        rate_limiter=RateLimiter(None),
        notifier=Notifier(),
    )
    app = create_app(runtime=runtime)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as http:
            response = await http.get(
                "/api/v2/credits", headers={"Authorization": "Bearer lw_live_" + "a" * 32}
            )
            assert_error(response, 503, "task_unavailable")
            assert response.headers["retry-after"] == "5"
            assert (await http.get("/readyz")).status_code == 503
    await engine.dispose()
