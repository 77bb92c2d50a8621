"""The Host check against DNS rebinding: loopback names, the --host given, or any bare address
when listening on a wildcard; both local servers (`fanscan serve`, `fanscan label`) apply it."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("python_multipart")

from fanscan.web.hosts import HostGuard, HostPolicy, policy_for  # noqa: E402


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8000", "localhost:8000", "LOCALHOST.", "[::1]:8000", "127.9.9.9", "app.localhost:80"]
)
def test_hosts_loopback_names_are_always_answered(host: str) -> None:
    assert HostPolicy().allows(host)
    assert policy_for("192.168.1.5").allows(host)


@pytest.mark.parametrize(
    "host", ["evil.example:8000", "evil.example", "127.0.0.1.evil.example", "localhost.evil.example", ""]
)
def test_hosts_other_names_are_refused(host: str) -> None:
    assert not policy_for("127.0.0.1", "127.0.0.1").allows(host)
    assert not policy_for("0.0.0.0").allows(host)


def test_hosts_the_given_host_and_bound_address_are_answered() -> None:
    named = policy_for("mybox.lan", "192.168.1.5")
    assert named.allows("mybox.lan:8000") and named.allows("MyBox.LAN") and named.allows("192.168.1.5:8000")
    assert not named.allows("192.168.1.6:8000")
    assert policy_for("[fe80::1]").allows("[fe80:0::1]:8000")


def test_hosts_a_wildcard_listener_answers_any_bare_address() -> None:
    wildcard = policy_for("0.0.0.0", "0.0.0.0")
    assert wildcard.allows("192.168.1.5:8000") and wildcard.allows("[2001:db8::5]:8000")
    assert not wildcard.allows("phone-trap.example:8000")


def test_hosts_the_guard_refuses_with_a_json_400() -> None:
    from fastapi.testclient import TestClient

    from fanscan.web.app import create_app

    app = HostGuard(create_app(), policy_for("127.0.0.1", "127.0.0.1"))
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get("/api/tiles").status_code == 200
        refused = client.get("/api/tiles", headers={"host": "evil.example:8000"})
    assert refused.status_code == 400
    assert refused.json()["code"] == "bad_host"
    assert "'evil.example:8000'" in refused.json()["detail"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _raw_get(port: int, path: str, host: str) -> tuple[int, dict[str, Any]]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["serve", "label"])
def test_hosts_both_local_servers_refuse_a_rebinding_name(command: str, tmp_path: Path) -> None:
    import cv2

    cv2.imwrite(str(tmp_path / "a.png"), np.full((20, 20, 3), 90, np.uint8))
    port = _free_port()
    argv = ["serve"] if command == "serve" else ["label", str(tmp_path)]
    path = "/api/tiles" if command == "serve" else "/api/label/photos"
    process = subprocess.Popen(
        [sys.executable, "-m", "fanscan", *argv, "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                status, _ = _raw_get(port, path, f"127.0.0.1:{port}")
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.1)
        assert status == 200
        assert _raw_get(port, path, f"localhost:{port}")[0] == 200
        status, body = _raw_get(port, path, f"attacker.example:{port}")
        assert status == 400 and body["code"] == "bad_host"
    finally:
        process.terminate()
        process.wait(10)
