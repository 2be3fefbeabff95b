"""HTTP of the console's research and customs pages and of one job's page: each form starts its job
through the capability's operation and leads to the job's page, which shows the result when it ends."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from leadwire.console import job_pages as pages
from leadwire.console import web
from leadwire.platform.errors import ApiError
from leadwire.platform.http import Session
from leadwire.platform.runtime import Runtime, get_runtime
from leadwire.platform.time import utcnow
from leadwire.platform.unit_of_work import discard

router = APIRouter(prefix="/console", include_in_schema=False)
FORM_PAGES = {"research": "Research", "customs": "Customs"}


async def _form_page(request: Request, session: Session, runtime: Runtime, area: str) -> Response:
    current = await web.signed_in(request, session, runtime)
    if current is None:
        return web.to(web.SIGN_IN)
    start, end = pages.one_year_back(utcnow().date())
    return web.page(
        f"{area}.html", title=FORM_PAGES[area], signed_in=True, csrf=current.csrf_token, error=None,
        start_date=start, end_date=end, form={},
    )  # fmt: skip


@router.get("/research")
async def research_page(
    request: Request, session: Session, runtime: Runtime = Depends(get_runtime)
) -> Response:
    return await _form_page(request, session, runtime, "research")


@router.get("/customs")
async def customs_page(
    request: Request, session: Session, runtime: Runtime = Depends(get_runtime)
) -> Response:
    return await _form_page(request, session, runtime, "customs")


async def _start_job(request: Request, session: Session, runtime: Runtime, form_path: str) -> Response:
    current = await web.signed_in(request, session, runtime)
    if current is None:
        return web.to(web.SIGN_IN)
    raw = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
    if not web.csrf_ok(current, raw.get("csrf", "")):
        return web.expired_form()
    try:
        job_id = await pages.start(session, runtime, current.caller, form_path, pages.body_of(form_path, raw))
    except ApiError as error:
        await discard(session)
        area = form_path.split("/")[0]
        start, end = pages.one_year_back(utcnow().date())
        return web.page(
            f"{area}.html", error.status, title=FORM_PAGES[area], signed_in=True, csrf=current.csrf_token,
            error=f"Not started: {error.detail or error.code} ({error.code})", start_date=start,
            end_date=end, form=raw,
        )  # fmt: skip
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
    current = await web.signed_in(request, session, runtime)
    if current is None:
        return web.to(web.SIGN_IN)
    try:
        shown = await pages.job_page(
            runtime, current.caller, job_id, wait="again" not in request.query_params
        )
    except ApiError as error:
        return web.refused(current, error, "Job")
    return web.page("job.html", title=f"Job {job_id}", signed_in=True, csrf=current.csrf_token, **shown)
