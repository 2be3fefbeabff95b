"""`leadwire outreach` output: a job is one readable block, its failure with the code and the detail."""

from __future__ import annotations

from leadwire.client.cli import describe

FAILED = {
    "id": "job_1",
    "action": "outreach.dispatch",
    "status": "failed",
    "channel": "email",
    "scheduled_at": "2026-11-25T10:00:00.000Z",
    "result": None,
}


def test_a_failed_job_shows_its_code_and_detail() -> None:
    job = {**FAILED, "error": {"code": "provider_rejected", "detail": "550 mailbox unavailable"}}
    assert "  error        provider_rejected: 550 mailbox unavailable" in describe(job).splitlines()


def test_a_failure_without_detail_shows_the_code_alone() -> None:
    job = {**FAILED, "error": {"code": "delivery_unknown"}}
    assert "  error        delivery_unknown" in describe(job).splitlines()
