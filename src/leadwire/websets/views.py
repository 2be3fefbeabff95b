"""How a webset, its strategy and its items look on the wire (and in SSE payloads and MCP results)."""

from __future__ import annotations

from typing import Any, Literal

from leadwire.platform.jobs import JobLike
from leadwire.platform.time import iso
from leadwire.providers.reasoner import JUDGEMENTS, Judged, judged_from_score
from leadwire.websets.models import Webset, WebsetItem
from leadwire.websets.schemas import (
    ChecksOut,
    CreateWebsetOut,
    CriterionOut,
    CriterionResultOut,
    ItemOut,
    ProgressOut,
    StrategyOut,
    WebsetListItem,
    WebsetOut,
)

FINISHED = ("completed", "failed", "cancelled")
READINESS = {"generating_criteria": "generating_criteria", "failed": "failed", "cancelled": "cancelled"}
COMPANY_COMPACT = ("name", "website", "industry")
PERSON_COMPACT = ("name", "title", "company", "location", "linkedin_url")


def created(webset_and_job: tuple[Webset, JobLike]) -> CreateWebsetOut:
    """The 202 item of a new list: the list as created, and its preparation job."""
    webset, job = webset_and_job
    return {
        "webset": {
            "id": webset.id,
            "status": webset.status,
            "count": webset.count,
            "target_kind": webset.target_kind,
        },
        "preparation_job": {"id": job.id, "status": job.status},
    }


def progress(webset: Webset) -> ProgressOut:
    return {
        "stage": webset.stage,
        "goal": webset.goal,
        "verify_cap": webset.verify_cap,
        "verified": webset.verified,
        "qualified": webset.qualified,
        "full": webset.full,
        "stop_reason": webset.stop_reason,
        "updated_at": iso(webset.progress_updated_at),
    }


def list_item(webset: Webset) -> WebsetListItem:
    return {
        "id": webset.id,
        "name": webset.name,
        "query": webset.query if len(webset.query) <= 500 else webset.query[:497] + "...",
        "target_kind": webset.target_kind,
        "status": webset.status,
        "count": webset.count,
        "progress": progress(webset),
        "created_at": iso(webset.created_at),
        "started_at": iso(webset.started_at),
        "finished_at": iso(webset.finished_at),
        "updated_at": iso(webset.updated_at),
    }


def webset_detail(webset: Webset, run_job_id: str | None) -> WebsetOut:
    failure: dict[str, Any] | None = None
    if webset.failure_code:
        failure = {"code": webset.failure_code}
        if webset.failure_detail:
            failure["detail"] = webset.failure_detail
    return {
        **list_item(webset),
        "query": webset.query,
        "criteria": criteria(webset),
        "exclude": [{"source": e["source"], "id": e["id"]} for e in webset.exclude],
        "seed": dict(webset.seed) if webset.seed else None,  # type: ignore[typeddict-item]
        "failure": failure,  # type: ignore[typeddict-item]
        "locale": webset.locale,
        "preparation_job_id": webset.preparation_job_id,
        "run_job_id": run_job_id,
    }


def criteria(webset: Webset) -> list[CriterionOut]:
    return [
        {
            "id": c["id"],
            "description": c["description"],
            "type": c["type"],
            "weight": c["weight"],
            "required": c["required"],
            "active": c["active"],
        }
        for c in webset.criteria
    ]


def strategy(webset: Webset) -> StrategyOut:
    criteria_ready = webset.criteria_updated_at is not None
    strategy_ready = webset.strategy is not None
    readiness = READINESS.get(webset.status) or ("ready" if strategy_ready else "planning")
    if webset.status in ("failed", "cancelled") and strategy_ready:
        readiness = "ready"
    if webset.status == "generating_criteria" and criteria_ready:
        readiness = "planning"
    return {
        "webset_id": webset.id,
        "webset_status": webset.status,
        "readiness": readiness,
        "criteria_ready": criteria_ready,
        "strategy_ready": strategy_ready,
        "criteria": criteria(webset),
        "strategy": webset.strategy,  # type: ignore[typeddict-item]
        "criteria_updated_at": iso(webset.criteria_updated_at),
        "strategy_available_at": iso(webset.strategy_available_at),
        "strategy_updated_at": iso(webset.strategy_updated_at),
    }


def item(
    row: WebsetItem, *, detail: str, finished: bool, criteria_by_id: dict[str, dict[str, Any]]
) -> ItemOut:
    out: ItemOut = {
        "id": row.id,
        "target_kind": row.target_kind,
        "entity": row.entity if detail != "compact" else compact_entity(row),
        "match": {"status": row.match_status, "score": row.score},
        "provisional": not finished,
        "created_at": iso(row.created_at),
        "updated_at": iso(row.updated_at),
    }
    if detail != "compact":
        out["checks"] = checks(row.evaluations, criteria_by_id)
        out["criteria"] = [_result(e, detail, criteria_by_id) for e in row.evaluations]
    return out


def compact_entity(row: WebsetItem) -> dict[str, Any]:
    keys = PERSON_COMPACT if row.target_kind == "person" else COMPANY_COMPACT
    return {key: row.entity.get(key) for key in keys}


Outcome = Literal["met", "partial", "unmet"]
_OUTCOMES: dict[Judged, Outcome] = {"yes": "met", "unclear": "partial", "no": "unmet"}


def verdict_of(evaluation: dict[str, Any]) -> Judged:
    """A stored evaluation's verdict; one stored before verdicts were, read from its score."""
    stored = evaluation.get("verdict")
    return stored if stored in JUDGEMENTS else judged_from_score(float(evaluation["score"]))


def checks(evaluations: list[dict[str, Any]], criteria_by_id: dict[str, dict[str, Any]]) -> ChecksOut:
    verdicts = [verdict_of(e) for e in evaluations]
    required = [
        v
        for v, e in zip(verdicts, evaluations, strict=True)
        if criteria_by_id.get(e["criterion_id"], {}).get("required", False)
    ]
    return {
        "total": len(verdicts),
        "met": verdicts.count("yes"),
        "partial": verdicts.count("unclear"),
        "unmet": verdicts.count("no"),
        "required_unmet": required.count("no"),
        "required_unclear": required.count("unclear"),
    }


def _result(
    evaluation: dict[str, Any], detail: str, criteria_by_id: dict[str, dict[str, Any]]
) -> CriterionResultOut:
    criterion = criteria_by_id.get(evaluation["criterion_id"], {})
    out: CriterionResultOut = {
        "criterion_id": evaluation["criterion_id"],
        "type": criterion.get("type", ""),
        "description": criterion.get("description", ""),
        "verdict": (verdict := verdict_of(evaluation)),
        "outcome": _OUTCOMES[verdict],
        "score": evaluation["score"],
    }
    if detail == "full":
        out["reasoning"] = evaluation["reasoning"]
        out["confidence"] = evaluation["confidence"]
        out["references"] = list(evaluation["references"])
    return out
