"""The HTTP server below the app, over real sockets on loopback: slow or silent clients get 408,
oversized headers 431, malformed framing 400 — each a JSON envelope, then the connection closes —
while ordinary and keep-alive requests are served."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn

from leadwire.config import Settings
from leadwire.platform.http.server import uvicorn_config
from tests.support.envelope import assert_error
from tests.support.processes import free_port


async def _hello(scope: dict, receive, send) -> None:  # type: ignore[no-untyped-def, type-arg]
    if scope["type"] != "http":
        return
    body = json.dumps({"ok": True, "path": scope["path"]}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


@pytest.fixture(scope="module")
def server_port() -> Iterator[int]:
    settings = Settings(header_timeout_seconds=0.5, max_header_bytes=4096, shutdown_grace_seconds=0)
    port = free_port()
    config = uvicorn_config(_hello, settings, host="127.0.0.1", port=port, lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    yield port
    server.should_exit = True
    thread.join(timeout=10)


@contextlib.contextmanager
def _connect(port: int) -> Iterator[socket.socket]:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    try:
        yield sock
    finally:
        sock.close()


def _read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:] if ": " in line)
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(lines[0].split()[1]), headers, body


def _closed(sock: socket.socket) -> bool:
    """True when the server closed the connection (EOF) within the socket's timeout."""
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


def _assert_envelope(status: int, headers: dict[str, str], body: bytes, expected: int, code: str) -> None:
    assert headers["content-type"] == "application/json"
    assert headers["connection"] == "close"
    assert_error(httpx.Response(status, headers=headers, content=body), expected, code)


def test_ordinary_and_keep_alive_requests_are_served(server_port: int) -> None:
    with _connect(server_port) as sock:
        for path in ("/one", "/two"):
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
            status, _, body = _read_response(sock)
            assert status == 200 and json.loads(body)["path"] == path


def test_headers_that_stall_get_408_and_the_connection_closes(server_port: int) -> None:
    with _connect(server_port) as sock:
        sock.sendall(b"GET /slow HTTP/1.1\r\nHost: loc")
        _assert_envelope(*_read_response(sock), 408, "request_timeout")
        assert _closed(sock)


def test_a_connection_that_sends_nothing_is_closed(server_port: int) -> None:
    with _connect(server_port) as sock:
        status, headers, body = _read_response(sock)
        _assert_envelope(status, headers, body, 408, "request_timeout")
        assert _closed(sock)


def test_a_second_request_that_stalls_on_a_kept_alive_connection_gets_408(server_port: int) -> None:
    with _connect(server_port) as sock:
        sock.sendall(b"GET /first HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert _read_response(sock)[0] == 200
        sock.sendall(b"GET /second HTTP/1.1\r\nHo")
        _assert_envelope(*_read_response(sock), 408, "request_timeout")


def test_oversized_headers_get_431(server_port: int) -> None:
    with _connect(server_port) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"a" * 8192 + b"\r\n\r\n")
        _assert_envelope(*_read_response(sock), 431, "request_header_fields_too_large")
        assert _closed(sock)


def test_a_long_request_line_counts_too(server_port: int) -> None:
    with _connect(server_port) as sock:
        sock.sendall(b"GET /" + b"a" * 8192 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n")
        _assert_envelope(*_read_response(sock), 431, "request_header_fields_too_large")


@pytest.mark.parametrize(
    "garbage",
    [
        b"GARBAGE\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nnope\r\n",
        b"GET / HTTP/1.1\r\nBad Header Line\r\n\r\n",
    ],
)
def test_malformed_framing_gets_a_400_envelope(server_port: int, garbage: bytes) -> None:
    with _connect(server_port) as sock:
        sock.sendall(garbage)
        _assert_envelope(*_read_response(sock), 400, "invalid_request")
        assert _closed(sock)
