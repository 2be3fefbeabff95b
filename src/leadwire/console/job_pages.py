"""The console's job pages: starting a research or customs job from a form (through the capability's
own operation, so the body is checked, authorised and billed as the API does), and one job's page with
its result drawn for a person: public-web sources, contacts with their inferred hierarchy as a tree,
customs candidates with a trade-report button, and a trade report with its trend as an SVG chart."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.console.charts import Chart, trend_chart
from leadwire.customs import operations as customs
from leadwire.platform.callers import Caller, Permission
from leadwire.platform.http import authorize
from leadwire.platform.jobs import PENDING, Operation, PublicJob, read_job, wait_for_terminal
from leadwire.platform.runtime import Runtime
from leadwire.platform.validation import validate, whole_number
from leadwire.research import operations as research

# The forms the console offers: their path under /console and the operation each starts.
STARTS: dict[str, Operation[Any, Any]] = {
    "research/public-web": research.PUBLIC_WEB,
    "research/contacts": research.CONTACTS,
    "customs/candidates": customs.CANDIDATES,
    "customs/report": customs.TRADE_REPORT,
}
# How a finished job's result is drawn; any other action shows its result as JSON.
RESULT_TEMPLATES = {
    "research.public_web": "results/public_web.html",
    "research.contacts": "results/contacts.html",
    "customs.company_candidates": "results/candidates.html",
    "customs.trade_report": "results/trade_report.html",
}
# A job page's heading; any other action is named as the API names it.
ACTION_TITLES = {
    "research.public_web": "Public-web research",
    "research.contacts": "Company contacts",
    "customs.company_candidates": "Customs candidates",
    "customs.trade_report": "Trade report",
}
# A job page first waits this long for the job to end, so a quick job is shown done at once; a page
# still pending reloads itself (a <meta> refresh, no script).
FIRST_WAIT_SECONDS = 3.0
NOT_ENDED = (*PENDING, "running")
REFRESH_SECONDS = 2


def split_lines(text: str) -> list[str]:
    return [line.strip() for line in text.replace(",", "\n").splitlines() if line.strip()]


def one_year_back(today: date) -> tuple[str, str]:
    """The default range of a customs form: the year up to today (the records' longest range)."""
    return (today - timedelta(days=364)).isoformat(), today.isoformat()


async def start(
    session: AsyncSession, runtime: Runtime, caller: Caller, form_path: str, fields: dict[str, Any]
) -> str:
    """The new job's id: the form's fields are the operation's JSON body, refused with the API's codes."""
    operation = STARTS[form_path]
    permission: Permission = operation.permission
    await authorize(runtime, caller, permission)
    body = validate(operation.body, fields)
    job = await operation.start(session, runtime, caller, body)
    return str(job.id)


async def job_page(runtime: Runtime, caller: Caller, job_id: str, *, wait: bool) -> dict[str, Any]:
    """A job as `GET /api/v2/jobs/{id}` shows it (refused alike), with its result prepared to draw."""
    job = await read_job(runtime.driver_reads, caller, job_id)
    if wait and job["status"] in NOT_ENDED:
        await wait_for_terminal(runtime, job_id, FIRST_WAIT_SECONDS)
        job = await read_job(runtime.driver_reads, caller, job_id)
    pending = job["status"] in NOT_ENDED
    return {
        "job": job,
        "heading": ACTION_TITLES.get(job["action"], job["action"]),
        "pending": pending,
        "refresh": REFRESH_SECONDS if pending else None,
        "result_template": RESULT_TEMPLATES.get(job["action"]),
        "tree": _tree(job) if job["action"] == "research.contacts" else None,
        "chart": _chart(job) if job["action"] == "customs.trade_report" else None,
        "report_dates": _dates(job),
    }


def _result(job: PublicJob) -> dict[str, Any]:
    result = job.get("result")
    return result if isinstance(result, dict) else {}


def _tree(job: PublicJob) -> list[dict[str, Any]]:
    """The contacts' inferred hierarchy as nested nodes, from the company down (edges point from a
    person to whom they report, or to the company for the top people)."""
    result = _result(job)
    nodes = {node["id"]: node for node in result.get("nodes", [])}
    children: dict[str, list[tuple[int, str, float, str]]] = {}
    for edge in result.get("edges", []):
        if edge["from"] in nodes and edge["to"] in nodes:
            entry = (edge["sort_order"], edge["from"], edge["confidence"], edge["relation"])
            children.setdefault(edge["to"], []).append(entry)

    def grow(node_id: str, confidence: float | None, seen: frozenset[str]) -> dict[str, Any]:
        below = sorted(children.get(node_id, []))
        return {
            **nodes[node_id],
            "confidence": confidence,
            "children": [
                grow(child, conf, seen | {child}) for _, child, conf, _ in below if child not in seen
            ],
        }

    roots = [n for n in nodes.values() if n["kind"] == "company"] or list(nodes.values())[:1]
    return [grow(root["id"], None, frozenset({root["id"]})) for root in roots]


def _chart(job: PublicJob) -> Chart | None:
    trend = _result(job).get("sections", {}).get("trend", {})
    if trend.get("status") != "complete":
        return None
    return trend_chart(trend.get("data", {}).get("items", []))


def _dates(job: PublicJob) -> dict[str, str] | None:
    """The range a candidates job searched, which its rows' trade-report buttons ask for again."""
    result = _result(job)
    found = result.get("date_range")
    return dict(found) if isinstance(found, dict) else None


# Each form's fields as the operation's JSON body: numbers from their text, lists from lines or commas,
# an empty optional field left out (so the API's default applies).
_INTEGERS = {"search_limit", "limit"}
_LISTS = {"queries", "positions"}
FORM_FIELDS = {
    "research/public-web": ("queries", "search_limit"),
    "research/contacts": ("domain", "positions", "limit"),
    "customs/candidates": ("company_name", "company_role", "start_date", "end_date"),
    "customs/report": ("company_name", "company_role", "catalog", "start_date", "end_date", "period_unit"),
}
MAX_FIELD = 5_000


def body_of(form_path: str, form: dict[str, str]) -> dict[str, Any]:
    body: dict[str, Any] = {}
    for name in FORM_FIELDS[form_path]:
        raw = form.get(name, "")[:MAX_FIELD].strip()
        if raw == "":
            continue
        if name in _INTEGERS:
            number = whole_number(raw)  # text that is not one is left for the API's check, as in JSON
            body[name] = raw if number is None else number
        elif name in _LISTS:
            body[name] = (
                split_lines(raw)
                if name == "positions"
                else [q.strip() for q in raw.splitlines() if q.strip()]
            )
        else:
            body[name] = raw
    return body
