"""The job state machine is stated once (`platform/jobs/states.py`): the public status type, the
statuses and the moves agree, terminal states go nowhere, and an illegal move is refused."""

from __future__ import annotations

from typing import get_args

import pytest

from leadwire.platform.jobs import states
from leadwire.platform.jobs.models import Job
from leadwire.platform.jobs.schemas import JobStatus


def test_the_public_status_type_is_the_machine_s_statuses() -> None:
    assert set(get_args(JobStatus)) == set(states.STATUSES)
    assert set(states.MOVES) == set(states.STATUSES)


def test_terminal_statuses_go_nowhere_and_every_pending_one_can_run_or_be_cancelled() -> None:
    assert all(states.MOVES[status] == frozenset() for status in states.TERMINAL)
    assert all(states.can_move(status, "running") for status in states.PENDING)
    assert all(states.can_move(status, "cancelled") for status in states.PENDING)
    assert not states.can_move("running", "cancelled")  # a running job is not cancelled (409)


@pytest.mark.parametrize(("current", "target"), [("succeeded", "failed"), ("queued", "succeeded")])
def test_an_illegal_move_is_refused(current: str, target: str) -> None:
    job = Job(id="job_x", status=current)
    with pytest.raises(ValueError, match="cannot become"):
        states.mark_terminal(job, target)
