"""Assertions on the response envelopes (docs/api.md, Envelopes and request ids)."""

from __future__ import annotations

from typing import Any

import httpx


def assert_error(
    response: httpx.Response, status: int, code: str, *, param: str | None = None
) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.text)
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert body["ok"] is False
    error = body["error"]
    assert error["code"] == code, body
    assert error["message"] == code
    assert error["request_id"].startswith("req_")
    assert error["request_id"] == response.headers["x-request-id"]
    if param is not None:
        assert error.get("param") == param, body
    return body


def assert_ok(response: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.text)
    body = response.json()
    assert body["ok"] is True
    assert body["request_id"] == response.headers["x-request-id"]
    return body
