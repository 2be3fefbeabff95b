"""Helpers of the keys tests: a key created through the API, registered with the log guard like the
factory's keys (no log line may show it)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.support.accounts import TestAccount
from tests.support.envelope import assert_ok
from tests.support.log_secrets import register_key

KEYS = "/api/v2/keys"


def bearer(raw_key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw_key}"}


async def create(
    client: httpx.AsyncClient, owner: TestAccount, scopes: list[str], **fields: Any
) -> dict[str, Any]:
    """POST /api/v2/keys as `owner`: the 201 item, its `key` registered as a secret."""
    created: dict[str, Any] = assert_ok(
        await client.post(KEYS, json={"scopes": scopes, **fields}, headers=owner.headers), 201
    )["item"]
    register_key(created["key"], f"API key {created['id']} (created through the API)")
    return created
