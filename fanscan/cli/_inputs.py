"""What the subcommands share about their inputs: ``-`` for standard input, folders of photos,
and output paths checked before any work is done."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fanscan.errors import FanscanError

STDIN = "-"
"""The file name that means standard input (a photo's bytes, a hand's notation or JSON lines)."""


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
    data = sys.stdin.buffer.read()
    if not data:
        raise FanscanError("unreadable_image", f"standard input is empty (expected {what})")
    return data


def stdin_text(what: str) -> str:
    """Standard input as text, stripped; an error when nothing is there."""
    if sys.stdin is None:
        raise FanscanError("bad_notation", f"standard input is closed (expected {what})")
    text = sys.stdin.read().strip()
    if not text:
        raise FanscanError("bad_notation", f"standard input is empty (expected {what})")
    return text


def text_or_none(data: bytes) -> str | None:
    """Standard input's ``data`` as stripped text (a notation, a hand JSON), or None when it is
    binary or starts as an image does (a photo, perhaps cut short)."""
    from fanscan.image_signatures import image_format

    if b"\0" in data[:4096] or image_format(data) is not None:
        return None
    try:
        return data.decode("utf-8-sig").strip()
    except UnicodeDecodeError:
        return None


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
        if argument != STDIN and Path(argument).is_dir():
            found = find_photos(argument)
            if not found:
                raise FanscanError("not_found", f"the folder {argument} holds no photos")
            names += [str(path) for path in found]
        else:
            names.append(argument)
    return names


def check_image_out(path: str, option: str) -> None:
    """Refuse, before any reading, an image output path fanscan could not write."""
    target = Path(path)
    if target.suffix.lower() not in (".jpg", ".jpeg", ".png"):
        raise FanscanError("bad_path", f"{option} {path}: the name should end in .jpg or .png")
    folder = target.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise FanscanError("bad_path", f"{option} {path}: the folder {folder} {what}")
