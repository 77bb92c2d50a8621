"""``fanscan serve``: binds loopback by default, serves the app, refuses clearly."""

from __future__ import annotations

import json
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
    assert err == (f"fanscan: error: cannot listen on 127.0.0.1:{port}: Address already in use; "
                   "choose another with --port N\n")


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


def _start(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "fanscan", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def test_serve_beyond_localhost_prints_reachable_addresses_and_a_qr_code(tmp_path: Path) -> None:
    from fanscan.web.addresses import lan_addresses

    if not lan_addresses():
        pytest.skip("this machine has no network address besides loopback")
    port = _free_port()
    process = _start(["--host", "0.0.0.0", "--port", str(port), "--save-labelled", str(tmp_path)])
    lines: list[str] = []
    try:
        assert process.stdout is not None
        while not any("scan this for" in line for line in lines):
            line = process.stdout.readline()
            assert line, "".join(lines)
            lines.append(line)
        # the QR code follows its heading: rows of block characters
        qr = [process.stdout.readline() for _ in range(5)]
        urls = [line.strip() for line in lines if line.startswith("  http://")]
        assert urls, "".join(lines)
        for url in urls:
            host = url.split("//")[1].split(":")[0]
            assert not host.startswith("127.") and host != "0.0.0.0"
            deadline = time.monotonic() + 20
            while True:  # the printed address really serves the app
                try:
                    with urllib.request.urlopen(f"{url}api/config", timeout=2) as response:
                        assert response.status == 200
                        assert json.loads(response.read())["save_labelled"] is True
                        break
                except OSError:
                    if time.monotonic() > deadline or process.poll() is not None:
                        raise
                    time.sleep(0.1)
    finally:
        process.terminate()
        process.communicate(timeout=20)
    assert f"scan this for {urls[0]}" in "".join(lines)
    assert all(set(row.rstrip("\n")) <= set("█▀▄ \xa0") and len(row) > 20 for row in qr)


def test_open_urls_for_wildcard_and_named_hosts(monkeypatch: pytest.MonkeyPatch) -> None:
    from fanscan.web import addresses

    monkeypatch.setattr(addresses, "_route_address", lambda family, target: ["192.168.1.20"])
    monkeypatch.setattr(addresses, "_interface_addresses", lambda: ["127.0.0.1", "10.0.0.5", "169.254.3.3"])
    monkeypatch.setattr(addresses, "_hostname_addresses", lambda family: ["192.168.1.20", "127.0.1.1"])
    assert addresses.open_urls("0.0.0.0", 8000) == ["http://192.168.1.20:8000/", "http://10.0.0.5:8000/"]
    assert addresses.open_urls("192.168.1.20", 81, "/label") == ["http://192.168.1.20:81/label"]
    assert addresses.open_urls("fd00::2", 80) == ["http://[fd00::2]:80/"]
    monkeypatch.setattr(addresses, "_route_address", lambda family, target: [])
    monkeypatch.setattr(addresses, "_interface_addresses", lambda: ["127.0.0.1"])
    monkeypatch.setattr(addresses, "_hostname_addresses", lambda family: [])
    assert addresses.open_urls("0.0.0.0", 8000) == []


def test_serve_save_labelled_must_be_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "f.txt"
    afile.write_text("x")
    assert main(["serve", "--save-labelled", str(afile)]) == 2  # a usage error: the option's value
    assert "is not a folder" in capsys.readouterr().err


def test_serve_save_labelled_folder_is_made_or_refused_before_serving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from fanscan.cli.serve import check_writable_folder

    made = tmp_path / "new" / "kept"
    check_writable_folder(made, "--save-labelled")
    assert made.is_dir()
    assert main(["serve", "--save-labelled", "/proc/no-such-folder"]) == 2
    err = capsys.readouterr().err
    assert "cannot make the folder" in err and err.count("\n") == 1

