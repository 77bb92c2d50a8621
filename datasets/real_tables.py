"""Real photos of real tables with a box per labelled tile: ``../shared/data/rf-chinese``.

1,720 photos (CC BY 4.0, "Chinese Mahjong Detection v4" on Roboflow): 430 source photos, each in
four augmented versions (stretched to 640 x 640, mirror flips, quarter turns, rotations up to 45
degrees and shears that leave black corners). Optional: absent on a user's machine, where
``load_table_photos`` returns an empty list.

1. Every version of a source photo shares the file-name prefix before ``_jpg.rf.``; the prefix is
   the unit of every split (``source_fold``), so no photo is ever trained on in one version and
   scored in another.
2. Labels are YOLO lines, a box (``class cx cy w h``) or a polygon (``class x y x y ...``), both
   normalised; a polygon becomes its bounding box.
3. ``least_turned`` keeps, of each source, the version with the least fill (the flat colour the
   augmentation leaves where it turned or sheared the photo): the closest to the photo someone took.
4. ``upright_version`` turns a turned version back: its turn is the one whose frame best matches
   the fill (``turn_of``), and each labelled box, which bounds the turned tile, gives back the
   upright tile's box.
5. The labels are a person's, with slips. ``datasets/labels/rf_label_fixes.csv`` (the project's
   own review: ``benchmarks/label_review.py`` shows every label the reader disagrees with, and a
   reviewer writes down the ones the photo shows wrong) names a label by the reviewed version's
   file and the label's line; ``load_table_photos`` applies each row to every version of that
   source whose labels are the reviewed version's, face for face (the export keeps the labels'
   order; a version that lost labels to a turn is left as it is).
"""

from __future__ import annotations

import csv
import functools
import hashlib
import io
import os
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from fanscan.datasets.shared import shared_path
from fanscan.errors import FanscanError

# The set's class names in label order (its data.yaml): a YOLO line's class is an index into it.
RF_CLASS_NAMES: tuple[str, ...] = (
    "bs1", "sc1", "sd1", "sb1", "hwe", "bs2", "sc2", "sd2", "sb2", "hws", "bs3", "sc3", "sd3",
    "sb3", "hww", "bs4", "sc4", "sd4", "sb4", "hwn", "bf1", "sc5", "sd5", "sb5", "hdw", "bf2",
    "sc6", "sd6", "sb6", "hdg", "bf3", "sc7", "sd7", "sb7", "hdr", "bf4", "sc8", "sd8", "sb8",
    "sc9", "sd9", "sb9",
)


@functools.cache
def _rf_map() -> dict[str, str | None]:
    from fanscan.datasets.formats.class_map import load_class_map

    return dict(load_class_map("rf-chinese").codes)


def rf_class_code(name: str) -> str:
    """The tile code of one of the set's class names, from the ready class map ``rf-chinese`` that
    ``fanscan import --map rf-chinese`` uses (``sc`` characters, ``sd`` dots, ``sb`` bamboo, ``hw?``
    winds, ``hd?`` dragons, ``bf1-4`` flowers, ``bs1-4`` seasons)."""
    code = _rf_map().get(name)
    if code is None:
        raise FanscanError("bad_dataset", f"unknown rf-chinese class name {name!r}")
    return code


RF_CODES: tuple[str, ...] = tuple(rf_class_code(name) for name in RF_CLASS_NAMES)
FOLDS = 5
FILL_LEVELS = 3  # grey levels a flat augmentation fill varies by after JPEG
TURN_SEARCH_SIDE = 160  # the fill is matched against turned frames at this size
# cos^2 - sin^2 of a turn below which a turned box no longer tells the upright tile's size (~35 deg).
UNDETERMINED_BELOW = 0.35
# Share of fill above which a version counts as turned or sheared (JPEG noise floods a few pixels).
TURNED_FILL = 0.01
HELD_OUT_FOLD = FOLDS - 1  # one source in five is never trained on


@dataclass(frozen=True)
class TablePhoto:
    """One photo version: its file, its source prefix, and its labelled tiles (``boxes`` (n, 4)
    x0 y0 x1 y1 in pixels, ``codes`` their tile codes)."""

    path: Path
    source: str
    boxes: np.ndarray
    codes: tuple[str, ...]

    def __post_init__(self) -> None:
        if self.boxes.shape != (len(self.codes), 4):
            raise ValueError(f"boxes are {self.boxes.shape}, expected ({len(self.codes)}, 4)")

    def load(self) -> np.ndarray:
        """The photo as a BGR uint8 array."""
        image = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
        if image is None:
            raise FanscanError("unreadable_image", f"cannot read {self.path}")
        return image

    @property
    def fold(self) -> int:
        return source_fold(self.source)


def source_of(file_name: str) -> str:
    """The source prefix every augmented version of one photo shares."""
    stem = Path(file_name).stem
    return stem.split("_jpg.rf.")[0] if "_jpg.rf." in stem else stem


def source_fold(source: str, folds: int = FOLDS) -> int:
    """A stable fold in ``range(folds)`` for a source (a hash: the same on every machine)."""
    return int(hashlib.sha1(source.encode()).hexdigest(), 16) % folds


def parse_yolo_lines(text: str, width: int, height: int) -> tuple[np.ndarray, tuple[str, ...]]:
    """Boxes (n, 4) in pixels and codes of a label file's lines (boxes or polygons)."""
    boxes, codes = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        values = line.split()
        if not values:
            continue
        try:
            cls, numbers = int(values[0]), [float(v) for v in values[1:]]
        except ValueError:
            raise FanscanError("bad_dataset", f"line {number}: not numbers: {line[:60]!r}") from None
        if not 0 <= cls < len(RF_CODES) or len(numbers) < 4 or len(numbers) % 2:
            raise FanscanError("bad_dataset", f"line {number}: not a box or polygon: {line[:60]!r}")
        if len(numbers) == 4:
            cx, cy, w, h = numbers
            x0, y0, x1, y1 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
        else:
            xs, ys = numbers[0::2], numbers[1::2]
            x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
        boxes.append((x0 * width, y0 * height, x1 * width, y1 * height))
        codes.append(RF_CODES[cls])
    array = np.array(boxes, np.float32).reshape(-1, 4)
    array[:, 0::2] = array[:, 0::2].clip(0, width)
    array[:, 1::2] = array[:, 1::2].clip(0, height)
    return array, tuple(codes)


LABEL_FIXES_FILE = Path(__file__).resolve().parent / "labels" / "rf_label_fixes.csv"


@dataclass(frozen=True)
class LabelFix:
    """Line ``index`` of the label file of ``photo`` (a version's file name) says ``labelled``;
    the photo shows ``truth``."""

    photo: str
    index: int
    labelled: str
    truth: str


def label_fixes(path: Path = LABEL_FIXES_FILE) -> list[LabelFix]:
    """The reviewed label fixes (none without the file). Raises FanscanError ``bad_dataset`` on a
    row that is no fix (a bad index or a tile code the set does not have)."""
    if not path.is_file():
        return []
    fixes = []
    for number, row in enumerate(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))), start=2):
        try:
            fix = LabelFix(row["photo"], int(row["index"]), row["labelled"], row["truth"])
        except (KeyError, TypeError, ValueError):
            raise FanscanError("bad_dataset", f"{path.name} line {number}: not photo,index,labelled,truth") from None
        if fix.index < 0 or not {fix.labelled, fix.truth} <= set(RF_CODES):
            raise FanscanError("bad_dataset", f"{path.name} line {number}: no label line {fix.index} "
                                              f"of {fix.labelled!r} to make {fix.truth!r}")
        fixes.append(fix)
    return fixes


def with_fixes(photos: list[TablePhoto], fixes: Iterable[LabelFix]) -> list[TablePhoto]:
    """The photos with each fix applied to every version of the fixed photo's source whose label
    faces are the fixed photo's as labelled (the fixed photo itself included); a fix whose photo
    is absent, or whose line does not say ``labelled``, changes nothing."""
    by_name = {p.path.name: p for p in photos}
    changed: dict[str, list[str]] = {}
    for fix in fixes:
        reviewed = by_name.get(fix.photo)
        if reviewed is None or fix.index >= len(reviewed.codes) or reviewed.codes[fix.index] != fix.labelled:
            continue
        for photo in photos:
            if photo.source == reviewed.source and photo.codes == reviewed.codes:
                changed.setdefault(photo.path.name, list(photo.codes))[fix.index] = fix.truth
    return [replace(p, codes=tuple(changed[p.path.name])) if p.path.name in changed else p for p in photos]


def load_table_photos(root: str | os.PathLike[str] | None = None, fixed: bool = True) -> list[TablePhoto]:
    """Every labelled photo version of the set (empty when the set is not on this machine), with
    the reviewed label fixes applied (``fixed``: see step 5)."""
    folder = Path(root) if root is not None else shared_path("data", "rf-chinese")
    if folder is None or not (folder / "images").is_dir():
        return []
    photos = []
    for image in sorted((folder / "images").glob("*.jpg")):
        label = folder / "labels" / f"{image.stem}.txt"
        if not label.is_file():
            continue
        # Every version is 640 x 640 (the README); read the size only when it is not.
        size = _image_size(image)
        boxes, codes = parse_yolo_lines(label.read_text(encoding="utf-8"), *size)
        photos.append(TablePhoto(image, source_of(image.name), boxes, codes))
    return with_fixes(photos, label_fixes()) if fixed else photos


def _image_size(path: Path) -> tuple[int, int]:
    """(width, height) of a JPEG from its header (no full decode)."""
    from PIL import Image

    with Image.open(path) as image:
        return image.size


def fill_fraction(image: np.ndarray) -> float:
    """Share of the photo that is the augmentation's fill: one flat colour (black, grey or white,
    it varies) flooded from the corners, where it turned or sheared the photo."""
    return float(fill_mask(image).mean())


def least_turned(photos: Iterable[TablePhoto]) -> list[TablePhoto]:
    """Of each source, the version with the least black fill (ties: the first by file name)."""
    by_source: dict[str, list[TablePhoto]] = defaultdict(list)
    for photo in photos:
        by_source[photo.source].append(photo)
    chosen = []
    for source in sorted(by_source):
        versions = [p for p in by_source[source] if len(p.codes)] or by_source[source]
        chosen.append(min(versions, key=lambda p: (fill_fraction(p.load()), p.path.name)))
    return chosen


def in_folds(photos: Sequence[TablePhoto], folds: Iterable[int]) -> list[TablePhoto]:
    """The photos whose source falls in ``folds``."""
    wanted = set(folds)
    return [p for p in photos if p.fold in wanted]


def fill_mask(image: np.ndarray) -> np.ndarray:
    """The augmentation's fill as a mask: 1 where the photo was turned away. JPEG leaves a flat
    fill within a few levels; a photographed surface varies more."""
    height, width = image.shape[:2]
    filled = np.zeros((height + 2, width + 2), np.uint8)
    flags = 4 | cv2.FLOODFILL_FIXED_RANGE | cv2.FLOODFILL_MASK_ONLY | (1 << 8)
    for x, y in ((0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)):
        if not filled[y + 1, x + 1]:
            cv2.floodFill(image, filled, (x, y), 0, (FILL_LEVELS,) * 3, (FILL_LEVELS,) * 3, flags)
    return filled[1:-1, 1:-1]


def turn_of(image: np.ndarray, step: float = 0.5) -> float:
    """The angle (degrees, counter-clockwise) the augmentation turned the photo by: the turn of the
    photo's own frame whose corners best match the fill, searched over -45..45 degrees."""
    fill = cv2.resize(fill_mask(image), (TURN_SEARCH_SIDE, TURN_SEARCH_SIDE), interpolation=cv2.INTER_NEAREST)
    if not fill.any():
        return 0.0
    frame = np.ones_like(fill)
    centre = (TURN_SEARCH_SIDE / 2, TURN_SEARCH_SIDE / 2)
    best, best_agreement = 0.0, -1.0
    for degrees in np.arange(-45.0, 45.0 + step / 2, step):
        turned = cv2.warpAffine(frame, cv2.getRotationMatrix2D(centre, float(degrees), 1.0),
                                fill.shape[::-1], flags=cv2.INTER_NEAREST, borderValue=0)
        agreement = float(((turned == 0) == (fill == 1)).mean())
        if agreement > best_agreement:
            best, best_agreement = float(degrees), agreement
    return best


def turned_back(image: np.ndarray, boxes: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The photo turned back by ``degrees`` (``turn_of``), its boxes moved with it, and which boxes
    could be recovered. A labelled box bounds the turned tile; the upright tile inside it is the
    rectangle whose turn by ``degrees`` has that bounding box, which near 45 degrees is no longer
    determined (those photos recover no box)."""
    height, width = image.shape[:2]
    centre = (width / 2, height / 2)
    back = cv2.getRotationMatrix2D(centre, -degrees, 1.0)
    upright = cv2.warpAffine(image, back, (width, height), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0))
    c, s = abs(np.cos(np.radians(degrees))), abs(np.sin(np.radians(degrees)))
    det = c * c - s * s
    big_w, big_h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    if det < UNDETERMINED_BELOW:
        return upright, boxes.copy(), np.zeros(len(boxes), bool)
    w = (big_w * c - big_h * s) / det
    h = (big_h * c - big_w * s) / det
    centres = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2, np.ones(len(boxes))], 1)
    moved = centres @ back.T
    out = np.stack([moved[:, 0] - w / 2, moved[:, 1] - h / 2, moved[:, 0] + w / 2, moved[:, 1] + h / 2], 1)
    valid = (w > 0.25 * big_w) & (h > 0.25 * big_h)
    return upright, out.astype(np.float32), valid


@dataclass(frozen=True)
class UprightPhoto:
    """A photo version turned back upright (``turn_of``), its boxes moved with it."""

    image: np.ndarray
    boxes: np.ndarray
    codes: tuple[str, ...]
    turn: float  # degrees it was turned back by
    content: np.ndarray  # uint8 mask: 1 where the photo shows something, 0 on the fill


def upright_version(photo: TablePhoto) -> UprightPhoto | None:
    """``photo`` turned back upright, or None when its turn leaves a box's tile undetermined."""
    image = photo.load()
    content = 1 - fill_mask(image)
    degrees = turn_of(image) if content.mean() < 1 - TURNED_FILL else 0.0
    if degrees == 0.0:
        return UprightPhoto(image, photo.boxes, photo.codes, 0.0, content)
    upright, boxes, valid = turned_back(image, photo.boxes, degrees)
    if not valid.all():
        return None
    height, width = image.shape[:2]
    back = cv2.getRotationMatrix2D((width / 2, height / 2), -degrees, 1.0)
    content = cv2.warpAffine(content, back, (width, height), flags=cv2.INTER_NEAREST, borderValue=0)
    return UprightPhoto(upright, boxes, photo.codes, degrees, content)
