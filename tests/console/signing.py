"""Signing a test client into the console through its form, and reading a page's CSRF token."""

from __future__ import annotations

import re

import httpx

SIGN_IN = "/console/sign-in"


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]*)"', html)
    assert found, html
    return found.group(1)


async def sign_in(client: httpx.AsyncClient, key: str) -> httpx.Response:
    form = await client.get(SIGN_IN)
    assert form.status_code == 200 and form.headers["content-type"].startswith("text/html")
    return await client.post(SIGN_IN, data={"api_key": key, "csrf": csrf_of(form.text)})
