"""Atomic writes: the old file survives a failed write, the new one replaces it on success."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from fanscan.atomic import atomic_path, write_text_atomic


def test_atomic_write_replaces_file(tmp_path: Path) -> None:
    target = tmp_path / "labels.json"
    target.write_text("old")
    write_text_atomic(target, "new")
    assert target.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["labels.json"]


def test_atomic_write_failure_keeps_old_file(tmp_path: Path) -> None:
    target = tmp_path / "labels.json"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_path(target) as temp:
        temp.write_text("half")
        raise RuntimeError("crash while writing")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["labels.json"]


def test_atomic_write_keeps_suffix_and_normal_mode(tmp_path: Path) -> None:
    with atomic_path(tmp_path / "out.jpg") as temp:
        assert temp.suffix == ".jpg"
        temp.write_bytes(b"x")
    umask = os.umask(0)
    os.umask(umask)
    mode = stat.S_IMODE((tmp_path / "out.jpg").stat().st_mode)
    assert mode == 0o666 & ~umask
