"""Atomic file writes: a reader (or a crash) sees the old file or the new one, never half of one.

The data is fsynced before the rename and the folder after it, so a write that returned survives a
power cut too (on POSIX; elsewhere the folder cannot be opened to sync it).
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success it replaces ``path``, else it is removed.

    The temporary file keeps ``path``'s suffix so that writers which pick a format by extension
    (cv2.imwrite, PIL) still work.
    """
    target = _replaceable(Path(path))
    temp = _temporary_beside(target)
    try:
        yield temp
        _synced(temp)
        try:
            os.replace(temp, target)
        except OSError as error:  # a folder of that name, say: name it, not the temporary file
            raise OSError(error.errno, error.strerror, str(target)) from None
        sync_folder(target.parent)
    finally:
        temp.unlink(missing_ok=True)


def _replaceable(target: Path) -> Path:
    """The file a write to ``target`` replaces: ``target``, or the file its links lead to (the link
    is kept; renaming over it would put a file in its place). Anything there that is no regular
    file (a device such as /dev/null, a named pipe, a folder) is refused, ``OSError``: renaming
    over it would replace it, which as root swaps a device node for a file."""
    if target.is_symlink():
        real = Path(os.path.realpath(target))
        if real.is_symlink():
            raise OSError(errno.ELOOP, "its links lead round in a circle", str(target))
        target = real
    if target.exists() and not target.is_file():
        what = "a folder" if target.is_dir() else "not a regular file (a device or a pipe)"
        raise OSError(errno.EEXIST, f"{what}, which writing there would replace", str(target))
    return target


def _temporary_beside(target: Path) -> Path:
    """An empty temporary file in ``target``'s folder (made if need be), keeping its suffix, with
    the mode a plain open() would give it (mkstemp makes it private, 0600)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd, temp_name = tempfile.mkstemp(
            prefix=_temp_prefix(target), suffix=f".tmp{_short_suffix(target)}", dir=target.parent
        )
    except OSError as error:  # name the file asked for, not the temporary one beside it
        raise OSError(error.errno, error.strerror, str(target)) from None
    os.close(fd)
    os.chmod(temp_name, _DEFAULT_FILE_MODE)
    return Path(temp_name)


def _synced(path: Path) -> None:
    with open(path, "rb+") as handle:
        os.fsync(handle.fileno())


TEMP_NAME_CHARS = 48
"""How much of the target's name the temporary file keeps: a name near the file system's limit
(255 bytes) must still leave room for the temporary name's dot, random part and ``.tmp``."""


def _temp_prefix(target: Path) -> str:
    name = target.name
    while len(name.encode("utf-8", "surrogateescape")) > TEMP_NAME_CHARS:
        name = name[:-1]
    return f".{name}."


def _short_suffix(target: Path) -> str:
    suffix = target.suffix
    return suffix if len(suffix.encode("utf-8", "surrogateescape")) <= 16 else ""


def sync_folder(folder: str | os.PathLike[str]) -> None:
    """fsync a folder, so that a rename in it is on disk (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # Windows: a folder cannot be opened, so there is nothing to sync
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems (and /proc-like ones) refuse fsync on a folder
    finally:
        os.close(fd)


def _read_umask() -> int:
    # os.umask can only be read by setting it; do it once, at import, before any threads exist.
    umask = os.umask(0)
    os.umask(umask)
    return umask


_DEFAULT_FILE_MODE = 0o666 & ~_read_umask()


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_path(path) as temp:
        temp.write_bytes(data)


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    write_bytes_atomic(path, text.encode("utf-8"))


def create_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` as a new file, whole or not at all; ``FileExistsError`` when
    ``path`` is there already, even when another process creates it at the same moment: the
    finished temporary file is hard-linked to the name, which fails on a name that exists (a
    test for the name, then a write, let two writers both pass and the last one win)."""
    target = Path(path)
    temp = _temporary_beside(target)
    try:
        temp.write_bytes(data)
        _synced(temp)
        os.link(temp, target)
        sync_folder(target.parent)
    finally:
        temp.unlink(missing_ok=True)
