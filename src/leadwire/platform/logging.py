"""JSON log lines: one object per line, with the request id on every line of a request."""

from __future__ import annotations

import logging
import sys
from typing import Any

import orjson

from leadwire.platform.request_context import request_id_var

_FIELDS = (
    "request_id", "method", "route", "status", "duration_ms", "attempts", "key_id", "job_id", "action",
)  # fmt: skip


class JsonFormatter(logging.Formatter):
    _cached: tuple[int, str] = (-1, "")  # (second, its text): one attribute, so threads never mix them

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": self._timestamp(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for name in _FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if "request_id" not in line and (rid := request_id_var.get()) is not None:
            line["request_id"] = rid
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return orjson.dumps(line).decode()

    def _timestamp(self, record: logging.LogRecord) -> str:
        """`formatTime` to the second, formatted once per second (an access line per request)."""
        second, stamp = self._cached
        if int(record.created) != second:
            stamp = self.formatTime(record, "%Y-%m-%dT%H:%M:%S")
            self._cached = (int(record.created), stamp)
        return stamp


def configure_logging(level: str = "info") -> None:
    # The JSON lines name no source line, thread or process: spare every record looking them up (the
    # optimisations the logging HOWTO lists; a job poll's access line cost more than its query).
    logging._srcfile = None
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    logging.getLogger("uvicorn.access").disabled = True
    pin_library_loggers()
    for name in ("uvicorn", "uvicorn.error"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True


def pin_library_loggers() -> None:
    """Library loggers that stay quiet whatever the level: some print what a request carried.

    aiosqlite logs every statement with its parameters at DEBUG (message bodies, queries); MCP logs
    a line per request besides our access log; alembic narrates every migration step.
    """
    for name, level in (("aiosqlite", logging.INFO), ("alembic", logging.WARNING), ("mcp", logging.WARNING)):
        logging.getLogger(name).setLevel(level)
