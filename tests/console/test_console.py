"""The console over HTTP (SQLite and PostgreSQL): sign-in exchanges a key for an HTTP-only, SameSite=Strict
session cookie and keeps no key; every form's CSRF token is checked; a revoked key ends its sessions; a
page shows what the key's scopes allow and only its own account's data; nothing on a page points off the
server."""

from __future__ import annotations

import re

import httpx

from leadwire.platform.runtime import Runtime
from tests.console.signing import SIGN_IN
from tests.console.signing import csrf_of as _csrf
from tests.console.signing import sign_in as _sign_in
from tests.outreach.test_dispatch_validation import email
from tests.support.accounts import AccountFactory, TestAccount
from tests.support.jobs import poll_job, running_worker


def _raw(owner: TestAccount) -> str:
    return owner.key


async def test_sign_in_sets_a_strict_http_only_cookie_and_shows_the_accounts_own_data(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner, stranger = await accounts.create(credits=1234), await accounts.create(credits=99)
    mailbox = await accounts.connect(owner.user_id, "email")
    await accounts.connect(stranger.user_id, "whatsapp")
    await client.post("/api/v2/outreach/dispatches", json=email(mailbox), headers=owner.headers)
    assert (await client.get("/console")).headers["location"] == SIGN_IN
    signed = await _sign_in(client, _raw(owner))
    assert signed.status_code == 303 and signed.headers["location"] == "/console"
    cookie = next(c for c in signed.headers.get_list("set-cookie") if c.startswith("lw_console="))
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/console" in cookie
    assert "Secure" not in cookie  # plain http on loopback; https adds it
    assert owner.key not in cookie
    page = await client.get("/console")
    assert page.status_code == 200 and "1234" in page.text and mailbox in page.text
    assert "outreach.dispatch" not in page.text or "email" in page.text
    assert "99" not in re.sub(r"<[^>]+>", " ", page.text).split() and "whatsapp" not in page.text
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
    assert not re.search(r'(?:src|href|action)="(?:https?:)?//', page.text)  # nothing off the server


async def test_a_wrong_key_or_a_missing_csrf_token_signs_nobody_in(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create()
    wrong = await _sign_in(client, "lw_live_" + "x" * 32)
    assert wrong.status_code == 401 and "no such key" in wrong.text
    no_token = await client.post(SIGN_IN, data={"api_key": _raw(owner)})
    assert no_token.status_code == 403 and "lw_console=" not in no_token.headers.get("set-cookie", "")
    await _sign_in(client, _raw(owner))
    forged = await client.post("/console/sign-out", data={"csrf": "forged"})
    assert forged.status_code == 403
    assert (await client.get("/console")).status_code == 200  # still signed in
    page = await client.get("/console")
    out = await client.post("/console/sign-out", data={"csrf": _csrf(page.text)})
    assert out.status_code == 303 and (await client.get("/console")).headers["location"] == SIGN_IN


async def test_revoking_the_key_ends_its_sessions_and_scopes_limit_what_a_page_reads(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner = await accounts.create(credits=777)
    await _sign_in(client, _raw(owner))
    assert (await client.get("/console")).status_code == 200
    await accounts.revoke(owner.key_id)
    assert (await client.get("/console")).headers["location"] == SIGN_IN
    narrow = await accounts.key(owner.user_id, scopes=["accounts:read"])
    await _sign_in(client, narrow.key)
    page = await client.get("/console")
    assert page.status_code == 200 and "777" not in page.text
    assert "cannot read credits" in page.text and "cannot read the outreach queue" in page.text


async def test_the_jobs_page_lists_and_cancels_with_the_forms_token_and_only_the_accounts_own(
    client: httpx.AsyncClient, accounts: AccountFactory
) -> None:
    owner, stranger = await accounts.create(), await accounts.create()
    mailbox = await accounts.connect(owner.user_id, "email")
    theirs = await accounts.connect(stranger.user_id, "email")
    job = (
        await client.post("/api/v2/outreach/dispatches", json=email(mailbox), headers=owner.headers)
    ).json()["item"]
    other = (
        await client.post("/api/v2/outreach/dispatches", json=email(theirs), headers=stranger.headers)
    ).json()["item"]
    await _sign_in(client, _raw(owner))
    page = await client.get("/console/jobs")
    assert page.status_code == 200 and job["id"] in page.text and other["id"] not in page.text
    forged = await client.post(f"/console/jobs/{job['id']}/cancel", data={"csrf": "forged"})
    assert forged.status_code == 403
    token = _csrf(page.text)
    foreign = await client.post(f"/console/jobs/{other['id']}/cancel", data={"csrf": token})
    assert foreign.status_code == 404
    done = await client.post(f"/console/jobs/{job['id']}/cancel", data={"csrf": token})
    assert done.status_code == 303
    listed = await client.get(done.headers["location"])
    assert "cancelled" in listed.text
    state = (await client.get(f"/api/v2/jobs/{job['id']}", headers=owner.headers)).json()["item"]
    other_state = (await client.get(f"/api/v2/jobs/{other['id']}", headers=stranger.headers)).json()["item"]
    assert (state["status"], other_state["status"]) == ("cancelled", "scheduled")
    filtered = await client.get("/console/jobs", params={"status": "scheduled"})
    assert job["id"] not in filtered.text


async def test_without_a_session_every_page_and_form_leads_to_sign_in(client: httpx.AsyncClient) -> None:
    """The console's own door (tests/platform/test_security.py lists its routes): no session, no data."""
    for method, path in (
        ("GET", "/console"),
        ("GET", "/console/jobs"),
        ("POST", "/console/jobs/job_01m8nothing/cancel"),
        ("POST", "/console/sign-out"),
        ("GET", "/console/websets"),
        ("POST", "/console/websets"),
        ("GET", "/console/websets/ws_01nothing"),
        ("GET", "/console/websets/ws_01nothing/export"),
        ("POST", "/console/websets/ws_01nothing/find-more"),
        ("GET", "/console/jobs/job_01m8nothing"),
        ("GET", "/console/research"),
        ("POST", "/console/research/public-web"),
        ("POST", "/console/research/contacts"),
        ("GET", "/console/customs"),
        ("POST", "/console/customs/candidates"),
        ("POST", "/console/customs/report"),
        ("GET", "/console/credits"),
        ("GET", "/console/outreach"),
        ("GET", "/console/keys"),
        ("POST", "/console/keys"),
        ("POST", "/console/keys/key_01nothing/revoke"),
        ("GET", "/console/webhooks"),
        ("POST", "/console/webhooks"),
        ("GET", "/console/webhooks/wh_01nothing"),
        ("POST", "/console/webhooks/wh_01nothing/delete"),
        ("POST", "/console/webhooks/wh_01nothing/deliveries/dl_01nothing/retry"),
    ):
        response = await client.request(method, path, data={"csrf": "x"} if method == "POST" else None)
        assert (response.status_code, response.headers.get("location")) == (303, SIGN_IN), (method, path)
    live = await client.get("/console/websets/ws_01nothing/live")
    assert live.status_code == 401  # a page's EventSource, not a page: no redirect to follow
    client.cookies.set("lw_console", "made-up-token", path="/console")
    assert (await client.get("/console")).headers["location"] == SIGN_IN
    style = await client.get("/console/static/console.css")
    assert style.status_code == 200 and style.headers["content-type"].startswith("text/css")
    script = await client.get("/console/static/console.js")
    assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
    assert (await client.get("/console/static/missing.js")).status_code == 404


async def test_the_outreach_page_lists_what_the_account_sent_and_only_that(
    client: httpx.AsyncClient, runtime: Runtime, accounts: AccountFactory
) -> None:
    owner, stranger = await accounts.create(), await accounts.create()
    mailbox = await accounts.connect(owner.user_id, "email")
    theirs = await accounts.connect(stranger.user_id, "email")
    mine = email(mailbox, recipient={"address": "ada@prospect.example"})
    other = email(theirs, recipient={"address": "grace@elsewhere.example"})
    jobs = []
    for body, who in ((mine, owner), (other, stranger)):
        created = await client.post("/api/v2/outreach/dispatches", json=body, headers=who.headers)
        jobs.append(created.json()["item"]["id"])
    async with running_worker(runtime):
        for job_id, who in zip(jobs, (owner, stranger), strict=True):
            await poll_job(client, who.headers, job_id, until=("succeeded",), timeout=30)
    await _sign_in(client, owner.key)
    page = await client.get("/console/outreach")
    assert page.status_code == 200
    assert "ada@prospect.example" in page.text and jobs[0] in page.text and "<td>sent" in page.text
    assert "grace@elsewhere.example" not in page.text and jobs[1] not in page.text
    narrow = await accounts.key(owner.user_id, scopes=["accounts:read"])
    await _sign_in(client, narrow.key)
    refused = await client.get("/console/outreach")
    assert refused.status_code == 403 and "ada@prospect.example" not in refused.text
