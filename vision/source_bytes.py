"""A photo's bytes from a path or from memory, read in a bounded amount: no file, pipe or device
(``/dev/zero``) is read past ``MAX_FILE_BYTES``, and no named pipe is waited on for ever
(``PIPE_WAIT_SECONDS``)."""

from __future__ import annotations

import errno
import os
import select
import stat
from pathlib import Path
from typing import BinaryIO

from fanscan.errors import FanscanError

MAX_FILE_BYTES = 200 * 1024 * 1024
"""Files larger than this are refused; a pipe or device (``st_size`` 0) is read no further."""
_MEGABYTE = 1024 * 1024
PIPE_WAIT_SECONDS = 10
"""A named pipe is waited on this long for its writer (one started beside the reader, or a
``<(...)`` of the shell, writes at once); nothing by then, and the photo is refused."""


def read_source(source: str | os.PathLike[str] | bytes) -> tuple[bytes, str]:
    """The file's bytes and a name for messages."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), "the image data"
    path = Path(source)
    name = str(path) if len(str(path)) <= 200 else f"{str(path)[:197]}..."
    name = name if name.isprintable() else repr(name)  # a NUL or a line break never reaches a message raw
    try:
        if path.is_dir():
            raise FanscanError("unreadable_image", f"{name} is a directory, not an image file")
        if not path.exists():
            raise FanscanError("not_found", f"no such file: {name}{why_missing(path)}")
    except (OSError, ValueError):  # a name too long for the system, or with a NUL byte in it
        raise FanscanError("not_found", f"no such file: {name}") from None
    too_large = FanscanError(
        "image_too_large", f"{name} is more than the {MAX_FILE_BYTES // _MEGABYTE} MB limit"
    )
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise too_large
        # The read itself is bounded: a pipe or a device such as /dev/zero has st_size 0.
        with _opened(path, name) as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise FanscanError("unreadable_image", f"cannot read {name}: {error.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise too_large
    return data, name


def _opened(path: Path, name: str) -> BinaryIO:
    """``path`` opened to read. A named pipe is opened without blocking, then waited on for at
    most ``PIPE_WAIT_SECONDS`` for something written into it (``open`` would wait for a writer
    for ever)."""
    if not stat.S_ISFIFO(path.stat().st_mode):
        return open(path, "rb")
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    waiting = select.poll()
    waiting.register(descriptor, select.POLLIN)
    if not waiting.poll(PIPE_WAIT_SECONDS * 1000):
        os.close(descriptor)
        raise FanscanError("unreadable_image", f"{name} is a pipe nothing was written into within "
                                               f"{PIPE_WAIT_SECONDS} s")
    os.set_blocking(descriptor, True)
    return os.fdopen(descriptor, "rb")


def why_missing(path: Path) -> str:
    """What a message adds about a path that is not there: a link to a file gone, links that lead
    round in a circle, or nothing."""
    try:
        if not path.is_symlink():
            return ""
        os.stat(path)
    except OSError as error:
        return " (links that lead round in a circle)" if error.errno == errno.ELOOP else " (a link to a file that is not there)"
    return ""
