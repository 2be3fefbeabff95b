"""A running job's progress writes (`platform/jobs/progress.py`): none for a job that ends in its quiet
start, the latest report for a longer one, a failed write never the job's failure."""

from __future__ import annotations

import asyncio

from leadwire.platform.jobs.progress import ProgressWriter

Report = tuple[str, float, float]


class Writes:
    def __init__(self, *, fail: bool = False) -> None:
        self.written: list[Report] = []
        self.arrived = asyncio.Event()
        self.fail = fail

    async def __call__(self, stage: str, percent: float, units: float) -> None:
        self.written.append((stage, percent, units))
        self.arrived.set()
        if self.fail:
            raise RuntimeError("the database refused")


async def test_a_job_that_ends_in_its_quiet_start_writes_nothing() -> None:
    writes = Writes()
    writer = ProgressWriter("job_1", writes, quiet=60.0)
    await writer.report("searching", 10.0, 0.0)
    await writer.report("ranking", 50.0, 3.0)
    await writer.close()
    await asyncio.sleep(0)
    assert writes.written == []


async def test_reports_made_while_quiet_are_written_once_as_the_latest() -> None:
    writes = Writes()
    writer = ProgressWriter("job_1", writes, quiet=0.05)
    for percent in (10.0, 20.0, 30.0):
        await writer.report("working", percent, percent / 10)
    await asyncio.wait_for(writes.arrived.wait(), 10)
    assert writes.written == [("working", 30.0, 3.0)]
    writes.arrived.clear()
    await writer.report("finishing", 90.0, 9.0)  # a report after the quiet start is written too
    await asyncio.wait_for(writes.arrived.wait(), 10)
    assert writes.written[-1] == ("finishing", 90.0, 9.0)
    await writer.close()


async def test_a_write_that_fails_is_not_the_job_s_failure() -> None:
    writes = Writes(fail=True)
    writer = ProgressWriter("job_1", writes, quiet=0.0)
    await writer.report("working", 10.0, 0.0)
    await asyncio.wait_for(writes.arrived.wait(), 10)
    writes.arrived.clear()
    await writer.report("working", 20.0, 0.0)  # the writer lives on after a failed write
    await asyncio.wait_for(writes.arrived.wait(), 10)
    await writer.close()
    assert [w[1] for w in writes.written] == [10.0, 20.0]
