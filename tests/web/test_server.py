"""The app behind a real uvicorn server on loopback: size limits on the wire, path safety, load."""

from __future__ import annotations

import contextlib
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("python_multipart")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from fanscan.errors import FanscanError  # noqa: E402
from fanscan.web.app import create_app  # noqa: E402
from fanscan.web.server import bind, is_loopback  # noqa: E402

SECRETS = ("def create_app", "[build-system]", "root:x:0:0", "fanscan.web.app")


@pytest.fixture
def server(fakes: Any, reader: Any, scorer: Any) -> Any:
    app = create_app(reader=reader, scorer=scorer, max_upload_bytes=256 * 1024)
    with fakes.live_server(app) as url:
        yield url


def _address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def _raw(url: str, request: bytes, timeout: float = 5.0) -> bytes:
    """Send raw bytes, return everything the server answers until it closes or goes quiet."""
    with socket.create_connection(_address(url), timeout=timeout) as sock:
        sock.sendall(request)
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
                if b"\r\n\r\n" in answer and answer.startswith(b"HTTP/1.1 4"):
                    break
        except TimeoutError:
            pass
        return answer


def test_server_refuses_declared_oversize_without_waiting_for_the_body(
    server: str, reader: Any
) -> None:
    request = (
        b"POST /api/read HTTP/1.1\r\nHost: localhost\r\n"
        b"Content-Type: multipart/form-data; boundary=x\r\n"
        b"Content-Length: 26214401\r\n\r\n"
    )  # 25 MB + 1 declared, not one byte sent
    started = time.monotonic()
    answer = _raw(server, request)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
    assert time.monotonic() - started < 4
    assert reader.calls == []


def test_server_refuses_streamed_oversize_as_it_arrives(server: str, reader: Any) -> None:
    head = (
        b"POST /api/read HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n"
        b"Content-Type: multipart/form-data; boundary=x\r\n\r\n"
    )
    part = b'--x\r\nContent-Disposition: form-data; name="photo"; filename="a.png"\r\n\r\n'
    chunk = b"\x89PNG\r\n\x1a\n" + b"\0" * 65528
    answer = b""
    with socket.create_connection(_address(server), timeout=5) as sock:
        # the server may close the connection before all of it is sent
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(head + b"%x\r\n%s\r\n" % (len(part), part))
            for _ in range(64):  # up to 4 MB, far past the 256 KB limit
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        with contextlib.suppress(ConnectionResetError, TimeoutError):
            answer = sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
    assert reader.calls == []


@pytest.mark.parametrize(
    "path",
    [
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/static/%2E%2E/%2E%2E/%2E%2E/pyproject.toml",
        "/static/..%2fapp.py",
        "/static/..%2F..%2F..%2Fpyproject.toml",
        "/static/%252e%252e/app.py",
        "/static/..\\app.py",
        "/static/..%5capp.py",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/static/label/../../app.py",
        "/static/app.js%00.py",
        "/tiles/..%2f..%2fapp.py",
        "/../../../etc/passwd",
        "/%2e%2e/%2e%2e/pyproject.toml",
    ],
)
def test_server_serves_nothing_outside_its_files(server: str, path: str) -> None:
    answer = _raw(
        server, f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode()
    )
    status = int(answer.split(b" ", 2)[1])
    assert status in (400, 404), (path, answer[:200])
    assert not any(secret.encode() in answer for secret in SECRETS)


def test_server_serves_many_concurrent_reads_without_errors(
    fakes: Any, scorer: Any, photo: bytes
) -> None:
    reader = fakes.Reader(delay=0.05)
    app = create_app(reader=reader, scorer=scorer, max_concurrent_reads=3)
    hand = {"concealed": ["1m"] * 2, "melds": [], "win_tile": "1m", "flowers": []}

    with fakes.live_server(app) as url, httpx.Client(base_url=url, timeout=30) as client:

        def read(i: int) -> tuple[int, int, int]:
            upload = photo + bytes(i)  # each upload a different length
            response = client.post("/api/read", files={"photo": ("p.png", upload, "image/png")})
            return response.status_code, response.json().get("bytes", -1), len(upload)

        def score(_i: int) -> int:
            return client.post("/api/score", json=hand).status_code

        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=24) as pool:
            reads = list(pool.map(read, range(48)))
            scores = list(pool.map(score, range(48)))
        elapsed = time.monotonic() - started

    assert all(status == 200 and got == sent for status, got, sent in reads)
    assert scores == [200] * 48
    assert len(reader.calls) == 48
    assert 1 < reader.most_in_flight <= 3  # concurrent, but bounded
    assert elapsed < 30


def test_server_bind_refuses_a_busy_port() -> None:
    first = bind("127.0.0.1", 0)
    try:
        port = first.getsockname()[1]
        with pytest.raises(FanscanError, match=f"cannot listen on 127.0.0.1:{port}"):
            bind("127.0.0.1", port)
    finally:
        first.close()


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.0.1", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("192.168.1.20", False),
        ("::", False),
        ("example.org", False),
    ],
)
def test_server_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


@pytest.mark.parametrize("path", ["/api/read", "/api/score"])
def test_server_gives_up_a_body_that_stops_arriving(fakes: Any, reader: Any, scorer: Any, path: str) -> None:
    """A client that declares a body, sends part of it and goes quiet is answered 408 and its
    connection closed: it holds no worker and no connection for ever."""
    app = create_app(reader=reader, scorer=scorer, upload_idle_seconds=0.5)
    kind, start = {
        "/api/read": ("multipart/form-data; boundary=x", b'--x\r\nContent-Disposition: form-data; name="photo"'),
        "/api/score": ("application/json", b'{"concealed": "'),
    }[path]
    request = (
        f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {kind}\r\nContent-Length: 1000\r\n\r\n"
    ).encode() + start
    with fakes.live_server(app) as url, socket.create_connection(_address(url), timeout=5) as sock:
        started = time.monotonic()
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):  # until the server closes the connection
            answer += chunk
        waited = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 408"), answer[:100]
    assert b'"code":"stalled_upload"' in answer.replace(b" ", b"")
    assert b"nothing arrived for 0.5 s" in answer
    assert 0.4 < waited < 4
    assert reader.calls == []


def test_server_closes_a_connection_it_answered_before_its_body_came(fakes: Any, reader: Any, scorer: Any) -> None:
    """An answer given without reading the body (here: a JSON body where a photo form is asked
    for) closes the connection, instead of waiting on the rest of a body that never comes."""
    app = create_app(reader=reader, scorer=scorer, upload_idle_seconds=60)
    request = (
        b"POST /api/read HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n{"
    )
    with fakes.live_server(app) as url, socket.create_connection(_address(url), timeout=5) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 422"), answer[:100]
    assert b"connection: close" in answer.lower()
