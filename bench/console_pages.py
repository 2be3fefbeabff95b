"""The console's pages: their weight, and the server's time for each beside the JSON route it renders.

`leadwire api` (1 process, SQLite) with one account: 3 connected accounts, 40 dispatches queued. Signed
in through the form as a browser would. For each page:
- **weight**: the HTML plus every file it loads (the style sheet; there is no script), uncompressed;
  the issue's target is under 100 KB;
- **time**: p50 of `--requests` (200) requests, one at a time on loopback, beside the p50 of the JSON
  route with the same data in the same run (ratio = page ÷ JSON): the overview beside
  `GET /api/v2/outreach/queue` (its largest part), the jobs page beside `GET /api/v2/jobs?limit=25`.

    .venv/bin/python bench/console_pages.py [--requests 200]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import tempfile
from pathlib import Path

import httpx

import _support as bs

EMAIL = {
    "channel": "email",
    "action": "outreach",
    "recipient": {"address": "jane@acme.example"},
    "content": {"subject": "Hello", "text": "A short plain-text note."},
}


async def _account(database_url: str) -> tuple[str, list[str]]:
    from leadwire.channels import connected
    from leadwire.platform.db import make_engine, make_sessionmaker, transaction

    user_id, issued = await bs.create_account(database_url, plan="business", keys=1, credits=5000)
    engine = make_engine(database_url)
    ids = []
    try:
        async with transaction(make_sessionmaker(engine)) as session:
            for channel in ("email", "linkedin", "whatsapp"):
                account = await connected.add_account(
                    session, user_id=user_id, channel=channel, provider="sandbox",
                    display_name=f"bench {channel}", identifier=f"{channel}-bench",
                )  # fmt: skip
                ids.append(account.id)
    finally:
        await engine.dispose()
    return issued[0][1], ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="leadwire-console-") as raw:
        tmp = Path(raw)
        env = bs.leadwire_env(tmp / "data", plugins="bench.plugins.unlimited")
        bs.run_checked(bs.leadwire_cmd("migrate"), env)
        from leadwire.config import Settings

        database_url = Settings(data_dir=tmp / "data").resolved_database_url
        key, (mailbox, *_) = asyncio.run(_account(database_url))
        port = str(bs.free_port())
        base = f"http://127.0.0.1:{port}"
        auth = {"Authorization": f"Bearer {key}"}
        with bs.running(bs.leadwire_cmd("api", "--port", port), env, tmp / "api.log") as server:
            bs.wait_http_ok(f"{base}/readyz", server, timeout=120.0)
            with httpx.Client(base_url=base, timeout=30.0) as client:
                for _ in range(40):
                    client.post(
                        "/api/v2/outreach/dispatches", json={**EMAIL, "account_id": mailbox}, headers=auth
                    )
                form = client.get("/console/sign-in")
                csrf = re.search(r'name="csrf" value="([^"]*)"', form.text)
                assert csrf is not None
                signed = client.post("/console/sign-in", data={"api_key": key, "csrf": csrf.group(1)})
                assert signed.status_code == 303, signed.text
                style = len(client.get("/console/static/console.css").content)
                pages = {
                    "sign_in": (form.text, None),
                    "overview": (client.get("/console").text, "/api/v2/outreach/queue"),
                    "jobs": (client.get("/console/jobs").text, "/api/v2/jobs?limit=25"),
                }
                for name, (html, _) in pages.items():
                    weight = (len(html.encode()) + style) / 1024
                    bs.emit(
                        f"console_page_weight_{name}", weight, "KB", "HTML + CSS, no script; target < 100 KB"
                    )
                for name, (_, json_route) in pages.items():
                    if json_route is None:
                        continue
                    path = "/console" if name == "overview" else "/console/jobs"
                    bs.p50_ms(client, path, 20)  # warm-up
                    page = bs.p50_ms(client, path, args.requests)
                    data = bs.p50_ms(client, json_route, args.requests, headers=auth)
                    bs.emit_triple(
                        f"console_page_p50_{name}", page, data, "ms",
                        ratio=bs.safe_ratio(page, data),
                        target=f"baseline: GET {json_route} on the same server, same data, same run",
                    )  # fmt: skip


if __name__ == "__main__":
    main()
