"""YOLO detection datasets: ``data.yaml`` naming the classes, ``images/``, and ``labels/*.txt``.

Each photo ``images/<path>`` has ``labels/<path without suffix>.txt`` with one line per tile:
``class cx cy w h`` (the axis-aligned box, normalised to 0-1 by the photo's width and height), or
with ``obb=True`` the oriented form ``class x1 y1 x2 y2 x3 y3 x4 y4`` (the four corners, clockwise
from the face's top-left, normalised). Classes are the contract's order, index 0 = ``1m`` through
42 = ``back``. The layout follows Ultralytics (``data.yaml`` beside ``images/`` and ``labels/``);
YOLO keeps only codes and boxes, so tiles read back count as set by a person, photos as reviewed.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Sequence
from pathlib import Path

from fanscan.atomic import write_text_atomic
from fanscan.datasets.formats._common import coder, place_photo, read_text_file, rectangle, refuse_name_clashes
from fanscan.datasets.formats.class_map import ClassMap
from fanscan.datasets.labels import PhotoLabels, TileLabel, find_photos
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import CLASS_LABELS


def format_yolo_data(
    names: Sequence[str] = CLASS_LABELS, train: str = "images", val: str = "images"
) -> str:
    """The ``data.yaml`` text; without a split, train and val both point at ``images``."""
    lines = [
        "# Mahjong tiles labelled with fanscan; paths are relative to this file's folder.",
        f"train: {train}",
        f"val: {val}",
        f"nc: {len(names)}",
        "names:",
        *(f'  {index}: "{name}"' for index, name in enumerate(names)),
    ]
    return "\n".join(lines) + "\n"


def parse_yolo_data(
    text: str, name: str = "data.yaml", class_map: ClassMap | None = None
) -> list[str | None]:
    """The tile codes of a ``data.yaml``'s classes (a list, or a mapping from index to name),
    through ``class_map`` when given (None for a class it leaves out)."""
    import yaml

    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise FanscanError("bad_dataset", f"{name}: not valid YAML ({error})") from None
    names = document.get("names") if isinstance(document, dict) else None
    if isinstance(names, dict) and sorted(names) == list(range(len(names))):
        names = [names[index] for index in range(len(names))]
    if not isinstance(names, list) or not names:
        raise FanscanError("bad_dataset", f"{name}: 'names' must list the classes")
    to_code = coder(class_map)
    return [to_code(str(item), name) for item in names]


def _clipped(share: float) -> float:
    return min(1.0, max(0.0, share))


def _number(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".") if value else "0"


def format_yolo(photo: PhotoLabels, obb: bool = False) -> str:
    """The ``labels/*.txt`` text of one photo."""
    lines = []
    for tile in photo.tiles:
        index = CLASS_LABELS.index(tile.code)
        if obb:  # corners past the photo's edge (a tile it cuts) are clipped to it, as VOC's boxes
            values = [
                value for x, y in tile.corners
                for value in (_clipped(x / photo.width), _clipped(y / photo.height))
            ]
        else:
            x_min, y_min, x_max, y_max = tile.bounds
            x_min, x_max = (photo.width * _clipped(v / photo.width) for v in (x_min, x_max))
            y_min, y_max = (photo.height * _clipped(v / photo.height) for v in (y_min, y_max))
            if x_max - x_min < 1 or y_max - y_min < 1:  # wholly off the photo: nothing to learn
                continue
            values = [
                (x_min + x_max) / 2 / photo.width,
                (y_min + y_max) / 2 / photo.height,
                (x_max - x_min) / photo.width,
                (y_max - y_min) / photo.height,
            ]
        lines.append(" ".join([str(index), *(_number(value) for value in values)]))
    return "".join(line + "\n" for line in lines)


def parse_yolo(
    text: str,
    width: int,
    height: int,
    names: Sequence[str | None] = CLASS_LABELS,
    name: str = "YOLO label file",
) -> tuple[TileLabel, ...]:
    """The tiles of one ``labels/*.txt`` (boxes or oriented boxes) for a photo of that size;
    lines of a class whose code is None (left out by a class map) are skipped."""
    tiles = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if not fields:
            continue
        where = f"{name} line {line_number}"
        if len(fields) not in (5, 9):
            raise FanscanError(
                "bad_dataset",
                f"{where}: expected 5 (box) or 9 (oriented box) numbers, got {len(fields)}",
            )
        try:
            index = int(fields[0])
            values = [float(field) for field in fields[1:]]
            if not all(math.isfinite(v) for v in values):
                raise ValueError
        except ValueError:
            raise FanscanError("bad_dataset", f"{where}: {line.strip()!r} is not finite numbers") from None
        if not 0 <= index < len(names):
            raise FanscanError("bad_dataset", f"{where}: class {index} is not one of {len(names)}")
        code = names[index]
        if code is None:
            continue
        if len(values) == 4:
            cx, cy, w, h = values
            corners = rectangle(
                (cx - w / 2) * width,
                (cy - h / 2) * height,
                (cx + w / 2) * width,
                (cy + h / 2) * height,
            )
        else:
            corners = tuple(  # type: ignore[assignment]
                (values[i] * width, values[i + 1] * height) for i in range(0, 8, 2)
            )
        tiles.append(TileLabel(code, corners, 1.0, "person"))
    return tuple(tiles)


def _label_file(root: Path, image: str) -> Path:
    return (root / "labels" / image).with_suffix(".txt")


def _source_of(image: str) -> str:
    """The photo an image is a version of: Roboflow names its augmented versions of one photo
    ``NAME_jpg.rf.HASH.jpg``, and those must share a split."""
    return image.split(".rf.")[0] if ".rf." in image else image


def validation_photos(images: Sequence[str], fraction: float) -> set[str]:
    """The photos to validate on: ``fraction`` of them (rounded), whole photos, all versions of
    one source photo together, chosen by a hash of the name, so that the same photos always split
    the same way. At least one on each side when both can have one.

    >>> val = validation_photos(["a.jpg", "b.jpg", "c_jpg.rf.1.jpg", "c_jpg.rf.2.jpg"], 0.3)
    >>> len({"a.jpg", "b.jpg", "c"} & {name.split("_jpg")[0] for name in val})  # 1 of 3 sources
    1
    >>> ("c_jpg.rf.1.jpg" in val) == ("c_jpg.rf.2.jpg" in val)  # versions of c stay together
    True
    """
    if not 0 <= fraction < 1:
        raise FanscanError(
            "bad_option", f"--val-fraction must be at least 0 and below 1, not {fraction}"
        )
    sources = sorted({_source_of(image) for image in images}, key=_hash)
    count = round(len(sources) * fraction)
    if fraction > 0 and len(sources) >= 2:
        count = min(max(count, 1), len(sources) - 1)
    chosen = set(sources[:count])
    return {image for image in images if _source_of(image) in chosen}


def _hash(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8")).hexdigest()


def save_yolo(
    out: str | os.PathLike[str],
    photos: Sequence[PhotoLabels],
    image_root: str | os.PathLike[str],
    obb: bool = False,
    val_fraction: float = 0.0,
) -> None:
    """Write a YOLO dataset into folder ``out``, each photo from ``image_root`` into images/;
    with ``val_fraction`` (see ``validation_photos``) into ``images/train`` or ``images/val``, its
    labels into ``labels/train`` or ``labels/val``, as Ultralytics lays out a split."""
    root = Path(out)
    val = validation_photos([p.image for p in photos], val_fraction) if val_fraction else None

    def placed_as(image: str) -> str:
        return image if val is None else f"{'val' if image in val else 'train'}/{image}"

    refuse_name_clashes({p.image: str(_label_file(Path(), placed_as(p.image))) for p in photos}, "YOLO")
    for photo in photos:
        placed = placed_as(photo.image)
        place_photo(Path(image_root) / photo.image, root / "images" / placed)
        write_text_atomic(_label_file(root, placed), format_yolo(photo, obb))
    split = ("images/train", "images/val") if val is not None else ("images", "images")
    write_text_atomic(root / "data.yaml", format_yolo_data(CLASS_LABELS, *split))


def load_yolo(dataset: str | os.PathLike[str], class_map: ClassMap | None = None) -> list[PhotoLabels]:
    """Read a YOLO dataset folder (``data.yaml``, ``images/``, ``labels/``, a split's photos in
    subfolders such as ``images/train``); photo sizes come from the images. A photo without a
    label file has no tiles. ``class_map`` turns the class names into tile codes."""
    from fanscan.vision.image_io import load_photo

    root = Path(dataset)
    data = root / "data.yaml"
    if not data.is_file():
        raise FanscanError("not_found", f"{root} has no data.yaml (not a YOLO dataset folder)")
    names = parse_yolo_data(read_text_file(data), str(data), class_map)
    photos = []
    for image in find_photos(root / "images"):
        relative = image.relative_to(root / "images").as_posix()
        width, height = load_photo(image).size
        label_file = _label_file(root, relative)
        text = read_text_file(label_file) if label_file.is_file() else ""
        tiles = parse_yolo(text, width, height, names, str(label_file))
        photos.append(PhotoLabels(relative, width, height, tiles, status="reviewed"))
    return photos
