"""A fake Leadwire server for the websets client tests: an `httpx.MockTransport` handler serving the
websets contract (envelopes, multi-page Items snapshots with a checkpoint per page, scripted SSE
connections that may drop mid-event, find-more with its Idempotency-Key rule). It records every
request, so a test can assert exactly what the client sent."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx

BASE = "http://leadwire.test"
KEY = "lw_live_test"
MATCH = {
    "qualified": {"full", "partial"},
    "full": {"full"},
    "partial": {"partial"},
    "rejected": {"rejected"},
    "verified": {"full", "partial", "rejected"},
}
PAGE_MAX = {"compact": 50, "standard": 25, "full": 10}
STRATEGY = {
    "webset_id": "ws_1",
    "webset_status": "verifying",
    "readiness": "ready",
    "criteria_ready": True,
    "strategy_ready": True,
    "criteria": [
        {
            "id": "crit_1",
            "description": "Ships freight in Europe",
            "type": "business_fit",
            "weight": 0.7,
            "required": True,
            "active": True,
        },
    ],
    "strategy": {
        "query_groups": [
            {
                "angle": "Freight forwarders",
                "rationale": "direct fit",
                "queries": [{"text": "freight forwarder Rotterdam", "user_location": "NL"}],
            },
        ],
        "additional_queries": [],
        "rounds": [],
    },
    "criteria_updated_at": "2026-01-01T00:00:00.000Z",
    "strategy_available_at": "2026-01-01T00:00:01.000Z",
    "strategy_updated_at": "2026-01-01T00:00:01.000Z",
}


def item(
    item_id: str,
    name: str,
    status: str,
    score: float,
    *,
    provisional: bool = True,
    industry: str = "Logistics",
) -> dict[str, Any]:
    """A compact company item."""
    return {
        "id": item_id,
        "target_kind": "company",
        "entity": {
            "name": name,
            "website": f"https://{name.lower().replace(' ', '-')}.example",
            "industry": industry,
        },
        "match": {"status": status, "score": score},
        "provisional": provisional,
    }


def sse(event_id: int | None, event: str, data: dict[str, Any], *, split: bool = False) -> str:
    """One SSE event; `split` writes the JSON over two `data:` lines (the client joins them)."""
    text = json.dumps(data)
    if split:
        cut = text.index(",") + 1
        lines = f"data: {text[:cut]}\ndata: {text[cut:]}\n"
    else:
        lines = f"data: {text}\n"
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\n{lines}\n"


PRELUDE = "retry: 5\n\n: ping\n\n"  # 5 ms reconnection delay, then a heartbeat comment


def changed(
    event_id: int, revision: int, items: list[dict[str, Any]], removed: list[str] | None = None, **extra: Any
) -> str:
    data = {
        "webset_id": "ws_1",
        "stream_cursor": event_id,
        "items_revision": revision,
        "webset_status": extra.get("status", "verifying"),
        "progress": extra.get("progress")
        or {
            "stage": "verifying",
            "goal": 25,
            "verified": event_id,
            "qualified": len(items),
            "full": 0,
            "stop_reason": None,
        },
        "items": items,
        "removed": removed or [],
    }
    return sse(event_id, "items.changed", data, split=extra.get("split", False))


def complete(event_id: int, revision: int, status: str = "completed") -> str:
    data = {"webset_status": status, "stream_cursor": event_id, "items_revision": revision}
    return sse(event_id, "complete", data)


@dataclass
class Snapshot:
    """What the Items endpoint serves: the items, `page_size` per page, and each page's checkpoint
    `(stream_cursor, items_revision)` (the last one repeats)."""

    items: list[dict[str, Any]]
    checkpoints: list[tuple[int, int]]
    page_size: int = 2
    status: str = "verifying"


@dataclass
class Conn:
    """One scripted stream connection: its SSE text, whether it breaks after it, and the snapshot the
    server holds once it has been served (how a reset's fresh state appears)."""

    body: str
    drop: bool = False
    then: Snapshot | None = None


class _Dropping(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A response body that breaks after `body`, as a lost connection."""

    def __init__(self, body: bytes) -> None:
        self.body = body

    def __iter__(self) -> Iterator[bytes]:
        yield self.body
        raise httpx.ReadError("connection lost")

    async def __aiter__(self) -> AsyncIterator[bytes]:
        yield self.body
        raise httpx.ReadError("connection lost")


@dataclass
class FakeWebsets:
    snapshot: Snapshot
    streams: list[Conn] = field(default_factory=list)
    find_more_failures: list[int] = field(default_factory=list)  # statuses answered before the 202
    busy: bool = False
    requests: list[httpx.Request] = field(default_factory=list)
    bodies: list[Any] = field(default_factory=list)

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    def sent(self, path_end: str) -> list[httpx.Request]:
        return [request for request in self.requests if request.url.path.endswith(path_end)]

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        self.bodies.append(json.loads(request.content) if request.content else None)
        if request.headers.get("authorization") != f"Bearer {KEY}":
            return error(401, "api_key_invalid")
        parts = request.url.path.removeprefix("/api/v2/").split("/")
        route = (request.method, parts[0], *parts[2:])
        handler = {
            ("POST", "websets"): self._create,
            ("GET", "websets"): self._list if len(parts) == 1 else self._get,
            ("GET", "websets", "strategy"): lambda _r: ok(item=STRATEGY),
            ("GET", "websets", "items"): self._items,
            ("GET", "websets", "items", "stream"): self._stream,
            ("GET", "websets", "find-more", "stream"): self._stream,
            ("POST", "websets", "find-more"): self._find_more,
        }.get(route)
        if handler is None or (len(parts) > 1 and parts[1] != "ws_1"):
            return error(404, "webset_not_found")
        return handler(request)

    def _create(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if not body.get("query"):
            return error(400, "webset_query_required")
        webset = {
            "id": "ws_1",
            "status": "generating_criteria",
            "count": body.get("count", 25),
            "target_kind": body.get("target_kind", "company"),
        }
        return ok(202, item={"webset": webset, "preparation_job": {"id": "job_prep", "status": "queued"}})

    def _list(self, request: httpx.Request) -> httpx.Response:
        record = self.webset()
        listed = {key: record[key] for key in ("id", "name", "query", "target_kind", "status", "progress")}
        return ok(
            items=[{**listed, "created_at": record["created_at"]}], next_cursor="ws-page-2", has_more=True
        )

    def _get(self, request: httpx.Request) -> httpx.Response:
        return ok(item=self.webset())

    def webset(self) -> dict[str, Any]:
        progress = {
            "stage": "verifying",
            "goal": 25,
            "verify_cap": 75,
            "verified": 4,
            "qualified": 2,
            "full": 1,
            "stop_reason": None,
            "updated_at": "2026-01-01T00:00:02.000Z",
        }
        return {
            "id": "ws_1",
            "name": "EU forwarders",
            "query": "freight forwarders in the EU",
            "target_kind": "company",
            "status": self.snapshot.status,
            "count": 25,
            "progress": progress,
            "criteria": STRATEGY["criteria"],
            "failure": None,
            "created_at": "2026-01-01T00:00:00.000Z",
            "started_at": "2026-01-01T00:00:00.500Z",
            "finished_at": None,
            "updated_at": "2026-01-01T00:00:02.000Z",
        }

    def _items(self, request: httpx.Request) -> httpx.Response:
        params = request.url.params
        detail, match = params.get("detail", "compact"), params.get("match", "qualified")
        limit = int(params.get("limit", "10"))
        if detail not in PAGE_MAX or match not in MATCH:
            return error(400, "invalid_request", param="detail" if detail not in PAGE_MAX else "match")
        if not 1 <= limit <= PAGE_MAX[detail]:
            return error(400, "invalid_request", param="limit")
        cursor = params.get("cursor")
        page = int(cursor.removeprefix("page-")) if cursor else 0
        size = min(limit, self.snapshot.page_size)
        shown = [it for it in self.snapshot.items if it["match"]["status"] in MATCH[match]]
        rows = shown[page * size : (page + 1) * size]
        more = (page + 1) * size < len(shown)
        points = self.snapshot.checkpoints
        stream_cursor, revision = points[min(page, len(points) - 1)]
        return ok(
            items=rows,
            detail=detail,
            next_cursor=f"page-{page + 1}" if more else None,
            has_more=more,
            webset_status=self.snapshot.status,
            items_revision=revision,
            stream_cursor=stream_cursor,
        )

    def _stream(self, request: httpx.Request) -> httpx.Response:
        if not self.streams:
            raise AssertionError(f"unexpected stream connection: {request.url}")
        conn = self.streams.pop(0)
        if conn.then is not None:
            self.snapshot = conn.then
        headers = {"content-type": "text/event-stream", "cache-control": "no-cache"}
        if conn.drop:
            return httpx.Response(200, headers=headers, stream=_Dropping(conn.body.encode()))
        return httpx.Response(200, headers=headers, content=conn.body.encode())

    def _find_more(self, request: httpx.Request) -> httpx.Response:
        if not request.headers.get("idempotency-key"):
            return error(400, "idempotency_key_required")
        if self.find_more_failures:
            return error(self.find_more_failures.pop(0), "task_unavailable", retry_after="0")
        if self.busy:
            return error(409, "webset_busy")
        job = {
            "id": "job_fm1",
            "action": "websets.find_more",
            "status": "queued",
            "progress": None,
            "resource": {"type": "webset", "id": "ws_1"},
            "scheduled_at": "2026-01-01T00:01:00.000Z",
            "started_at": None,
            "finished_at": None,
            "attempt_count": 0,
            "result": None,
            "error": None,
            "billing": {"status": "pending", "charged_credits": 0, "pending_units": 0},
        }
        return ok(202, item=job)


def ok(status: int = 200, **body: Any) -> httpx.Response:
    return httpx.Response(status, json={"ok": True, "request_id": "req_1", **body})


def error(
    status: int, code: str, *, param: str | None = None, retry_after: str | None = None
) -> httpx.Response:
    body = {"code": code, "message": code, "request_id": "req_1", **({"param": param} if param else {})}
    headers = {"retry-after": retry_after} if retry_after is not None else None
    return httpx.Response(status, json={"ok": False, "error": body}, headers=headers)
