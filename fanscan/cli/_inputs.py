"""What the subcommands share about their inputs: ``-`` for standard input, folders of photos,
and output paths checked before any work is done."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from fanscan.errors import FanscanError
from fanscan.vision.source_bytes import MAX_FILE_BYTES

STDIN = "-"
"""The file name that means standard input (a photo's bytes, a hand's notation or JSON lines)."""
MAX_STDIN_BYTES = MAX_FILE_BYTES
"""The most of standard input read as one photo or hand: a photo file's limit (an endless stream
is refused, not read to the end of memory)."""
MAX_TEXT = 1024 * 1024
"""The longest notation or hand JSON read (characters): a hand's is a few hundred."""


def named(text: str) -> str:
    """An argparse type for a file or folder argument: any name but an empty one (``Path("")`` is
    the current folder, which a command must never read or serve unasked)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name is no file or folder")
    return text


def named_path(text: str) -> Path:
    """``named``, as a ``Path``."""
    return Path(named(text))


def stdin_bytes(what: str) -> bytes:
    """All of standard input, which must not be empty; ``what`` names it in the message."""
    if sys.stdin is None:  # started with standard input closed
        raise FanscanError("unreadable_image", f"standard input is closed (expected {what})")
    data = sys.stdin.buffer.read(MAX_STDIN_BYTES + 1)
    if not data:
        raise FanscanError("unreadable_image", f"standard input is empty (expected {what})")
    if len(data) > MAX_STDIN_BYTES:
        raise FanscanError("image_too_large", f"standard input is more than the {MAX_STDIN_BYTES // 1024 // 1024} MB "
                                              f"limit (expected {what})")
    return data


def stdin_text(what: str) -> str:
    """Standard input as text, stripped; an error when nothing is there."""
    if sys.stdin is None:
        raise FanscanError("bad_notation", f"standard input is closed (expected {what})")
    text = sys.stdin.read(MAX_TEXT + 1)
    if len(text) > MAX_TEXT:
        raise FanscanError("bad_notation", f"standard input is longer than {MAX_TEXT // 1024 // 1024} MB, "
                                           f"which no hand is (expected {what})")
    if not (text := text.strip()):
        raise FanscanError("bad_notation", f"standard input is empty (expected {what})")
    return text


def text_or_none(data: bytes) -> str | None:
    """Standard input's ``data`` as stripped text (a notation, a hand JSON), or None when it is
    binary or starts as an image does (a photo, perhaps cut short)."""
    from fanscan.image_signatures import image_format

    if b"\0" in data[:4096] or image_format(data) is not None:
        return None
    try:
        text = data.decode("utf-8-sig").strip()
    except UnicodeDecodeError:
        return None
    if len(text) > MAX_TEXT:
        raise FanscanError("bad_notation", f"standard input is text longer than {MAX_TEXT // 1024 // 1024} MB, "
                                           "which no hand's notation or JSON is, and no photo")
    return text


def is_folder(name: str) -> bool:
    """Whether ``name`` is a folder; False for a name the system cannot look up (too long, a NUL):
    a notation or a hand is no folder."""
    try:
        return Path(name).is_dir()
    except (OSError, ValueError):
        return False


def is_there(name: str) -> bool:
    """Whether something is at path ``name``; False for a name the system cannot look up."""
    try:
        return Path(name).exists()
    except (OSError, ValueError):
        return False


def photo_source(name: str) -> str | bytes:
    """A photo argument as ``read_photo`` takes it: the path, or the bytes for ``-``."""
    return stdin_bytes("a photo") if name == STDIN else name


def photo_names(arguments: list[str]) -> list[str]:
    """The photos the arguments name, a folder standing for the photos under it (sorted), in
    order; ``-`` at most once."""
    from fanscan.datasets.labels import find_photos

    if arguments.count(STDIN) > 1:
        raise FanscanError("bad_arguments", "standard input (-) can be read only once")
    names: list[str] = []
    for argument in arguments:
        if argument != STDIN and is_folder(argument):
            found = find_photos(argument, broken_links=True)  # a link to a photo gone is reported, not skipped
            if not found and len(arguments) == 1:
                raise FanscanError("not_found", f"the folder {argument} holds no photos")
            names += [str(path) for path in found] or [argument]  # among others: reported in its turn
        else:
            names.append(argument)
    return names


def check_image_out(path: str, option: str, inputs: Sequence[str] = ()) -> None:
    """Refuse, before any reading, an image output path fanscan could not write, or one that is
    any of the ``inputs`` (the photo read: a user's photo is never written over)."""
    target = Path(path)
    for name in inputs:
        if name != STDIN and _same_file(target, Path(name)):
            raise FanscanError("bad_path", f"{option} {path} is the photo read: write the annotated copy "
                                           "under another name")
    if target.suffix.lower() not in (".jpg", ".jpeg", ".png"):
        raise FanscanError("bad_path", f"{option} {path}: the name should end in .jpg or .png")
    folder = target.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise FanscanError("bad_path", f"{option} {path}: the folder {folder} {what}")
    if len(target.name.encode("utf-8", "surrogateescape")) > _longest_name(folder):
        raise FanscanError("bad_path", f"{option} {path[:60]}...: the file name is longer than the folder allows")
    if target.is_dir():
        raise FanscanError("bad_path", f"{option} {path} is a folder: name the picture's file")


def _longest_name(folder: Path) -> int:
    """The longest file name (bytes) the file system of ``folder`` takes (255 where it cannot say)."""
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (AttributeError, OSError, ValueError):
        return 255


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file (one that is there, through links too, or one path)."""
    try:
        if a.exists() and b.exists():
            return a.samefile(b)
        return a.resolve() == b.resolve()
    except (OSError, ValueError):
        return False
