"""A session-wide guard: no API key, message body or attachment the tests used appears in any log line.

A pytest plugin (registered from tests/conftest.py). A handler on the root logger keeps every log
record of the session as one line of text (message, traceback, extra fields); fixtures register the
secrets they hand out (`AccountFactory` every raw key, the `client` fixture every outreach body and
attachment it sends; tests call `register_secret`). At the end of the session the lines are searched
for every secret: a hit is printed (which secret, which logger, never the secret itself) and fails
the run. Records of the tests' own HTTP client (httpx, httpcore) are not the service's and are skipped.

Cheap by design: lines are kept as text, searched once at the end (a key by looking up the 32-char
windows of the long alphanumeric runs in a dict, a text by substring search); past `max_chars` the
buffer is searched at once and dropped, so memory stays bounded.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pytest

KEY_BODY = 32  # lw_live_ / lw_test_ + 32 base62 characters (platform/users.generate_raw_key)
MIN_SECRET = 16  # shorter texts ("Hello", "Plain body") would match innocent lines
# Filler such as "x" * 301 (a too-long body) says nothing secret and turns up in other tests' filler.
MIN_DISTINCT_CHARACTERS = 4
SKIPPED_LOGGERS = ("httpx", "httpcore")
_ALNUM_RUN = re.compile(rf"[0-9A-Za-z]{{{KEY_BODY},}}")
_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message", "asctime"}


@dataclass(frozen=True)
class Leak:
    label: str
    logger: str
    excerpt: str

    def __str__(self) -> str:
        return f"{self.label} in a line of logger {self.logger!r}: {self.excerpt}"


def render(record: logging.LogRecord) -> str:
    """Everything a formatter could write of a record: message, traceback, stack, extra fields."""
    parts = [record.name, record.getMessage()]
    if record.exc_info:
        parts.append(logging.Formatter().formatException(record.exc_info))
    if record.exc_text:
        parts.append(record.exc_text)
    if record.stack_info:
        parts.append(record.stack_info)
    parts.extend(f"{k}={v!r}" for k, v in record.__dict__.items() if k not in _STANDARD)
    return " ".join(parts).replace("\n", "\\n")


@dataclass
class SecretLog:
    """The registered secrets and the lines logged so far."""

    max_chars: int = 64 * 1024 * 1024
    max_line: int = 256 * 1024
    keys: dict[str, str] = field(default_factory=dict)  # key body -> label
    texts: dict[str, str] = field(default_factory=dict)  # text -> label
    lines: list[str] = field(default_factory=list)
    leaks: list[Leak] = field(default_factory=list)
    size: int = 0
    seen: int = 0

    def register_key(self, raw: str, label: str = "an API key") -> None:
        body = raw.rsplit("_", 1)[-1]
        if len(body) == KEY_BODY:
            self.keys[body] = label
        else:
            self.register_text(raw, label)

    def register_text(self, text: str, label: str = "a registered secret") -> None:
        if len(text) >= MIN_SECRET and len(set(text)) >= MIN_DISTINCT_CHARACTERS:
            self.texts.setdefault(text, label)

    def add(self, record: logging.LogRecord) -> None:
        if record.name.startswith(SKIPPED_LOGGERS):
            return
        try:
            line = render(record)[: self.max_line]
        except Exception:  # a record whose message cannot be formatted is logging's problem, not ours
            return
        self.seen += 1
        self.lines.append(line)
        self.size += len(line)
        if self.size > self.max_chars:
            self.flush()

    def flush(self) -> list[Leak]:
        """Search the buffered lines for every secret registered so far, then drop them."""
        found = self.check(self.lines)
        self.leaks.extend(found)
        self.lines, self.size = [], 0
        return found

    def check(self, lines: Iterable[str]) -> list[Leak]:
        found: list[Leak] = []
        for line in lines:
            for label in self._hits(line):
                logger = line.split(" ", 1)[0]
                found.append(Leak(label, logger, self._masked(line)[:300]))
        return found

    def _hits(self, line: str) -> list[str]:
        labels = []
        if self.keys:
            for run in _ALNUM_RUN.findall(line):
                for start in range(len(run) - KEY_BODY + 1):
                    label = self.keys.get(run[start : start + KEY_BODY])
                    if label is not None:
                        labels.append(label)
        labels.extend(label for text, label in self.texts.items() if text in line)
        return labels

    def _masked(self, line: str) -> str:
        for body in self.keys:
            line = line.replace(body, "<key>")
        for text in self.texts:
            line = line.replace(text, "<secret>")
        return line


class SecretLogHandler(logging.Handler):
    def __init__(self, log: SecretLog) -> None:
        super().__init__(level=logging.NOTSET)
        self.log = log

    def emit(self, record: logging.LogRecord) -> None:
        self.log.add(record)


REGISTRY = SecretLog()
HANDLER = SecretLogHandler(REGISTRY)


def register_key(raw: str, label: str = "an API key") -> None:
    REGISTRY.register_key(raw, label)


def register_secret(text: str, label: str = "a registered secret") -> None:
    """A message body, attachment or provider secret no log line may show (16 characters or more)."""
    REGISTRY.register_text(text, label)


def register_outreach_body(body: Any) -> None:
    """The message texts and attachment contents of an outreach request body, as the tests send it."""
    if not isinstance(body, dict) or not isinstance(body.get("content"), dict):
        return
    content = body["content"]
    for name in ("text", "html"):
        if isinstance(content.get(name), str):
            register_secret(content[name], f"an outreach message {name}")
    attachments = content.get("attachments")
    listed = [*(attachments if isinstance(attachments, list) else []), content.get("attachment")]
    for attachment in listed:
        if isinstance(attachment, dict) and isinstance(attachment.get("contentBase64"), str):
            register_secret(attachment["contentBase64"], "an outreach attachment")


def install() -> None:
    """Attach the handler to the root logger (again, if something replaced the root's handlers)."""
    root = logging.getLogger()
    if HANDLER not in root.handlers:
        root.addHandler(HANDLER)


def pytest_sessionstart(session: pytest.Session) -> None:
    install()
    # The service's own lines at the production default level (`LEADWIRE_LOG_LEVEL=info`): the access
    # log is INFO, and a guard that only saw warnings would miss it. Library loggers keep their levels.
    leadwire = logging.getLogger("leadwire")
    if leadwire.level == logging.NOTSET or leadwire.level > logging.INFO:
        leadwire.setLevel(logging.INFO)


def pytest_runtest_setup(item: pytest.Item) -> None:
    install()  # `configure_logging()` (the CLI's `serve`, `migrate`) replaces the root's handlers


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    logging.getLogger().removeHandler(HANDLER)
    REGISTRY.flush()
    leaks = REGISTRY.leaks
    if not leaks:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    title = f"log secrets: {len(leaks)} log line(s) carry a secret the tests registered"
    lines = [f"  {leak}" for leak in leaks[:50]]
    if reporter is not None:
        reporter.write_sep("=", title, red=True)
        for line in lines:
            reporter.write_line(line, red=True)
    else:
        print("\n".join([title, *lines]))
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
