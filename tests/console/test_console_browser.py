"""The console in headless Chromium (Debian's, driven by Playwright through `executable_path`), on a real
server on loopback: sign in through the form, read the overview, open the jobs, cancel one; on a
phone-sized screen nothing scrolls sideways; the browser asks for nothing off the server (any such
request fails the test). With LEADWIRE_CONSOLE_SCREENSHOTS=<dir>, each page is saved there (how the
pictures in docs/console.md are made)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadwire.app import create_app
from leadwire.platform.runtime import Runtime
from tests.outreach.test_dispatch_validation import email
from tests.support.accounts import AccountFactory
from tests.support.jobs import running_worker
from tests.support.lifespan import served
from tests.websets.conftest import wait_finished

CHROMIUM = shutil.which("chromium")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
SHOTS = os.environ.get("LEADWIRE_CONSOLE_SCREENSHOTS")


@needs_chromium
async def test_sign_in_read_and_cancel_in_a_browser_that_reaches_only_the_server(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runtime.settings, "webhook_allow_private_networks", True)
    from playwright.async_api import async_playwright

    owner = await accounts.create(credits=4321)
    mailbox = await accounts.connect(owner.user_id, "email")
    job = (
        await client.post("/api/v2/outreach/dispatches", json=email(mailbox), headers=owner.headers)
    ).json()
    job_id = job["item"]["id"]
    async with served(create_app(runtime=runtime)) as base, async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = await browser.new_page(viewport={"width": 390, "height": 844})
            elsewhere = await _only_the_server(page, base)
            await page.goto(f"{base}/console")
            assert page.url == f"{base}/console/sign-in"
            await _shot(page, "sign-in")
            await page.fill("#api_key", owner.key)
            await page.click("button[type=submit]")
            await page.wait_for_url(f"{base}/console")
            assert await page.inner_text("h1") == "Overview"
            assert "4321" in await page.inner_text("main")
            assert await _too_wide(page) == []
            await _shot(page, "overview")
            await page.click("nav >> text=Jobs")
            await page.wait_for_url(f"{base}/console/jobs")
            assert job_id in await page.inner_text("main")
            await _shot(page, "jobs")
            await page.click("form[action$='/cancel'] button")
            await page.wait_for_url(f"{base}/console/jobs?done={job_id}")
            assert "cancelled" in await page.inner_text("main")
            await page.click("nav >> text=Outreach")
            await page.wait_for_url(f"{base}/console/outreach")
            assert await _too_wide(page) == []
            await _shot(page, "outreach")
            await page.click("nav >> text=Credits")
            await page.wait_for_url(f"{base}/console/credits")
            assert await _too_wide(page) == []
            await _shot(page, "credits")
            await page.click("nav >> text=Webhooks")
            await page.fill("#url", "http://127.0.0.1:9/hook")  # never called: no worker runs here
            await page.check("input[value='job.succeeded']")
            await page.click("form[action='/console/webhooks'] button[type=submit]")
            assert await page.locator("code.secret").count() == 1
            assert await _too_wide(page) == []
            await _shot(page, "webhooks")
            cookies = {c["name"]: c for c in await page.context.cookies()}
            session = cookies["lw_console"]
            assert (
                session["httpOnly"] and session["sameSite"] == "Strict" and owner.key not in session["value"]
            )
            assert await page.evaluate("document.cookie") == ""  # nothing a script could read
        finally:
            await browser.close()
    assert elsewhere == []
    state = (await client.get(f"/api/v2/jobs/{job_id}", headers=owner.headers)).json()["item"]
    assert state["status"] == "cancelled"


async def _shot(page: object, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)  # type: ignore[attr-defined]


@needs_chromium
async def test_a_list_fills_on_screen_without_a_reload_and_an_items_evidence_opens(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    from playwright.async_api import async_playwright

    owner = await AccountFactory(world_runtime).create(credits=500)
    async with served(create_app(runtime=world_runtime)) as base, async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            context = await browser.new_context(viewport={"width": 390, "height": 844}, accept_downloads=True)
            page = await context.new_page()
            elsewhere = await _only_the_server(page, base)
            await _sign_in_as(page, base, owner.key)
            await page.click("nav >> text=Lists")
            await page.fill("#query", "software companies")
            await page.click("form[action='/console/websets'] button[type=submit]")
            await page.wait_for_url(f"{base}/console/websets/ws_*")
            await page.evaluate("window.stillThisPage = true")
            assert await page.locator("li.item").count() == 0
            async with running_worker(world_runtime):
                await page.wait_for_selector("li.item", timeout=60_000)
                await page.wait_for_selector("#live-status >> text=Finished", timeout=60_000)
            assert await page.evaluate("window.stillThisPage === true")  # filled in place, not reloaded
            first = page.locator("li.item").first
            await first.locator("summary").click()
            assert await first.locator("details.evidence li").first.is_visible()
            await _shot(page, "webset")
            async with page.expect_download() as download:
                await page.click("text=Export CSV")
            saved = await (await download.value).path()
            assert Path(saved).read_text().splitlines()[0].startswith("id,")
            assert await _too_wide(page) == []
            await page.click("nav >> text=Lists")
            await _shot(page, "websets")
        finally:
            await browser.close()
    assert elsewhere == []


@needs_chromium
async def test_contacts_draw_a_tree_and_a_customs_report_draws_its_trend(
    world_runtime: Runtime, indexed_world: Path
) -> None:
    import duckdb
    from playwright.async_api import async_playwright

    from tests.support.world_rows import company_with_people

    owner = await AccountFactory(world_runtime).create(credits=2000)
    company = company_with_people(indexed_world)
    with duckdb.connect(str(indexed_world / "trade.duckdb"), read_only=True) as trade:
        importer = trade.execute(
            "SELECT importer_name FROM shipments GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
        ).fetchone()
    assert importer is not None
    async with (
        served(create_app(runtime=world_runtime)) as base,
        async_playwright() as playwright,
        running_worker(world_runtime),
    ):
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = await browser.new_page(viewport={"width": 390, "height": 844})
            elsewhere = await _only_the_server(page, base)
            await _sign_in_as(page, base, owner.key)
            await page.click("nav >> text=Research")
            await page.fill("#domain", company["domain"])
            await page.click("form[action$='/contacts'] button")
            await page.wait_for_selector("ul.tree li li", timeout=30_000)
            await _shot(page, "research")
            await page.click("nav >> text=Customs")
            await page.fill("#company_name", str(importer[0]))
            await page.click("form[action$='/candidates'] button")
            await page.wait_for_selector("form[action$='/report'] button", timeout=30_000)
            await _shot(page, "customs")
            await page.click("form[action$='/report'] button")
            await page.wait_for_selector("svg.chart rect.bar", timeout=30_000)
            assert await page.locator("svg.chart rect.bar").count() >= 12
            assert await _too_wide(page) == []
            await _shot(page, "trade-report")
        finally:
            await browser.close()
    assert elsewhere == []


async def _only_the_server(page: Any, base: str) -> list[str]:
    """Every request the page makes off the server is refused and listed here."""
    elsewhere: list[str] = []

    async def only_the_server(route: Any) -> None:
        if route.request.url.startswith(base):
            await route.continue_()
        else:
            elsewhere.append(route.request.url)
            await route.abort()

    await page.route("**/*", only_the_server)
    return elsewhere


async def _sign_in_as(page: Any, base: str, key: str) -> None:
    await page.goto(f"{base}/console/sign-in")
    await page.fill("#api_key", key)
    await page.click("button[type=submit]")
    await page.wait_for_url(f"{base}/console")


async def _too_wide(page: Any) -> list[str]:
    """What makes a phone-sized page scroll sideways: elements wider than the screen, or whose content
    overflows them (a table may scroll inside its own `.scroll` box). Measured once the page and its
    style sheet have loaded: a table laid out before its style sheet arrives is as wide as it likes."""
    await page.wait_for_load_state("load")
    if await page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"):
        return []
    found: list[str] = await page.evaluate(
        "[...document.querySelectorAll('body *')]"
        ".filter(e => !(e.parentElement && e.parentElement.closest('.scroll, svg')))"
        ".filter(e => e.getBoundingClientRect().right > window.innerWidth + 1"
        " || (e.scrollWidth > e.clientWidth + 1 && !e.classList.contains('scroll')))"
        ".map(e => e.tagName + ':' + Math.round(e.getBoundingClientRect().right) + '/' + e.scrollWidth)"
        ".slice(0, 5)"
    )
    return found or ["the page scrolls sideways"]


# Every control of every console page a signed-in account reaches from the navigation, checked in
# the browser: each has a label (a <label for>, a wrapping label, or aria-label), and the keyboard
# reaches the skip link first and then the navigation in order.
UNLABELLED = (
    "[...document.querySelectorAll('input:not([type=hidden]), select, textarea')]"
    ".filter(e => !e.labels.length && !e.getAttribute('aria-label')).map(e => e.name || e.id)"
)


@needs_chromium
async def test_every_page_is_labelled_reachable_by_keyboard_and_readable_without_script(
    world_client: httpx.AsyncClient, world_runtime: Runtime
) -> None:
    from playwright.async_api import async_playwright

    owner = await AccountFactory(world_runtime).create(credits=500)
    created = await world_client.post(
        "/api/v2/websets", json={"query": "software companies", "count": 25}, headers=owner.headers
    )
    webset_id = created.json()["item"]["webset"]["id"]
    async with running_worker(world_runtime):
        await wait_finished(world_client, owner.headers, webset_id)
    async with served(create_app(runtime=world_runtime)) as base, async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = await browser.new_page()
            elsewhere = await _only_the_server(page, base)
            await _sign_in_as(page, base, owner.key)
            await page.keyboard.press("Tab")
            assert await page.evaluate("document.activeElement.textContent") == "Skip to content"
            await page.keyboard.press("Tab")
            await page.keyboard.press("Tab")
            assert await page.evaluate("document.activeElement.getAttribute('href')") == "/console"
            links = await page.eval_on_selector_all(
                "nav a", "links => links.map(a => a.getAttribute('href'))"
            )
            for href in [*links, f"/console/websets/{webset_id}"]:
                await page.goto(f"{base}{href}")
                assert await page.evaluate(UNLABELLED) == [], href
                assert await page.locator("h1").count() == 1, href
            without_script = await browser.new_context(java_script_enabled=False)
            plain = await without_script.new_page()
            await _sign_in_as(plain, base, owner.key)
            await plain.goto(f"{base}/console/websets/{webset_id}")
            assert await plain.locator("li.item").count() > 0
            await plain.locator("li.item summary").first.click()  # <details> opens without script
            assert await plain.locator("li.item details[open] li").count() > 0
        finally:
            await browser.close()
    assert elsewhere == []


@needs_chromium
async def test_revoking_the_sessions_key_in_the_browser_ends_the_session(
    runtime: Runtime, accounts: AccountFactory
) -> None:
    from playwright.async_api import async_playwright

    owner = await accounts.create()
    second = await accounts.key(owner.user_id)
    async with served(create_app(runtime=runtime)) as base, async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = await browser.new_page(viewport={"width": 390, "height": 844})
            elsewhere = await _only_the_server(page, base)
            await _sign_in_as(page, base, second.key)
            await page.click("nav >> text=Keys")
            await page.fill("#name", "CRM sync")
            await page.check("input[value='websets:read']")
            await page.click("form[action='/console/keys'] button[type=submit]")
            assert (await page.inner_text("code.secret")).startswith("lw_")
            assert await _too_wide(page) == []
            await _shot(page, "keys")
            mine = page.locator("tr", has_text="(this session)")
            await mine.locator("button", has_text="Revoke").click()
            await page.wait_for_url(f"{base}/console/sign-in")
            await page.goto(f"{base}/console")
            assert page.url == f"{base}/console/sign-in"  # the session ended with its key
        finally:
            await browser.close()
    assert elsewhere == []
