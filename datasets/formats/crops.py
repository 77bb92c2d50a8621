"""Per-class crop folders: one upright image per tile, and a ``labels.csv`` naming each one's code.

The layout is the one of the real-crop sets the classifier trains on (``labels.csv`` with the header
``file,label``, ``file`` relative to the csv's folder): ``OUT/5p/photo_003.png`` and the row
``5p/photo_003.png,5p``. Each crop is cut from the photo at full resolution along the tile's four
corners and warped to a rectangle, so a tile photographed at an angle or lying sideways comes out
upright, its size taken from the corners' edge lengths.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import cv2
import numpy as np

from fanscan.atomic import atomic_path, write_text_atomic
from fanscan.datasets.formats._common import class_code
from fanscan.datasets.labels import Corners, PhotoLabels, quad_area
from fanscan.datasets.real_tiles import RealCrop
from fanscan.errors import FanscanError
from fanscan.vision.image_io import load_photo

HEADER = ("file", "label")


@dataclass(frozen=True)
class CropRow:
    """One crop: its file (relative to labels.csv, with ``/``) and its tile code."""

    file: str
    label: str


def format_crops(rows: Sequence[CropRow]) -> str:
    """The ``labels.csv`` text."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(HEADER)
    writer.writerows((row.file, row.label) for row in rows)
    return buffer.getvalue()


def parse_crops(text: str, name: str = "labels.csv") -> list[CropRow]:
    """The rows of a ``labels.csv``; every label must be a tile code."""
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header is None or tuple(cell.strip() for cell in header) != HEADER:
        raise FanscanError("bad_dataset", f"{name}: the first line must be 'file,label'")
    rows = []
    for line_number, cells in enumerate(reader, start=2):
        if not cells:
            continue
        if len(cells) != 2 or not cells[0].strip():
            raise FanscanError("bad_dataset", f"{name} line {line_number}: expected 'file,label'")
        label = class_code(cells[1].strip(), f"{name} line {line_number}")
        rows.append(CropRow(cells[0].strip(), label))
    return rows


def crop_size(corners: Corners) -> tuple[int, int]:
    """Width and height of the upright crop: the mean lengths of opposite edges, at least 1 px."""

    def length(a: tuple[float, float], b: tuple[float, float]) -> float:
        return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)

    top_left, top_right, bottom_right, bottom_left = corners
    width = (length(top_left, top_right) + length(bottom_left, bottom_right)) / 2
    height = (length(top_left, bottom_left) + length(top_right, bottom_right)) / 2
    return max(1, round(width)), max(1, round(height))


def save_crops(
    out: str | os.PathLike[str], photos: Sequence[PhotoLabels], image_root: str | os.PathLike[str]
) -> list[CropRow]:
    """Cut every tile of ``photos`` (found under ``image_root``) into ``out``; the rows written."""
    root = Path(out)
    rows = []
    for photo in photos:
        if not photo.tiles:
            continue
        picture = load_photo(Path(image_root) / photo.image)
        stem = str(PurePosixPath(photo.image).with_suffix("")).replace("/", "__")
        for index, tile in enumerate(photo.tiles, start=1):
            if quad_area(tile.corners) < 1.0:
                raise FanscanError(
                    "bad_labels", f"{photo.image} tile {index}: its corners enclose no area"
                )
            width, height = crop_size(tile.corners)
            crop = picture.crop_quad(np.float32(tile.corners), width, height, scale=1)
            file = f"{tile.code}/{stem}_{index:03d}.png"
            with atomic_path(root / file) as temp:
                if not cv2.imwrite(str(temp), crop):
                    raise FanscanError("write_failed", f"could not write the crop {root / file}")
            rows.append(CropRow(file, tile.code))
    write_text_atomic(root / "labels.csv", format_crops(rows))
    return rows


def load_crops(folder: str | os.PathLike[str]) -> list[CropRow]:
    """The rows of ``folder/labels.csv``, each checked to name an existing image."""
    root = Path(folder)
    path = root / "labels.csv"
    if not path.is_file():
        raise FanscanError("not_found", f"{root} has no labels.csv")
    rows = parse_crops(path.read_text(encoding="utf-8"), str(path))
    for row in rows:
        if not (root / row.file).is_file():
            raise FanscanError("not_found", f"{path} names {row.file}, which does not exist")
    return rows


def training_crops(folder: str | os.PathLike[str]) -> list[RealCrop]:
    """A crop folder as the classifier's training takes real crops: one tile set, named after the
    folder (so ``--hold-out`` can keep it out of training and score the model on it)."""
    root = Path(folder)
    return [RealCrop(root / row.file, row.label, root.resolve().name) for row in load_crops(root)]
