"""HTTP of the console's research and customs pages and of one job's page: each form starts its job
through the capability's operation and leads to the job's page, which shows the result when it ends."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from leadwire.console import job_pages as pages
from leadwire.console import web
from leadwire.console.sessions import SignedIn
from leadwire.platform.errors import ApiError
from leadwire.platform.http import Session
from leadwire.platform.runtime import Runtime, get_runtime
from leadwire.platform.time import utcnow

router = APIRouter(prefix="/console", include_in_schema=False)
FORM_PAGES = {"research": "Research", "customs": "Customs"}


def _form(current: SignedIn, area: str, http_status: int = 200, **context: Any) -> Response:
    start, end = pages.one_year_back(utcnow().date())
    context = {"error": None, "form": {}, **context}
    return web.signed_page(
        current,
        f"{area}.html",
        http_status,
        title=FORM_PAGES[area],
        start_date=start,
        end_date=end,
        **context,
    )


@router.get("/research")
async def research_page(
    request: Request, session: Session, runtime: Runtime = Depends(get_runtime)
) -> Response:
    current = await web.admit(request, session, runtime)
    return current if isinstance(current, Response) else _form(current, "research")


@router.get("/customs")
async def customs_page(
    request: Request, session: Session, runtime: Runtime = Depends(get_runtime)
) -> Response:
    current = await web.admit(request, session, runtime)
    return current if isinstance(current, Response) else _form(current, "customs")


async def _start_job(request: Request, session: Session, runtime: Runtime, form_path: str) -> Response:
    raw = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    current = await web.admit(request, session, runtime, csrf=raw.get("csrf", ""))
    if isinstance(current, Response):
        return current
    job_id = await web.act(
        session, pages.start(session, runtime, current.caller, form_path, pages.body_of(form_path, raw))
    )
    if isinstance(job_id, ApiError):
        message = web.refusal_message("Not started", job_id)
        return _form(current, form_path.split("/")[0], job_id.status, error=message, form=raw)
    return web.to(f"/console/jobs/{job_id}")


def _starter(form_path: str) -> Callable[..., Awaitable[Response]]:
    async def start_job(
        request: Request, session: Session, runtime: Runtime = Depends(get_runtime)
    ) -> Response:
        return await _start_job(request, session, runtime, form_path)

    return start_job


for _form_path in pages.STARTS:
    router.add_api_route(f"/{_form_path}", _starter(_form_path), methods=["POST"])


@router.get("/jobs/{job_id}")
async def job_page(
    request: Request, session: Session, job_id: str, runtime: Runtime = Depends(get_runtime)
) -> Response:
    current = await web.admit(request, session, runtime)
    if isinstance(current, Response):
        return current
    try:
        shown = await pages.job_page(
            runtime, current.caller, job_id, wait="again" not in request.query_params
        )
    except ApiError as error:
        return web.refused(current, error, "Job")
    return web.signed_page(current, "job.html", title=f"Job {job_id}", **shown)
