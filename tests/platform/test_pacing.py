"""Per (user, channel) pacing: each outreach job is spaced from the previous one on its channel."""

from __future__ import annotations

import asyncio
import itertools
from datetime import datetime, timedelta

from leadwire.channels.pacing import next_slot
from leadwire.platform.db import transaction
from leadwire.platform.runtime import Runtime
from tests.support.accounts import AccountFactory


async def _slot(runtime: Runtime, user_id: str, channel: str, interval: int) -> datetime:
    async with transaction(runtime.sessionmaker) as session:
        return await next_slot(session, user_id=user_id, channel=channel, interval_seconds=interval)


async def test_slots_are_spaced_by_the_interval(runtime: Runtime, accounts: AccountFactory) -> None:
    user = (await accounts.create()).user_id
    first = await _slot(runtime, user, "email", 60)
    second = await _slot(runtime, user, "email", 60)
    third = await _slot(runtime, user, "email", 300)
    assert second - first == timedelta(seconds=60)
    assert third - second == timedelta(seconds=300)


async def test_channels_and_users_are_independent(runtime: Runtime, accounts: AccountFactory) -> None:
    alice = (await accounts.create()).user_id
    bob = (await accounts.create()).user_id
    await _slot(runtime, alice, "email", 3600)
    other_channel = await _slot(runtime, alice, "linkedin", 3600)
    other_user = await _slot(runtime, bob, "email", 3600)
    now = datetime.now(other_channel.tzinfo)
    assert abs((other_channel - now).total_seconds()) < 5
    assert abs((other_user - now).total_seconds()) < 5


async def test_concurrent_first_jobs_get_distinct_spaced_slots(
    runtime: Runtime, accounts: AccountFactory
) -> None:
    user = (await accounts.create()).user_id
    slots = sorted(await asyncio.gather(*(_slot(runtime, user, "whatsapp", 60) for _ in range(10))))
    gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(slots)]
    assert all(gap == 60 for gap in gaps), gaps
