"""``fanscan serve``: binds loopback by default, serves the app, refuses clearly."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from fanscan.cli import main

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _listening_addresses(port: int) -> set[str] | None:
    """The local IPv4 addresses (hex, as /proc shows them) listening on ``port``; None off Linux."""
    try:
        lines = Path("/proc/net/tcp").read_text().splitlines()[1:]
    except OSError:
        return None
    listen = "0A"
    entries = (line.split() for line in lines)
    return {
        local.split(":")[0]
        for _, local, _, state, *_ in entries
        if state == listen and local.endswith(f":{port:04X}")
    }


def test_serve_serves_the_app_on_loopback_by_default() -> None:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "fanscan", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tiles", timeout=2) as r:
                    assert r.status == 200
                    break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.1)
        assert _listening_addresses(port) in ({"0100007F"}, None)  # 127.0.0.1 only
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=20)
    assert f"http://127.0.0.1:{port}/" in output
    assert "Traceback" not in output


def test_serve_busy_port_is_one_line_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
    err = capsys.readouterr().err
    assert err == f"fanscan: error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_serve_without_web_extra_names_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "pip install 'fanscan[web]'" in err


@pytest.mark.parametrize("port", ["0", "70000", "http"])
def test_serve_bad_port_is_a_usage_error(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--port", port])
    assert exit_info.value.code == 2
    assert "--port" in capsys.readouterr().err
