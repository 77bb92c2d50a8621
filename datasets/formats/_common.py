"""Helpers the format modules share: class lists, rectangles, copying photos into an export."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from fanscan.datasets.formats.class_map import ClassMap
from fanscan.datasets.labels import Corners
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import CLASS_LABELS

SUPERCATEGORIES = {"m": "characters", "p": "dots", "s": "bamboo", "f": "flowers"}


def supercategory(code: str) -> str:
    """The family a class belongs to: characters, dots, bamboo, winds, dragons, flowers or back."""
    if code == "back":
        return "back"
    if code in ("E", "S", "W", "N"):
        return "winds"
    if code in ("C", "F", "P"):
        return "dragons"
    return SUPERCATEGORIES[code[-1]]


def rectangle(x_min: float, y_min: float, x_max: float, y_max: float) -> Corners:
    """The four corners of an axis-aligned box, clockwise from the top-left."""
    return ((x_min, y_min), (x_max, y_min), (x_max, y_max), (x_min, y_max))


def class_code(name: str, where: str) -> str:
    """``name`` as a tile code, or an error naming where the unknown class came from."""
    if name not in CLASS_LABELS:
        raise FanscanError(
            "bad_dataset",
            f"{where}: class {name!r} is not a tile code (1m-9m, 1p-9p, 1s-9s, E S W N C F P, "
            "1f-8f, back); a class map (fanscan import --map) names the codes of other classes",
        )
    return name


def coder(class_map: ClassMap | None = None) -> Callable[[str, str], str | None]:
    """How class names become tile codes: through ``class_map`` (a ``class_map.ClassMap``, None
    for a class it leaves out), or, without one, as tile codes themselves (``class_code``)."""
    return class_map.code if class_map is not None else class_code


def place_photo(source: Path, target: Path) -> None:
    """Put a copy of ``source`` at ``target``: a hard link where the file system allows it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        target.unlink()
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def refuse_name_clashes(written_as: dict[str, str], form: str) -> None:
    """Refuse, before anything is written, two photos a format would write under one name
    (``written_as``: each photo's name to the file it becomes: VOC flattens folders with ``__``
    and drops the suffix, YOLO names a label file by the photo's stem), one silently writing
    over the other's labels."""
    first_of: dict[str, str] = {}
    for image, name in written_as.items():
        if name in first_of:
            raise FanscanError("name_clash", f"{form}: {first_of[name]!r} and {image!r} would both be written "
                                             f"as {name!r}: rename one of the photos")
        first_of[name] = image


def read_text_file(path: Path) -> str:
    """A dataset's text file (UTF-8); one that cannot be read, or is no UTF-8 text, is named in a
    ``bad_dataset`` error."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise FanscanError("bad_dataset", f"{path}: not UTF-8 text (byte {error.object[error.start]:#04x} at "
                                          f"offset {error.start})") from None
    except OSError as error:
        raise FanscanError("bad_dataset", f"{path}: cannot be read ({error.strerror or error})") from None
