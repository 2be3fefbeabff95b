"""A number a caller sends as text — a list's `limit`, a stream's `Last-Event-ID`, `stream_cursor` and
`items_revision`, a console form's `count` or `limit` — is read by one rule, ASCII digits only:
`str.isdigit()` also accepts "²" (a 500 once `int()` refused it) and "١" or "１" (which `int()` read as
1). Each is 400 `invalid_request` naming the parameter on REST and a refusal in the console (SQLite and
PostgreSQL)."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from leadwire.platform.errors import ApiError
from leadwire.platform.jobs.wait import parse_prefer_wait
from leadwire.platform.runtime import Runtime
from leadwire.platform.validation import int_param, whole_number
from tests.console.signing import csrf_of, sign_in
from tests.support.accounts import AccountFactory
from tests.support.envelope import assert_error
from tests.support.fuzzing import PAGED_LISTS
from tests.websets.conftest import create_webset

# Each passes str.isdigit(); none is a number of ASCII digits.
NOT_ASCII_DIGITS = ["²", "١", "１", "٣٤", "12²", "߁", "𝟗"]


def _latin1(headers: dict[str, str]) -> dict[bytes, bytes]:
    """Headers as the server reads them, Latin-1: "²" is the one byte 0xb2 (httpx sends str as ASCII)."""
    return {name.encode("latin-1"): value.encode("latin-1") for name, value in headers.items()}


@pytest.mark.parametrize("text", [*NOT_ASCII_DIGITS, "", " 1", "1 ", "+1", "-1", "1_0", "0x1", "1e3", "1.0"])
def test_only_ascii_digits_are_a_whole_number(text: str) -> None:
    assert whole_number(text) is None
    with pytest.raises(ApiError) as refused:
        int_param(text, "limit")
    assert (refused.value.code, refused.value.param) == ("invalid_request", "limit")


def test_a_whole_number_is_its_digits_within_the_bound() -> None:
    assert [whole_number(t) for t in ("0", "7", "007", "9223372036854775807")] == [0, 7, 7, 2**63 - 1]
    assert whole_number("9223372036854775808") is None and whole_number("101", high=100) is None
    assert int_param("100", "limit", low=1, high=100) == 100
    with pytest.raises(ApiError):
        int_param("0", "limit", low=1, high=100)
    started = time.perf_counter()
    assert whole_number("9" * 100_000) is None  # measured by its length, never converted
    assert time.perf_counter() - started < 1


def test_a_prefer_wait_of_other_digits_is_ignored_as_malformed() -> None:
    assert [parse_prefer_wait(f"wait={t}") for t in ("²", "١", "１", "5")] == [None, None, None, 5]


async def test_every_list_refuses_a_limit_of_other_digits_naming_it(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    acct = await AccountFactory(runtime).create()
    for path in PAGED_LISTS:
        for text in ("²", "١", "１"):
            response = await client.get(path, params={"limit": text}, headers=acct.headers)
            assert_error(response, 400, "invalid_request", param="limit")
        assert (await client.get(path, params={"limit": "5"}, headers=acct.headers)).status_code in (200, 404)


async def test_a_stream_refuses_a_resume_point_of_other_digits_naming_where_it_came_from(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    acct = await AccountFactory(runtime).create()
    webset_id = (await create_webset(client, acct.headers, count=25))["webset"]["id"]
    path = f"/api/v2/websets/{webset_id}/items/stream"
    for text in ("²", "¹"):
        for params, headers, param in (
            ({}, {"Last-Event-ID": text}, "Last-Event-ID"),
            ({"stream_cursor": text}, {}, "stream_cursor"),
            ({"stream_cursor": "0", "items_revision": text}, {}, "items_revision"),
        ):
            # Bounded: a stream that opened would follow a list no worker builds.
            response = await asyncio.wait_for(
                client.get(path, params=params, headers=_latin1({**acct.headers, **headers})), 10
            )
            assert_error(response, 400, "invalid_request", param=param)


async def test_the_console_refuses_other_digits_in_its_forms_and_its_live_stream(
    client: httpx.AsyncClient, runtime: Runtime
) -> None:
    acct = await AccountFactory(runtime).create()
    webset_id = (await create_webset(client, acct.headers, count=25))["webset"]["id"]
    await sign_in(client, acct.key)
    lists = await client.get("/console/websets")
    csrf = csrf_of(lists.text)
    made = await client.post(
        "/console/websets", data={"csrf": csrf, "query": "software companies", "count": "²"}
    )
    assert made.status_code == 400 and "webset_count_invalid" in made.text
    more = await client.post(f"/console/websets/{webset_id}/find-more", data={"csrf": csrf, "count": "１"})
    assert more.status_code == 400 and "webset_count_invalid" in more.text
    research = await client.get("/console/research")
    contacts = await client.post(
        "/console/research/contacts",
        data={"csrf": csrf_of(research.text), "domain": "acme.example", "limit": "²"},
    )
    assert contacts.status_code == 400 and "invalid_request" in contacts.text
    live = f"/console/websets/{webset_id}/live"
    for params, headers in (
        ({"items_revision": "²", "stream_cursor": "0"}, {}),
        ({}, {"Last-Event-ID": "¹"}),
    ):
        response = await asyncio.wait_for(client.get(live, params=params, headers=_latin1(headers)), 10)
        assert response.status_code == 400
