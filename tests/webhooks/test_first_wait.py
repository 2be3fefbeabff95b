"""The deliverer's wait for the first of several wakes (`delivery._first`): a cancellation that reaches
it while it cleans up its waits ends it, rather than being swallowed (which once kept a cancelled
worker's delivery loop running for good)."""

from __future__ import annotations

import asyncio

from leadwire.webhooks.delivery import _first


async def _slow_to_cancel(cleaning: asyncio.Event) -> None:
    try:
        await asyncio.sleep(60)
    except asyncio.CancelledError:
        cleaning.set()
        await asyncio.sleep(0.2)  # a wait that takes a moment to wind down
        raise


async def test_a_cancellation_during_the_clean_up_is_not_swallowed() -> None:
    cleaning = asyncio.Event()
    waiting = asyncio.create_task(_first(_slow_to_cancel(cleaning), timeout=0.01))
    await cleaning.wait()  # the timeout passed: `_first` is cancelling its waits
    waiting.cancel()
    done, _ = await asyncio.wait([waiting], timeout=5)
    assert done and waiting.cancelled()


async def test_the_first_wake_ends_the_wait_and_the_others_are_cancelled() -> None:
    woken = asyncio.Event()
    woken.set()
    other = asyncio.Event()
    waiting = asyncio.create_task(_first(woken.wait(), other.wait(), timeout=3600))
    done, _ = await asyncio.wait([waiting], timeout=30)  # a guard against a hang, not a timing
    assert done, "the wait did not end at its first wake"
    await waiting
