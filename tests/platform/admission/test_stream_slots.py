"""Stream slots give the heap back after a burst: when the last of at least `trim_after` streams open at
once ends, the process trims its heap once (glibc's malloc_trim); a smaller burst, or streams still
open, trim nothing; 0 never trims."""

from __future__ import annotations

import asyncio
import gc

import pytest

from leadwire.platform import heap
from leadwire.platform.admission import stream_slots
from leadwire.platform.admission.stream_slots import StreamSlots
from leadwire.platform.callers import Caller
from leadwire.platform.plans import get_plan


def _caller(n: int) -> Caller:
    return Caller(user_id="usr_1", key_id=f"key_{n}", plan=get_plan("business"), scopes=frozenset())


def test_the_last_stream_of_a_burst_trims_the_heap_once(monkeypatch: pytest.MonkeyPatch) -> None:
    trims: list[int] = []
    monkeypatch.setattr(heap, "collect_and_trim", lambda: trims.append(1) or True)
    slots = StreamSlots(per_key=100, per_account=100, trim_after=3)
    held = [slots.hold(_caller(n)) for n in range(3)]
    held[0]()
    held[1]()
    assert trims == [] and slots.open_streams() == 1  # one still open
    held[2]()
    assert trims == [1] and slots.trims == 1 and slots.open_streams() == 0
    small = [slots.hold(_caller(n)) for n in range(2)]  # under the burst size: kept
    for give_back in small:
        give_back()
    assert trims == [1]


def test_zero_never_trims(monkeypatch: pytest.MonkeyPatch) -> None:
    trims: list[int] = []
    monkeypatch.setattr(heap, "collect_and_trim", lambda: trims.append(1) or True)
    slots = StreamSlots(per_key=100, per_account=100, trim_after=0)
    for give_back in [slots.hold(_caller(n)) for n in range(10)]:
        give_back()
    assert trims == [] and slots.trims == 0


async def test_in_a_server_the_trim_comes_a_moment_later_after_a_collection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The last streams' objects are freed after they give back their slots: the collection and the
    trim wait `TRIM_DELAY_SECONDS`, the trim off the event loop's thread."""
    import threading

    events: list[str] = []
    monkeypatch.setattr(stream_slots, "TRIM_DELAY_SECONDS", 0.05)
    monkeypatch.setattr(gc, "collect", lambda *a: events.append("collect") or 0)
    loop_thread = threading.get_ident()
    trimmed = asyncio.Event()
    loop = asyncio.get_running_loop()

    def trim() -> bool:
        events.append("trim off the loop" if threading.get_ident() != loop_thread else "trim on the loop")
        loop.call_soon_threadsafe(trimmed.set)
        return True

    monkeypatch.setattr(heap, "trim", trim)
    slots = StreamSlots(per_key=100, per_account=100, trim_after=2)
    for give_back in [slots.hold(_caller(n)) for n in range(2)]:
        give_back()
    assert events == []  # not while the last stream is ending
    await asyncio.wait_for(trimmed.wait(), 5)
    assert events == ["collect", "trim off the loop"]
