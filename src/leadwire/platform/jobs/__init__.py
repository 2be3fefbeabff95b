"""The job engine, as the capabilities use it: declare an action (`ActionSpec` in the `registry`), create
its jobs in the request's transaction, run them in a worker through a `JobContext`, and render them.

This module is the room's public face; its other modules (the queue, the runner, the state machine)
belong to the platform and to the processes that run workers.
"""

from leadwire.platform.jobs.background import BackgroundTask
from leadwire.platform.jobs.context import JobContext, JobFailure, JobHeld
from leadwire.platform.jobs.models import Job, JobLike, NewJob
from leadwire.platform.jobs.operations import Operation, job_operation
from leadwire.platform.jobs.registry import ActionSpec, Handler, registry
from leadwire.platform.jobs.schemas import Channel, JobHold, PublicJob, ReducedJob
from leadwire.platform.jobs.service import (
    cancel_job,
    create_job,
    get_owned_job,
    hand_over,
    list_jobs,
    read_job,
    release_held,
)
from leadwire.platform.jobs.states import PENDING, STATUSES
from leadwire.platform.jobs.views import public_job, reduced_job
from leadwire.platform.jobs.wait import wait_for_terminal

__all__ = [
    "PENDING",
    "STATUSES",
    "ActionSpec",
    "BackgroundTask",
    "Channel",
    "Handler",
    "Job",
    "JobContext",
    "JobFailure",
    "JobHeld",
    "JobHold",
    "JobLike",
    "NewJob",
    "Operation",
    "PublicJob",
    "ReducedJob",
    "cancel_job",
    "create_job",
    "get_owned_job",
    "hand_over",
    "job_operation",
    "list_jobs",
    "public_job",
    "read_job",
    "reduced_job",
    "registry",
    "release_held",
    "wait_for_terminal",
]
