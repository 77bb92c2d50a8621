"""``fanscan label``: pre-labelling from the command line, and the labelling page's server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from fanscan.cli import main
from fanscan.datasets.labels import load_labels

_READER = textwrap.dedent(
    """
    from pathlib import Path
    from types import SimpleNamespace as NS

    def read(path):
        if Path(path).name == "bad.png":
            raise ValueError("cannot make sense of it")
        box = [[2, 2], [20, 2], [20, 30], [2, 30]]
        tile = NS(code="9m", confidence=0.66, box=box, orientation=0, group=None)
        return NS(tiles=[tile], groups=[])
    """
)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    import cv2

    (tmp_path / "cli_fake_reader.py").write_text(_READER)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), *sys.path]))  # for workers
    photos = tmp_path / "photos"
    photos.mkdir()
    for name in ("one.png", "two.png"):
        cv2.imwrite(str(photos / name), np.full((40, 50, 3), 100, np.uint8))
    return photos


def test_label_prelabel_writes_labels_and_reports(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [
        "label",
        str(folder),
        "--prelabel",
        "--workers",
        "1",
        "--reader",
        "cli_fake_reader:read",
    ]
    assert main(args) == 0
    assert "labelled 2 photos, 0 already current, 0 failed" in capsys.readouterr().out
    assert load_labels(folder / "one.png.fanscan.json").tiles[0].code == "9m"
    assert main(args) == 0
    assert "labelled 0 photos, 2 already current" in capsys.readouterr().out


def test_label_prelabel_quiet_shows_no_progress(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["label", str(folder), "--prelabel", "--workers", "1", "--reader", "cli_fake_reader:read"]
    assert main([*args, "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    assert main([*args, "--force"]) == 0
    assert "pre-labelling" in capsys.readouterr().err  # the progress bar, without --quiet


def test_label_prelabel_names_failed_photos(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (folder / "bad.png").write_bytes((folder / "one.png").read_bytes())
    assert main(["label", str(folder), "--prelabel", "--reader", "cli_fake_reader:read"]) == 1
    captured = capsys.readouterr()
    assert "labelled 2 photos, 0 already current, 1 failed" in captured.out
    assert "bad.png: ValueError: cannot make sense of it" in captured.err


def test_label_missing_folder_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["label", str(tmp_path / "nowhere"), "--prelabel"]) == 1
    assert capsys.readouterr().err == f"fanscan: error: {tmp_path / 'nowhere'} is not a folder\n"


def test_label_batch_options_need_prelabel(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["label", str(folder), "--workers", "2"]) == 2
    assert "go with --prelabel" in capsys.readouterr().err
    assert main(["label", str(folder), "--quiet"]) == 2
    assert "--quiet" in capsys.readouterr().err


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.slow
def test_label_serves_the_labelling_page(folder: Path) -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "fanscan", "label", str(folder), "--port", str(port)],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        assert (
            process.stderr.readline()
            .strip()
            .endswith(f"at http://127.0.0.1:{port}/label (Ctrl+C to stop)")
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/api/label/photos", timeout=2
                ) as r:
                    listing = json.load(r)
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.1)
        assert [p["image"] for p in listing["photos"]] == ["one.png", "two.png"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/label", timeout=2) as r:
            assert b"/static/label/label.js" in r.read()
    finally:
        process.terminate()
        process.wait(10)
