"""Atomic file writes: a reader (or a crash) sees the old file or the new one, never half of one."""

from __future__ import annotations

import contextlib
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
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp_name = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=f".tmp{target.suffix}", dir=target.parent
    )
    os.close(fd)
    temp = Path(temp_name)
    # mkstemp makes the file private (0600); give it the mode a plain open() would have.
    os.chmod(temp, _DEFAULT_FILE_MODE)
    try:
        yield temp
        with open(temp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(temp, target)
    finally:
        temp.unlink(missing_ok=True)


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
