"""Opaque cursors round-trip, and refuse tampering and reuse with other filters."""

from __future__ import annotations

import pytest

from leadwire.platform.errors import ApiError
from leadwire.platform.pagination import CursorCodec, binding

CODEC = CursorCodec("test-secret")


def test_round_trip() -> None:
    bound = binding(target_kind="company", limit=20)
    cursor = CODEC.encode({"after": ["2026-11-22T08:00:00.000Z", "ws_1"]}, bound_to=bound)
    assert CODEC.decode(cursor, bound_to=binding(limit=20, target_kind="company")) == {
        "after": ["2026-11-22T08:00:00.000Z", "ws_1"]
    }


@pytest.mark.parametrize(
    "mangle",
    [
        lambda c: c[:-2] + ("AA" if not c.endswith("AA") else "BB"),
        lambda c: "x" + c,
        lambda c: c.split(".")[0],
        lambda c: "",
        lambda c: "a" * 5000,
        lambda c: "not base64!.zzz",
    ],
)
def test_modified_cursor_is_invalid_request(mangle) -> None:  # type: ignore[no-untyped-def]
    cursor = CODEC.encode({"after": 10}, bound_to="q")
    with pytest.raises(ApiError) as caught:
        CODEC.decode(mangle(cursor), bound_to="q")
    assert caught.value.code == "invalid_request" and caught.value.param == "cursor"


def test_cursor_of_another_query_or_instance_is_refused() -> None:
    cursor = CODEC.encode({"after": 10}, bound_to=binding(target_kind="company"))
    with pytest.raises(ApiError):
        CODEC.decode(cursor, bound_to=binding(target_kind="person"))
    with pytest.raises(ApiError):
        CursorCodec("other-secret").decode(cursor, bound_to=binding(target_kind="company"))


@pytest.mark.parametrize("cursor", ["a.é", "é.é", "😀.abc", "abc.\udcff"])
def test_a_cursor_that_is_not_ascii_is_refused_not_compared(cursor: str) -> None:
    with pytest.raises(ApiError) as caught:
        CursorCodec("secret").decode(cursor, bound_to="b")
    assert caught.value.code == "invalid_request" and caught.value.param == "cursor"
