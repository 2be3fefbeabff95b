"""The request's database session as a dependency; when it commits is `platform/unit_of_work.py`'s."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.platform.runtime import Runtime
from leadwire.platform.unit_of_work import request_session


async def db_session(request: Request) -> AsyncIterator[AsyncSession]:
    # A GET only reads: on SQLite it must not hold the write lock (a stream or a wait may outlast it).
    # The runtime is reached directly, not as a dependency: a level of resolution on every request.
    runtime: Runtime = request.app.state.runtime
    read_only = request.method in ("GET", "HEAD")
    maker = runtime.reader if read_only else runtime.sessionmaker
    async for session in request_session(maker, read_only=read_only):
        yield session


# scope="function": the commit happens before the response is sent, so a commit failure is reported.
Session = Annotated[AsyncSession, Depends(db_session, scope="function")]
