"""Opaque REST pagination cursors: signed, and bound to the query that produced them.

A cursor is `base64url(json) + "." + base64url(hmac)`, keyed by the instance secret. A caller passes it
back unchanged; a modified cursor, or one used with other filters than its own, is 400 `invalid_request`
(param `cursor`) rather than a silently wrong page.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import orjson
from sqlalchemy import tuple_

from leadwire.platform.errors import ApiError
from leadwire.platform.validation import int_param

if TYPE_CHECKING:
    from sqlalchemy import Select
    from sqlalchemy.ext.asyncio import AsyncSession

MAX_CURSOR_LENGTH = 2048


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(secret: str, body: str) -> str:
    return _b64(hmac.new(secret.encode(), body.encode(), hashlib.sha256).digest()[:16])


class CursorCodec:
    def __init__(self, secret: str) -> None:
        self._secret = secret

    @classmethod
    def for_instance(cls, secret_key: str) -> CursorCodec:
        """The codec of every list page of an instance (REST and MCP alike), keyed by its secret."""
        return cls("cursor:" + secret_key)

    def encode(self, position: dict[str, Any], *, bound_to: str) -> str:
        """A cursor resuming after `position`, valid only for queries whose binding is `bound_to`."""
        body = _b64(orjson.dumps({"p": position, "b": bound_to}, option=orjson.OPT_SORT_KEYS))
        return f"{body}.{_mac(self._secret, body)}"

    def decode(self, cursor: str, *, bound_to: str) -> dict[str, Any]:
        body, dot, mac = cursor.partition(".")
        # Compared as bytes: a cursor is ASCII, and one that is not (a hand-edited one) is refused,
        # never handed to compare_digest as text it cannot take.
        if (
            not dot
            or len(cursor) > MAX_CURSOR_LENGTH
            or not cursor.isascii()
            or not hmac.compare_digest(mac.encode(), _mac(self._secret, body).encode())
        ):
            raise ApiError("invalid_request", param="cursor", detail="pass next_cursor back unchanged")
        data = orjson.loads(_unb64(body))
        if data.get("b") != bound_to:
            raise ApiError("invalid_request", param="cursor", detail="the cursor belongs to another query")
        position: dict[str, Any] = data["p"]
        return position


def page(items: Sequence[Any], next_cursor: str | None) -> dict[str, Any]:
    """One page of a cursor-paged list, as every face returns it: `has_more` while there is a next cursor."""
    return {"items": list(items), "next_cursor": next_cursor, "has_more": next_cursor is not None}


def binding(**filters: Any) -> str:
    """A stable string of the filters a cursor is valid for."""
    return orjson.dumps(filters, option=orjson.OPT_SORT_KEYS).decode()


def int_query(value: str | None, param: str, default: int, low: int, high: int) -> int:
    """A whole-number query parameter (a page's `limit`): `default` when absent, 400 outside low-high."""
    return default if value is None else int_param(value, param, low=low, high=high)


async def newest_first(
    session: AsyncSession,
    codec: CursorCodec,
    statement: Select[Any],
    id_column: Any,
    *,
    limit: int,
    cursor: str | None,
    bound_to: str,
) -> tuple[list[Any], str | None]:
    """A page of `statement`'s rows, newest first by `id_column` (ids sort by creation time), and the
    cursor that resumes after its last row (None on the last page)."""
    if cursor is not None:
        statement = statement.where(id_column < str(codec.decode(cursor, bound_to=bound_to).get("id", "")))
    rows = list((await session.execute(statement.order_by(id_column.desc()).limit(limit + 1))).scalars())
    page = rows[:limit]
    more = len(rows) > limit
    return page, codec.encode({"id": page[-1].id}, bound_to=bound_to) if more else None


async def newest_first_by_time(
    session: AsyncSession,
    codec: CursorCodec,
    statement: Select[Any],
    time_column: Any,
    id_column: Any,
    *,
    limit: int,
    cursor: str | None,
    bound_to: str,
) -> tuple[list[Any], str | None]:
    """A page of `statement`'s rows, newest first by (`time_column`, `id_column`): the time each row
    records, rows written with the same time in id order. The cursor resumes after the page's last row
    (None on the last page); the pair never changes and never repeats, so pages have no duplicates or
    gaps."""
    if cursor is not None:
        position = codec.decode(cursor, bound_to=bound_to)
        try:
            after = (datetime.fromisoformat(position["at"]), str(position["id"]))
        except (KeyError, TypeError, ValueError):  # signed, but written by another list
            raise ApiError("invalid_request", param="cursor", detail="a cursor of another list") from None
        statement = statement.where(tuple_(time_column, id_column) < after)
    ordered = statement.order_by(time_column.desc(), id_column.desc()).limit(limit + 1)
    rows = list((await session.execute(ordered)).scalars())
    page, more = rows[:limit], len(rows) > limit
    if not more:
        return page, None
    last = page[-1]
    position = {"at": getattr(last, time_column.key).isoformat(), "id": getattr(last, id_column.key)}
    return page, codec.encode(position, bound_to=bound_to)
