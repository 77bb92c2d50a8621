"""The label file of one photo: ``<photo name>.fanscan.json`` beside the photo.

A label file records what is on the photo: every tile as four corners plus its code, how sure the
model was, who set it (``model`` or ``person``), the layout group it belongs to, and whether a
person has reviewed the photo. The format is documented in docs/labelling.md; ``parse_labels`` and
``format_labels`` are its only reader and writer, ``load_labels`` / ``save_labels`` add the file
(saved atomically, so a crash leaves the old file or the new one, never a broken one).

>>> tile = TileLabel("5p", ((10, 10), (40, 10), (40, 50), (10, 50)), 0.9, "model", 0)
>>> labels = PhotoLabels("a.jpg", 100, 80, (tile,), (LabelGroup("concealed"),))
>>> parse_labels(format_labels(labels)) == labels
True
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from fanscan.atomic import write_text_atomic
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.strict_json import finite_number

FORMAT = "fanscan-labels/1"
SUFFIX = ".fanscan.json"
PHOTO_EXTENSIONS = frozenset(
    {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff", ".gif", ".heic", ".heif"}
)

Source = Literal["model", "person"]
Status = Literal["unreviewed", "reviewed"]
Corners = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]

SOURCES: tuple[str, ...] = ("model", "person")
STATUSES: tuple[str, ...] = ("unreviewed", "reviewed")
GROUP_KINDS: tuple[str, ...] = ("concealed", "win", "chow", "pung", "kong", "flowers", "unknown")
MAX_PIXELS = 2**31 - 1
"""The widest or tallest photo a label file may name (beyond any image format's reach)."""
CORNER_REACH = 0.5
"""How far outside the photo a tile's corner may lie, as a share of the photo's width (x) or
height (y): a tile the photo's edge cuts is labelled whole, but a tile mostly beyond the edge
is not in the photo."""


@dataclass(frozen=True)
class TileLabel:
    """One tile: code, corners (clockwise from the face's top-left, image pixels) and provenance."""

    code: str
    corners: Corners
    confidence: float
    source: Source
    group: int | None = None

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """The axis-aligned box around the corners: (x_min, y_min, x_max, y_max)."""
        xs = [x for x, _ in self.corners]
        ys = [y for _, y in self.corners]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True)
class LabelGroup:
    """A layout group the tiles are in: the standing hand, one declared set, or the flowers."""

    kind: str
    concealed: bool = False


@dataclass(frozen=True)
class PhotoLabels:
    """Everything known about one photo's tiles. ``image`` is the photo's file name."""

    image: str
    width: int
    height: int
    tiles: tuple[TileLabel, ...] = ()
    groups: tuple[LabelGroup, ...] = ()
    status: Status = "unreviewed"
    reader: str = ""
    image_bytes: int | None = None
    edited: bool = False
    """A person changed the labels in the labelling tool (deleted a box, say, which marks no
    tile): ``label --prelabel`` never reads the photo again over them."""

    @property
    def min_confidence(self) -> float:
        """The lowest tile confidence (1.0 for a photo without tiles)."""
        return min((tile.confidence for tile in self.tiles), default=1.0)

    def reviewed(self) -> PhotoLabels:
        """The same labels, accepted by a person."""
        return replace(self, status="reviewed")


def label_path(photo: str | os.PathLike[str]) -> Path:
    """The label file that belongs to ``photo``."""
    path = Path(photo)
    return path.with_name(path.name + SUFFIX)


def is_photo(path: Path) -> bool:
    """A file the labelling tool treats as a photo (hidden and temporary files are not)."""
    return path.suffix.lower() in PHOTO_EXTENSIONS and not path.name.startswith(".")


def find_photos(directory: str | os.PathLike[str], broken_links: bool = False) -> list[Path]:
    """Every photo under ``directory`` (recursively, hidden folders skipped), sorted by path; with
    ``broken_links``, links named as photos whose target is gone too (to be reported, not skipped)."""
    root = Path(directory)
    if not root.is_dir():
        raise FanscanError("not_found", f"{root} is not a folder")
    photos = [
        path
        for path in root.rglob("*")
        if is_photo(path)
        and (path.is_file() or (broken_links and path.is_symlink() and not path.exists()))
        and not any(part.startswith(".") for part in path.relative_to(root).parts[:-1])
    ]
    return sorted(photos)


def _fail(name: str, message: str) -> FanscanError:
    return FanscanError("bad_labels", f"{name}: {message}")


def _number(value: Any, name: str, what: str) -> float:
    if not finite_number(value):
        raise _fail(name, f"{what} must be a finite number, not {_shown(value)}")
    return float(value)


def _shown(value: Any) -> str:
    """``value`` as a message shows it: a number of 400 digits cut short."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def _tile_from_json(obj: Any, index: int, group_count: int, name: str) -> TileLabel:
    where = f"tile {index + 1}"
    if not isinstance(obj, dict):
        raise _fail(name, f"{where} must be an object")
    unknown = set(obj) - {"code", "corners", "confidence", "source", "group"}
    if unknown:
        raise _fail(name, f"{where} has unknown field {min(unknown)!r}")
    code = obj.get("code")
    if code not in CLASS_LABELS:
        raise _fail(name, f"{where} has unknown code {code!r}")
    corners = obj.get("corners")
    if not isinstance(corners, list) or len(corners) != 4:
        raise _fail(name, f"{where} needs 4 corners as [[x, y], ...]")
    points = []
    for corner in corners:
        if not isinstance(corner, list) or len(corner) != 2:
            raise _fail(name, f"{where} has a corner that is not [x, y]: {corner!r}")
        points.append(
            (_number(corner[0], name, f"{where} x"), _number(corner[1], name, f"{where} y"))
        )
    confidence = _number(obj.get("confidence"), name, f"{where} confidence")
    if not 0.0 <= confidence <= 1.0:
        raise _fail(name, f"{where} confidence {confidence} is outside 0-1")
    source = obj.get("source")
    if source not in SOURCES:
        raise _fail(name, f"{where} source must be 'model' or 'person', not {source!r}")
    group = obj.get("group")
    if group is not None and (
        isinstance(group, bool) or not isinstance(group, int) or not 0 <= group < group_count
    ):
        raise _fail(name, f"{where} group {group!r} is not one of the {group_count} groups")
    return TileLabel(code, tuple(points), confidence, source, group)  # type: ignore[arg-type]


def _group_from_json(obj: Any, index: int, name: str) -> LabelGroup:
    if not isinstance(obj, dict) or obj.get("kind") not in GROUP_KINDS:
        raise _fail(name, f"group {index + 1} needs a kind, one of {', '.join(GROUP_KINDS)}")
    concealed = obj.get("concealed", False)
    if not isinstance(concealed, bool) or set(obj) - {"kind", "concealed"}:
        raise _fail(name, f"group {index + 1} may only have 'kind' and a boolean 'concealed'")
    return LabelGroup(obj["kind"], concealed)


def _pixels(value: Any, key: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_PIXELS:
        raise _fail(name, f"'{key}' must be a whole number of pixels from 1 to {MAX_PIXELS:,}, not {_shown(value)}")
    return value


def labels_from_json(obj: Any, name: str = "label file") -> PhotoLabels:
    """A ``PhotoLabels`` from the decoded JSON object; ``name`` is used in error messages."""
    if not isinstance(obj, dict):
        raise _fail(name, "a label file holds one JSON object")
    if obj.get("format") != FORMAT:
        raise _fail(name, f"'format' must be {FORMAT!r}, not {obj.get('format')!r}")
    known = {"format", "image", "width", "height", "status", "reader", "image_bytes", "edited", "groups"}
    unknown = set(obj) - known - {"tiles"}
    if unknown:
        raise _fail(name, f"unknown field {min(unknown)!r}")
    image = obj.get("image")
    if not isinstance(image, str) or not image:
        raise _fail(name, "'image' must name the photo")
    width, height = (_pixels(obj.get(key), key, name) for key in ("width", "height"))
    status = obj.get("status", "unreviewed")
    if status not in STATUSES:
        raise _fail(name, f"'status' must be 'unreviewed' or 'reviewed', not {status!r}")
    reader = obj.get("reader", "")
    image_bytes = obj.get("image_bytes")
    if not isinstance(reader, str) or not (image_bytes is None or (
            isinstance(image_bytes, int) and not isinstance(image_bytes, bool) and 0 <= image_bytes < 2**53)):
        raise _fail(name, "'reader' must be text and 'image_bytes' a whole number of bytes")
    edited = obj.get("edited", False)
    if not isinstance(edited, bool):
        raise _fail(name, "'edited' must be true or false")
    raw_groups = obj.get("groups", [])
    raw_tiles = obj.get("tiles", [])
    if not isinstance(raw_groups, list) or not isinstance(raw_tiles, list):
        raise _fail(name, "'groups' and 'tiles' must be lists")
    groups = tuple(_group_from_json(group, i, name) for i, group in enumerate(raw_groups))
    tiles = tuple(_tile_from_json(tile, i, len(groups), name) for i, tile in enumerate(raw_tiles))
    return PhotoLabels(image, width, height, tiles, groups, status, reader, image_bytes, edited)


def check_corners_reach(labels: PhotoLabels, name: str = "label file") -> None:
    """Refuse (``bad_labels``) labels with a corner further than ``CORNER_REACH`` off the photo.
    Checked on what comes in to be saved (the labelling page's saves, the referee's, ``fanscan
    import``'s), not on files read back: a file written before still loads, and a person can fix it."""
    width, height = labels.width, labels.height
    for index, tile in enumerate(labels.tiles):
        for x, y in tile.corners:
            if not (-CORNER_REACH * width <= x <= (1 + CORNER_REACH) * width
                    and -CORNER_REACH * height <= y <= (1 + CORNER_REACH) * height):
                raise _fail(name, f"tile {index + 1} has a corner at ({x:.6g}, {y:.6g}), outside the "
                                  f"{width} x {height} photo")


def quad_area(corners: Corners) -> float:
    """The area the four corners enclose, in square pixels (the shoelace formula)."""
    total = 0.0
    for (x1, y1), (x2, y2) in zip(corners, (*corners[1:], corners[0])):
        total += x1 * y2 - x2 * y1
    return abs(total) / 2


def check_tiles_enclose_area(labels: PhotoLabels, name: str = "label file") -> None:
    """Refuse (``bad_labels``) a tile whose corners enclose under a pixel (one spot, or four on a
    line: a click without a drag holds no tile, and exports as a box of no size). Checked on what
    comes in to be saved, as ``check_corners_reach`` is."""
    for index, tile in enumerate(labels.tiles):
        if quad_area(tile.corners) < 1.0:
            raise _fail(name, f"tile {index + 1}'s box encloses no area")


def labels_to_json(labels: PhotoLabels) -> dict[str, Any]:
    """The JSON object of a label file."""
    obj: dict[str, Any] = {
        "format": FORMAT,
        "image": labels.image,
        "width": labels.width,
        "height": labels.height,
        "status": labels.status,
        "reader": labels.reader,
    }
    if labels.image_bytes is not None:
        obj["image_bytes"] = labels.image_bytes
    if labels.edited:  # written only when true: a file no person edited is as before
        obj["edited"] = True
    obj["groups"] = [
        {"kind": group.kind, "concealed": group.concealed}
        if group.concealed
        else {"kind": group.kind}
        for group in labels.groups
    ]
    obj["tiles"] = [
        {
            "code": tile.code,
            "corners": [[x, y] for x, y in tile.corners],
            "confidence": tile.confidence,
            "source": tile.source,
            "group": tile.group,
        }
        for tile in labels.tiles
    ]
    return obj


def parse_labels(text: str, name: str = "label file") -> PhotoLabels:
    """Read a label file's text; a malformed one raises FanscanError ``bad_labels``."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as error:
        raise _fail(name, f"not valid JSON ({error.msg} at line {error.lineno})") from None
    except (RecursionError, ValueError):  # nested too deeply, or a number too long to convert
        raise _fail(name, "JSON nested too deeply, or a number too long") from None
    return labels_from_json(obj, name)


def format_labels(labels: PhotoLabels) -> str:
    """The text of a label file: one tile per line, so that diffs of reviewed files read well."""
    obj = labels_to_json(labels)
    tiles = obj.pop("tiles")
    head = json.dumps(obj, ensure_ascii=False)[:-1]
    lines = ",\n    ".join(json.dumps(tile, ensure_ascii=False) for tile in tiles)
    body = f"[\n    {lines}\n  ]" if tiles else "[]"
    return f'{head}, "tiles": {body}}}\n'


def load_labels(path: str | os.PathLike[str], name: str | None = None) -> PhotoLabels:
    """Read a label file; its messages call it ``name`` (by default its path: a server names it
    as its user knows it, not by the server's own path)."""
    path = Path(path)
    name = name or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FanscanError("not_found", f"no label file {name}") from None
    except UnicodeDecodeError:
        raise _fail(name, "cannot be read (it is not UTF-8 text)") from None
    except OSError as error:
        raise _fail(name, f"cannot be read ({error.strerror or error})") from None
    return parse_labels(text, name)


def save_labels(path: str | os.PathLike[str], labels: PhotoLabels) -> None:
    """Write a label file atomically."""
    write_text_atomic(path, format_labels(labels))


def load_folder(directory: str | os.PathLike[str]) -> list[PhotoLabels]:
    """The labels of every photo under ``directory`` that has a label file, sorted by path.

    ``image`` is the photo's path relative to ``directory`` (with ``/``), as the dataset formats
    name it.
    """
    root = Path(directory)
    found = []
    for photo in find_photos(root):
        path = label_path(photo)
        if path.is_file():
            labels = load_labels(path)
            found.append(replace(labels, image=photo.relative_to(root).as_posix()))
    return found


def save_in_folder(directory: str | os.PathLike[str], labels: PhotoLabels) -> Path:
    """Save ``labels`` (``image`` relative to ``directory``) beside its photo; the file written."""
    photo = Path(directory) / labels.image
    path = label_path(photo)
    save_labels(path, replace(labels, image=photo.name))
    return path
