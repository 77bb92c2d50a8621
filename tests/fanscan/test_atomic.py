"""Atomic writes: the old file survives a failed write, the new one replaces it on success."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from fanscan.atomic import atomic_path, create_atomic, write_text_atomic


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


def test_atomic_write_syncs_the_folder_after_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "labels.json"
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        events.append("fsync folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "fsync file")
        real_fsync(fd)

    def replace(source: str | os.PathLike[str], destination: str | os.PathLike[str]) -> None:
        events.append("replace")
        real_replace(source, destination)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    write_text_atomic(target, "new")
    assert events == ["fsync file", "replace", "fsync folder"]
    assert target.read_text() == "new"


def test_atomic_write_saves_a_name_near_the_file_system_limit(tmp_path: Path) -> None:
    # 250 bytes: the target fits in the 255-byte limit, a temporary name of ".<name>.XXXXXXXX.tmp"
    # built from the whole name would not.
    target = tmp_path / ("t" * 236 + ".fanscan.json")
    assert len(target.name) == 249
    write_text_atomic(target, "long")
    assert target.read_text() == "long"
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


def test_atomic_temporary_name_is_hidden_and_short(tmp_path: Path) -> None:
    with atomic_path(tmp_path / ("é" * 120 + ".json")) as temp:
        assert temp.name.startswith(".é")
        assert temp.name.endswith(".tmp.json")
        assert len(temp.name.encode()) < 80
        temp.write_text("x")


def test_create_writes_a_new_file_whole_with_the_normal_mode(tmp_path: Path) -> None:
    target = tmp_path / "labels.json"
    create_atomic(target, b"first")
    assert target.read_bytes() == b"first"
    assert [p.name for p in tmp_path.iterdir()] == ["labels.json"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


def test_create_refuses_a_name_that_is_there_and_keeps_its_file(tmp_path: Path) -> None:
    target = tmp_path / "labels.json"
    create_atomic(target, b"first")
    with pytest.raises(FileExistsError):
        create_atomic(target, b"second")
    assert target.read_bytes() == b"first"
    assert [p.name for p in tmp_path.iterdir()] == ["labels.json"]  # no temporary file left


def test_create_from_many_threads_at_once_lets_exactly_one_win(tmp_path: Path) -> None:
    import threading

    target, start = tmp_path / "labels.json", threading.Barrier(8)
    outcomes: list[str] = []

    def create(number: int) -> None:
        start.wait()
        try:
            create_atomic(target, f"writer {number}".encode())
            outcomes.append(f"writer {number}")
        except FileExistsError:
            outcomes.append("refused")

    threads = [threading.Thread(target=create, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [o for o in outcomes if o != "refused"]
    assert len(winners) == 1 and target.read_text() == winners[0]


def test_atomic_write_onto_a_folder_names_the_folder_not_the_temporary_file(tmp_path: Path) -> None:
    (tmp_path / "out.json").mkdir()
    with pytest.raises(OSError) as failed:
        write_text_atomic(tmp_path / "out.json", "x")
    assert failed.value.filename == str(tmp_path / "out.json")
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]  # no temporary file left


def test_atomic_write_through_a_link_replaces_its_file_and_keeps_the_link(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    real = tmp_path / "data" / "labels.json"
    real.write_text("old")
    link = tmp_path / "labels.json"
    link.symlink_to(real)
    write_text_atomic(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new"
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == ["labels.json"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_atomic_write_refuses_to_replace_a_pipe_or_a_device_and_leaves_it(tmp_path: Path) -> None:
    # Renaming over a device node or a pipe would put a file in its place (as root, /dev/null).
    pipe = tmp_path / "out.json"
    os.mkfifo(pipe)
    with pytest.raises(OSError, match="not a regular file") as error:
        write_text_atomic(pipe, "new")
    assert error.value.filename == str(pipe)
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]
    with pytest.raises(OSError, match="not a regular file"):
        write_text_atomic("/dev/null", "new")
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)


def test_atomic_write_refuses_links_that_lead_round_in_a_circle(tmp_path: Path) -> None:
    (tmp_path / "a.json").symlink_to(tmp_path / "b.json")
    (tmp_path / "b.json").symlink_to(tmp_path / "a.json")
    with pytest.raises(OSError, match="circle"):
        write_text_atomic(tmp_path / "a.json", "new")
    assert (tmp_path / "a.json").is_symlink() and (tmp_path / "b.json").is_symlink()
