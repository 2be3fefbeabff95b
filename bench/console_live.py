"""The console in a browser on the default world, as `make serve` runs it (one `leadwire serve`
process: SQLite, the in-process worker, the sandbox providers):

- **time from sign-in to a first prospect-list item on screen**: headless Chromium (Debian's, through
  Playwright's `executable_path`) submits the sign-in form, opens Lists, submits "software companies"
  (25) and waits until the first item is in the page, filled by the live stream without a reload.
  Beside it, in the same run and on the same server, the floor a program gets from the API alone:
  `POST /api/v2/websets` then the items stream from the creation's snapshot until its first
  `items.changed` carrying an item. Median of `--runs` (3) each, alternating.
- **server time** of the pages that render a JSON route's data, p50 of `--requests` (100) one at a
  time, beside that route in the same run: a list's page (its detail, strategy, and 25 items at full
  detail with their evidence) beside `GET .../items?detail=full&limit=10` (the most the API gives at
  full detail a page) and beside `detail=standard&limit=25`; the credits page beside the ledger (50);
  the keys page beside `GET /api/v2/keys`.
- **page weight** of every console page once that list and one job of each research and customs kind
  exist: the HTML plus the files it loads (style sheet, and the 1 KB script on a list's page),
  uncompressed; the issue's target is under 100 KB.

The world is built once into `--data-dir` (default var/bench-console/data; about 2 minutes) and reused.

    .venv/bin/python bench/console_live.py [--runs 3] [--data-dir var/bench-console/data]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import statistics
import time
from pathlib import Path

import httpx

import _support as bs

QUERY = "software companies"


def _world(data_dir: Path) -> None:
    if (data_dir / "world" / "search_index.json").exists():
        return
    build = bs.leadwire_cmd("sandbox", "build", "--data-dir", str(data_dir), "--no-progress")
    bs.run_checked(build, bs.child_env(), timeout=1200)


def _first_item_by_api(base: str, key: str) -> float:
    """Seconds from the creation request to the first item on the list's stream."""
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=base, timeout=120.0, headers=headers) as client:
        started = time.perf_counter()
        created = client.post("/api/v2/websets", json={"query": QUERY, "count": 25})
        webset_id = created.json()["item"]["webset"]["id"]
        snapshot = client.get(f"/api/v2/websets/{webset_id}/items").json()
        params = {"stream_cursor": snapshot["stream_cursor"], "items_revision": snapshot["items_revision"]}
        with client.stream("GET", f"/api/v2/websets/{webset_id}/items/stream", params=params) as stream:
            event = None
            for line in stream.iter_lines():
                if line.startswith("event:"):
                    event = line.split(":", 1)[1].strip()
                elif (
                    line.startswith("data:")
                    and event == "items.changed"
                    and json.loads(line.split(":", 1)[1])["items"]
                ):
                    return time.perf_counter() - started
    raise RuntimeError("the stream ended without an item")


async def _first_item_on_screen(base: str, key: str, chromium: str) -> tuple[float, float]:
    """Seconds from submitting the sign-in form to the first item in the list's page, and from pressing
    Create to it (what a person waits for: the rest is the browser automation's clicking and typing,
    which a person does at their own pace)."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = await browser.new_page()
            await page.goto(f"{base}/console/sign-in")
            await page.fill("#api_key", key)
            started = time.perf_counter()
            await page.click("button[type=submit]")
            await page.wait_for_url(f"{base}/console")
            await page.click("nav >> text=Lists")
            await page.fill("#query", QUERY)
            pressed = time.perf_counter()
            await page.click("form[action='/console/websets'] button[type=submit]")
            await page.wait_for_selector("li.item", timeout=120_000)
            done = time.perf_counter()
            return done - started, done - pressed
        finally:
            await browser.close()


def _server_times(base: str, key: str, count: int) -> None:
    """Each page's p50 beside the JSON route with its data, signed in through the form."""
    auth = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=base, timeout=120.0) as client:
        form = client.get("/console/sign-in")
        csrf = re.search(r'name="csrf" value="([^"]*)"', form.text)
        assert csrf is not None
        client.post("/console/sign-in", data={"api_key": key, "csrf": csrf.group(1)})
        webset = re.search(r'href="/console/websets/(ws_\w+)"', client.get("/console/websets").text)
        assert webset is not None
        items = f"/api/v2/websets/{webset.group(1)}/items"
        pairs = (
            ("list_25_items", f"/console/websets/{webset.group(1)}", f"{items}?detail=full&limit=10"),
            (
                "list_25_items_vs_standard",
                f"/console/websets/{webset.group(1)}",
                f"{items}?detail=standard&limit=25",
            ),
            ("credits", "/console/credits", "/api/v2/credits/ledger?limit=50"),
            ("keys", "/console/keys", "/api/v2/keys"),
        )
        for name, page_path, json_path in pairs:
            bs.p50_ms(client, page_path, 10)  # warm-up
            bs.p50_ms(client, json_path, 10, auth)
            page = bs.p50_ms(client, page_path, count)
            data = bs.p50_ms(client, json_path, count, auth)
            bs.emit_triple(
                f"console_page_p50_{name}", page, data, "ms", ratio=bs.safe_ratio(page, data),
                target=f"baseline: GET {json_path} on the same server, same run",
            )  # fmt: skip


def _weights(base: str, key: str) -> dict[str, float]:
    """KB of each console page with what it loads, signed in through the form."""
    with httpx.Client(base_url=base, timeout=120.0, follow_redirects=False) as client:
        form = client.get("/console/sign-in")
        csrf = re.search(r'name="csrf" value="([^"]*)"', form.text)
        assert csrf is not None
        client.post("/console/sign-in", data={"api_key": key, "csrf": csrf.group(1)})
        token = re.search(r'name="csrf" value="([^"]*)"', client.get("/console").text)
        assert token is not None
        jobs = {}
        for path, fields in (
            ("/console/research/contacts", {"domain": _a_domain(client)}),
            ("/console/research/public-web", {"queries": QUERY, "search_limit": "10"}),
        ):
            made = client.post(path, data={"csrf": token.group(1), **fields})
            jobs[path.rsplit("/", 1)[1]] = made.headers["location"]
        lists = client.get("/console/websets").text
        first_list = re.search(r'href="(/console/websets/ws_\w+)"', lists)
        assert first_list is not None
        paths = {
            "sign_in": "/console/sign-in",
            "overview": "/console",
            "outreach": "/console/outreach",
            "jobs": "/console/jobs",
            "lists": "/console/websets",
            "list_25_items": first_list.group(1),
            "research": "/console/research",
            "customs": "/console/customs",
            "job_contacts": jobs["contacts"],
            "job_public_web": jobs["public-web"],
            "credits": "/console/credits",
            "webhooks": "/console/webhooks",
        }
        assets = {
            src: len(client.get(src).content)
            for src in ("/console/static/console.css", "/console/static/console.js")
        }
        weights = {}
        for name, path in paths.items():
            html = client.get(path).text
            loaded = sum(size for src, size in assets.items() if f'"{src}"' in html)
            weights[name] = (len(html.encode()) + loaded) / 1024
        return weights


def _a_domain(client: httpx.Client) -> str:
    """A company domain of the list made above (its first item's website)."""
    lists = client.get("/console/websets").text
    first = re.search(r'href="(/console/websets/ws_\w+)"', lists)
    assert first is not None
    found = re.search(r"https?://([a-z0-9.-]+)", client.get(first.group(1)).text)
    return found.group(1) if found else "example.com"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--data-dir", type=Path, default=bs.REPO / "var" / "bench-console" / "data")
    args = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        bs.note("console_live skipped: Debian's chromium is not installed (apt-get install chromium)")
        return
    data_dir = args.data_dir.resolve()
    _world(data_dir)
    database = data_dir / f"console-bench-{int(time.time())}.db"
    env = bs.leadwire_env(data_dir, database_url=f"sqlite+aiosqlite:///{database}")
    bs.run_checked(bs.leadwire_cmd("migrate"), env)
    _, issued = asyncio.run(bs.create_account(env["LEADWIRE_DATABASE_URL"], keys=1, credits=100_000))
    key = issued[0][1]
    port = str(bs.free_port())
    base = f"http://127.0.0.1:{port}"
    try:
        serve = bs.leadwire_cmd("serve", "--port", port, "--no-build-world")
        with bs.running(serve, env, data_dir / "console-bench.log") as server:
            bs.wait_http_ok(f"{base}/readyz", server, timeout=120.0)
            _first_item_by_api(base, key)  # warm-up: the search index and the model load once
            from_sign_in, from_create, api = [], [], []
            for _ in range(args.runs):
                total, after_create = asyncio.run(_first_item_on_screen(base, key, chromium))
                from_sign_in.append(total)
                from_create.append(after_create)
                api.append(_first_item_by_api(base, key))
            floor = statistics.median(api)
            bs.emit(
                "console_first_item_from_sign_in_seconds", statistics.median(from_sign_in), "s",
                "sign-in submitted, Lists opened, the query typed and Create pressed by the browser driver",
            )  # fmt: skip
            on_screen = statistics.median(from_create)
            bs.emit_triple(
                "console_first_item_from_create_seconds", on_screen, floor, "s",
                ratio=bs.safe_ratio(on_screen, floor),
                target="Create pressed to the first item in the page; baseline: POST + the API's stream",
            )  # fmt: skip
            _server_times(base, key, args.requests)
            for name, weight in _weights(base, key).items():
                bs.emit(f"console_page_weight_{name}", weight, "KB", "HTML + CSS + JS; target < 100 KB")
    finally:
        database.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
