"""The photo reader on real table photos it never trained on: the held-out sources of rf-chinese.

    python benchmarks/bench_real_tables.py [--finder F.onnx ...] [--refiner R.onnx ...]
        [--model A.onnx ...] [--limit N]
        [--annotate DIR] [--picture CONFUSION.png] [--all-tiles] [--turn 180]
        [--tilt 30|random | --far 22 | --near 4 | --steep 0.4] [--every-version] [--as-stored]
        [--grey] [--camera-fault defocus:1.5|motion:5|bright:2|hazy:0.6|dim:0.4|jpeg:40]

Reads, of each held-out source (``datasets.real_tables``, fold ``HELD_OUT_FOLD``: whole source
photos, never a version of a trained one), its least turned version, turned back upright where
its turn allows (``real_tables.upright_version``) and flipped back when the augmentation mirrored
it (decided from the labels as ``real_table_crops`` does); with ``--every-version``, every
version the export made of each source so (turned, tinted, grey: more of a real photo's looks,
though a turned version's labels are boxes around turned boxes); with ``--as-stored``, each photo
as its file is stored, turned and mirrored as the augmentation left it, with its labels as
stored (a photo whose turn was lost; a mirror image no camera makes). Every pairing of
the ``--finder``, ``--refiner`` (box refiner) and ``--model`` (tile classifier) files given
(default: the shipped ones) reads every photo, side by side in one run; the first pairing's
failures are annotated. ``--turn`` turns every photo and its labels first (a hand photographed
from another side); ``--tilt`` turns it within its own frame (a photo taken with the camera
tilted; ``random``: each source its own tilt within an eighth turn), keeps the labels still
wholly in the frame and compares the reader's boxes turned back with them; ``--far SHORT``
shrinks it until its labelled tiles' short sides span SHORT pixels and lays it, edges faded,
at a random place of a 12 MP photo of its own table (a hand photographed from far;
``bench_scenes.far_canvas``); ``--near SCALE`` enlarges it and its labels SCALE times (a phone's
photo of many more pixels a tile than the export's 640 x 640 kept: 4 makes 2560 x 2560; like
``--far``'s, passed to the reader as a JPEG of quality 95, as a phone saves it); ``--steep SHARE``
warps it as a camera held lower would see it (its
bottom edge drawn out by SHARE of the width past the frame: a keystone), keeps the labels still
wholly in the frame and compares the reader's boxes warped back with them. With ``--tilt`` and
``--steep``, a tile the new frame cuts (its label left out) is not judged: a reader box lying
mostly on it (``cut_by_frame``, ``over_cut``) is neither asked for in the hand nor counted against
it, nor counted as a box over no labelled tile. ``--camera-fault KIND:AMOUNT`` shows every photo
as a poorer camera would (``camera_fault``: out of focus, a Gaussian of sigma AMOUNT px; shaken,
a motion blur AMOUNT px long; ``bright``, AMOUNT times the light, clipped at white; ``hazy``,
every level drawn to AMOUNT of its distance from white; ``dim``, AMOUNT of the light with sensor
noise; ``jpeg``, saved again as a JPEG of quality AMOUNT, as a messaging app sends it), its
labels unchanged.

Per photo and in total, for each model:
- ``found``: labelled tiles with a reader box of IoU >= 0.5 (boxes compared as upright rectangles),
- ``right``: of those, read as their labelled face,
- ``exact``: photos whose every labelled tile is found and right,
- ``unlabelled``: reader boxes over no labelled tile (walls, discards and other players' tiles are
  often unlabelled here, so this counts them as well as boxes of no tile);
- of the hand photos (sources named ``hand_*``, whose labels are the player's hand and nothing
  else), ``hand_exact``: the tiles the reader put in the hand are the labelled ones, each read
  right (``hand_exact_complete``: those whose hand read is also a complete hand, one
  ``fanscan score`` scores); ``put_in_hand``: tiles in the hand over no labelled tile (a wall's,
  a discard's, or a box of no tile); ``put_apart``: labelled tiles found but set apart from the
  hand; ``hand_faces_exact``: the faces the reader put in the hand are the labelled faces, as a
  multiset, whatever its boxes (what a player sees: a box drawn tighter or looser than the
  label's, which IoU counts as a miss and an extra tile, leaves the hand right);
- ``missed``: the labelled tiles not found, by why (``miss_kinds``): ``loose`` (a box read as
  the labelled face overlaps it at IoU ``IOU_LOOSE`` or more: drawn tighter or looser than the
  label, as around a turned version's boxes), ``edge`` (the label touches the photo's frame: a
  tile cut by it), ``other`` (not seen, or seen as another face or merged with a neighbour).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

IOU_FOUND = 0.5
IOU_LOOSE = 0.3
EDGE_PX = 2.0
"""A label within this many pixels of the frame touches it."""
MISS_KINDS = ("loose", "edge", "other")


@dataclass
class Tally:
    """Running totals of one model."""

    labelled: int = 0
    found: int = 0
    right: int = 0
    exact: int = 0
    photos: int = 0
    unlabelled: int = 0
    errors: int = 0
    seconds: float = 0.0
    hand_photos: int = 0
    hand_exact: int = 0
    hand_exact_complete: int = 0
    hand_faces_exact: int = 0
    put_in_hand: int = 0
    put_apart: int = 0
    pairs: list[tuple[str, str]] = field(default_factory=list)
    missed: Counter = field(default_factory=Counter)

    def add(self, labelled: int, boxes: int, right: list[tuple[str, str]], exact: bool,
            check: HandCheck | None, seconds: float) -> None:
        """One photo read: its labelled tiles, the reader's boxes, the (label, read) codes of the
        labels found, whether every label was found and read right, its hand check (hand
        photos) and its time."""
        self.photos += 1
        self.labelled += labelled
        self.found += len(right)
        self.right += sum(t == r for t, r in right)
        self.unlabelled += boxes - len(right)
        self.pairs += right
        self.exact += exact
        self.seconds += seconds
        if check is not None:
            self.hand_photos += 1
            self.hand_exact += check.exact
            self.hand_exact_complete += check.exact and check.complete
            self.hand_faces_exact += check.faces_exact
            self.put_in_hand += check.put_in_hand
            self.put_apart += check.put_apart

    def add_error(self, labelled: int, seconds: float) -> None:
        """One photo the reader refused."""
        self.photos += 1
        self.labelled += labelled
        self.errors += 1
        self.seconds += seconds

    def summary(self) -> dict:
        return {
            "photos": self.photos,
            "labelled": self.labelled,
            "found": round(self.found / max(1, self.labelled), 4),
            "right_of_found": round(self.right / max(1, self.found), 4),
            "right_of_labelled": round(self.right / max(1, self.labelled), 4),
            "exact_photos": self.exact,
            "unlabelled_per_photo": round(self.unlabelled / max(1, self.photos), 2),
            "hand_photos": self.hand_photos,
            "hand_exact": self.hand_exact,
            "hand_exact_complete": self.hand_exact_complete,
            "hand_faces_exact": self.hand_faces_exact,
            "put_in_hand": self.put_in_hand,
            "put_apart": self.put_apart,
            **{f"missed_{kind}": self.missed[kind] for kind in MISS_KINDS},
            "read_errors": self.errors,
            "seconds_per_photo": round(self.seconds / max(1, self.photos), 3),
        }


def _intersections(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Areas (len(a), len(b)) where x0 y0 x1 y1 boxes overlap."""
    x0 = np.maximum(a[:, None, 0], b[None, :, 0])
    y0 = np.maximum(a[:, None, 1], b[None, :, 1])
    x1 = np.minimum(a[:, None, 2], b[None, :, 2])
    y1 = np.minimum(a[:, None, 3], b[None, :, 3])
    return np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None)


def _areas(boxes: np.ndarray) -> np.ndarray:
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU (len(a), len(b)) of x0 y0 x1 y1 boxes."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)))
    inter = _intersections(a, b)
    return inter / np.maximum(_areas(a)[:, None] + _areas(b)[None, :] - inter, 1e-9)


def miss_kinds(truth: np.ndarray, truth_codes: tuple[str, ...], found: np.ndarray, codes: list[str],
               pairs: list[tuple[int, int]], size: tuple[int, int]) -> Counter:
    """Why each label ``match`` left unpaired was missed (``MISS_KINDS``); ``size`` (width, height)
    of the photo."""
    paired = {i for i, _ in pairs}
    iou = box_iou(truth, found)
    width, height = size
    kinds: Counter = Counter()
    for i in range(len(truth)):
        if i in paired:
            continue
        x0, y0, x1, y1 = truth[i]
        if any(iou[i, j] >= IOU_LOOSE and codes[j] == truth_codes[i] for j in range(len(codes))):
            kinds["loose"] += 1
        elif min(x0, y0) <= EDGE_PX or x1 >= width - EDGE_PX or y1 >= height - EDGE_PX:
            kinds["edge"] += 1
        else:
            kinds["other"] += 1
    return kinds


def match(truth: np.ndarray, found: np.ndarray) -> list[tuple[int, int]]:
    """Greedy one-to-one pairs (truth index, found index) of IoU >= ``IOU_FOUND``, best first."""
    iou = box_iou(truth, found)
    pairs = []
    while iou.size and iou.max() >= IOU_FOUND:
        i, j = np.unravel_index(int(iou.argmax()), iou.shape)
        pairs.append((int(i), int(j)))
        iou[i, :] = -1
        iou[:, j] = -1
    return pairs


HAND_PHOTO_PREFIX = "hand_"
"""The rf-chinese sources whose labels are the player's hand alone."""


@dataclass(frozen=True)
class HandCheck:
    """How the reader's hand compares with a hand photo's labels."""

    exact: bool
    put_in_hand: int
    put_apart: int
    complete: bool = False
    """Whether the hand read is a complete hand (``fanscan score`` scores it)."""
    faces_exact: bool = False
    """Whether the faces put in the hand are the labelled faces, boxes aside."""
    put_in_faces: tuple[str, ...] = ()
    """The faces of the tiles put in the hand over no labelled tile (``put_in_hand`` of them)."""


def hand_check(pairs: list[tuple[int, int]], in_hand: list[bool], codes: list[str],
               truth_codes: tuple[str, ...], unjudged: frozenset[int] = frozenset()) -> HandCheck:
    """``pairs`` (label, reader box) from ``match``; ``in_hand`` and ``codes`` per reader box;
    ``unjudged``: reader boxes over a tile the frame cuts whose label was left out (``over_cut``),
    neither asked for in the hand nor counted against it."""
    label_of = {j: i for i, j in pairs}
    extra = [j for j, kept in enumerate(in_hand) if kept and j not in label_of and j not in unjudged]
    apart = sum(1 for j in label_of if not in_hand[j])
    right = sum(1 for j, i in label_of.items() if in_hand[j] and codes[j] == truth_codes[i])
    faces = sorted(code for j, (code, kept) in enumerate(zip(codes, in_hand)) if kept and j not in unjudged)
    return HandCheck(not extra and right == len(truth_codes), len(extra), apart,
                     faces_exact=faces == sorted(truth_codes), put_in_faces=tuple(sorted(codes[j] for j in extra)))


def reader_boxes(reading, back: np.ndarray | None = None) -> tuple[np.ndarray, list[str]]:
    """The reader's tiles as upright rectangles (their quads first taken through ``back``, when
    given: an affine map, 2 x 3, or a perspective one, 3 x 3) and their codes."""
    quads = np.array([t.box for t in reading.tiles], np.float64).reshape(-1, 4, 2)
    if back is not None and back.shape == (3, 3):  # a perspective map (``--steep``)
        quads = cv2.perspectiveTransform(quads.reshape(-1, 1, 2), back).reshape(-1, 4, 2)
    elif back is not None:
        quads = quads @ back[:, :2].T + back[:, 2]
    boxes = np.concatenate([quads.min(axis=1), quads.max(axis=1)], axis=1)
    return boxes.astype(np.float32), [t.code for t in reading.tiles]


def turned_clockwise(image: np.ndarray, boxes: np.ndarray, degrees: int) -> tuple[np.ndarray, np.ndarray]:
    """The photo turned ``degrees`` (0, 90, 180, 270) clockwise, and its x0 y0 x1 y1 boxes with it."""
    for _ in range(degrees // 90 % 4):
        height = image.shape[0]
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        # (x, y) -> (height - y, x): a box's corners (x0, y0), (x1, y1) go to (h - y1, x0), (h - y0, x1).
        boxes = np.stack([height - boxes[:, 3], boxes[:, 0], height - boxes[:, 1], boxes[:, 2]], axis=1)
    return image, boxes


def tilted(image: np.ndarray, boxes: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The photo turned ``degrees`` clockwise within its own frame, as a photo taken with the
    camera tilted (the corners turned out of the frame are lost, black comes in), the indices
    of the x0 y0 x1 y1 ``boxes`` still wholly in it, and the affine map (2 x 3) from the tilted
    photo's pixels back to the photo's."""
    from fanscan.vision.turned_photo import pixel_centred

    height, width = image.shape[:2]
    forward = cv2.getRotationMatrix2D((width / 2, height / 2), -degrees, 1.0)  # OpenCV's turns anticlockwise
    turned = cv2.warpAffine(image, pixel_centred(forward), (width, height), flags=cv2.INTER_LINEAR)
    moved = _corners(boxes) @ forward[:, :2].T + forward[:, 2]
    return turned, _wholly_inside(moved, width, height), cv2.invertAffineTransform(forward)


def _corners(boxes: np.ndarray) -> np.ndarray:
    """The four corners (n, 4, 2) of x0 y0 x1 y1 ``boxes``."""
    return np.stack([boxes[:, [0, 1]], boxes[:, [2, 1]], boxes[:, [2, 3]], boxes[:, [0, 3]]], axis=1)


def cut_by_frame(boxes: np.ndarray, kept: np.ndarray, back: np.ndarray, width: int, height: int) -> np.ndarray:
    """The x0 y0 x1 y1 ``boxes`` left out of ``kept`` (not wholly in the new frame) that the new
    width x height frame still shows part of: the frame mapped through ``back`` (``tilted``'s or
    ``seen_steeply``'s map from the new photo to the photo) overlaps them."""
    frame = np.float64([[0, 0], [width, 0], [width, height], [0, height]])
    if back.shape == (3, 3):
        seen = cv2.perspectiveTransform(frame.reshape(-1, 1, 2), back).reshape(4, 2)
    else:
        seen = frame @ back[:, :2].T + back[:, 2]
    dropped = np.setdiff1d(np.arange(len(boxes)), kept)
    shown = [i for i in dropped
             if cv2.intersectConvexConvex(np.float32(seen), np.float32(_corners(boxes[i:i + 1])[0]))[0] > 0]
    return boxes[shown].reshape(-1, 4)


def over_cut(found: np.ndarray, cut: np.ndarray) -> frozenset[int]:
    """Reader boxes (x0 y0 x1 y1) lying at least half inside a box of ``cut`` (``cut_by_frame``):
    a tile the frame cuts, whose label the transform left out."""
    if len(found) == 0 or len(cut) == 0:
        return frozenset()
    inside = _intersections(found, cut) / np.maximum(_areas(found), 1e-9)[:, None]
    return frozenset(int(j) for j in np.flatnonzero(inside.max(axis=1) >= 0.5))


def _wholly_inside(corners: np.ndarray, width: int, height: int) -> np.ndarray:
    """Indices of the boxes whose moved ``corners`` (n, 4, 2) all lie in a width x height frame."""
    return np.flatnonzero(((corners >= 0) & (corners <= np.array([width, height]))).all(axis=(1, 2)))


def seen_steeply(image: np.ndarray, boxes: np.ndarray, share: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The photo as a camera held lower would see it: its top edge kept, its bottom edge drawn
    out by ``share`` of the width (half on each side, past the frame: a keystone, the near tiles
    larger and the far rows foreshortened, with no black coming in); the indices of the x0 y0 x1
    y1 ``boxes`` still wholly in the frame, and the perspective map (3 x 3) from the new photo's
    pixels back to the photo's."""
    height, width = image.shape[:2]
    outset = share * width / 2
    source = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    target = np.float32([[0, 0], [width, 0], [width + outset, height], [-outset, height]])
    forward = cv2.getPerspectiveTransform(source, target)
    warped = cv2.warpPerspective(image, forward, (width, height), flags=cv2.INTER_LINEAR)
    moved = cv2.perspectiveTransform(_corners(boxes).reshape(-1, 1, 2).astype(np.float64), forward)
    return warped, _wholly_inside(moved.reshape(-1, 4, 2), width, height), np.linalg.inv(forward)


def _tilt_of(text: str) -> float | str:
    if text == "random":
        return text
    try:
        degrees = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: degrees, or random") from None
    if not -360 < degrees < 360:
        raise argparse.ArgumentTypeError(f"{text!r}: within a whole turn either way")
    return degrees


def tilt_for(source: str, tilt: float | str) -> float:
    """The tilt of one source's photo: ``tilt``, or for ``random`` one drawn evenly within an
    eighth turn either way, the same for the source on every run."""
    if tilt != "random":
        return float(tilt)
    return float(np.random.default_rng(zlib.crc32(source.encode())).uniform(-45.0, 45.0))


CAMERA_FAULTS = ("defocus", "motion", "bright", "hazy", "dim", "jpeg")
DIM_NOISE = 7.0
"""Sensor noise (sigma, levels) of a dim photo, as ``bench_conditions`` draws it."""


def _camera_fault_of(text: str) -> tuple[str, float]:
    kind, _, amount = text.partition(":")
    try:
        value = float(amount)
    except ValueError:
        value = -1.0
    if kind not in CAMERA_FAULTS or not value > 0:
        raise argparse.ArgumentTypeError(f"{text}: expected KIND:AMOUNT, KIND one of {', '.join(CAMERA_FAULTS)}, "
                                         "AMOUNT above 0")
    return kind, value


def camera_fault(image: np.ndarray, kind: str, amount: float, seed: int) -> np.ndarray:
    """A BGR photo as a poorer camera would take it (``--camera-fault``); same size and dtype."""
    from fanscan.datasets.photo_effects import hazier, motion_blur, over_exposed

    if kind == "jpeg":
        return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(min(amount, 100))])[1],
                            cv2.IMREAD_COLOR)
    light = image.astype(np.float32)
    if kind == "defocus":
        light = cv2.GaussianBlur(light, (0, 0), amount)
    elif kind == "motion":
        light = motion_blur(light, amount, 30.0)
    elif kind == "bright":
        light = over_exposed(light, amount)
    elif kind == "hazy":
        light = hazier(light, amount)
    else:
        noise = np.random.default_rng([seed, 11]).normal(0.0, DIM_NOISE, light.shape).astype(np.float32)
        light = light * np.float32(amount) + noise
    return np.clip(light, 0, 255).astype(np.uint8)


def far_away(image: np.ndarray, boxes: np.ndarray, short: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The photo shrunk until its labelled tiles' median short side is ``short`` pixels and laid in
    a 12 MP photo of its own table (``bench_scenes.far_canvas``), and its x0 y0 x1 y1 boxes with it."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_scenes import far_canvas

    sides = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    factor = short / max(float(np.median(sides)), 1e-6)
    photo, (x, y) = far_canvas(image, factor, np.random.default_rng([seed, 9]))
    return photo, boxes * np.float32(factor) + np.float32([x, y, x, y])


def _links_file(text: str) -> Path:
    from fanscan.vision.hand_links import check_model_file

    try:
        return check_model_file(Path(text))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _evidence_file(text: str) -> Path:
    from fanscan.vision.evidence import load_evidence

    path = Path(text)
    try:
        load_evidence(path)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise argparse.ArgumentTypeError(f"{text}: not a reading evidence file ({error})") from None
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, action="append", default=[],
                        help="tile classifier to compare (repeatable; default: the shipped one)")
    parser.add_argument("--finder", type=Path, action="append", default=[],
                        help="tile finder to compare (repeatable; default: the shipped one)")
    parser.add_argument("--refiner", type=Path, action="append", default=[],
                        help="box refiner to compare (repeatable; default: the shipped one)")
    parser.add_argument("--hand-links", type=_links_file, action="append", default=[],
                        help="hand link and choice model (models/hand_links.json form) to compare "
                             "(repeatable; default: the shipped one)")
    parser.add_argument("--evidence", type=_evidence_file, action="append", default=[],
                        help="reading search evidence (models/reading_evidence.json form) to compare "
                             "(repeatable; default: the shipped one)")
    parser.add_argument("--limit", type=int, help="only the first N held-out sources (photos, with --every-version)")
    parser.add_argument("--every-version", action="store_true",
                        help="read every version the export made of each source, not only its least turned")
    parser.add_argument("--as-stored", action="store_true",
                        help="read each photo as its file is stored (turned and mirrored as the export left it), "
                        "not turned back upright")
    parser.add_argument("--annotate", type=Path, help="folder for annotated pictures of failures")
    parser.add_argument("--picture", type=Path, help="confusion matrix PNG of the first model")
    parser.add_argument("--all-tiles", action="store_true",
                        help="read every tile (read_photo one_hand=False), not one hand")
    parser.add_argument("--folds", default=None,
                        help="comma-separated source folds to read (default: the held-out fold)")
    parser.add_argument("--far", type=float, metavar="SHORT",
                        help="each photo shrunk until its labelled tiles' short sides span SHORT px and laid "
                        "in a 12 MP photo of its own table (a hand photographed from far)")
    parser.add_argument("--near", type=float, metavar="SCALE",
                        help="enlarge every photo and its labels SCALE times (1-8), as taken with more pixels a tile")
    parser.add_argument("--turn", type=int, choices=(0, 90, 180, 270), default=0,
                        help="turn every photo (and its labels) this many degrees clockwise first: "
                        "a hand photographed from another side of the table")
    parser.add_argument("--steep", type=float, metavar="SHARE",
                        help="every photo seen as from a camera held lower: its bottom edge drawn out by this "
                        "share of the width past the frame (a keystone; labels drawn out of it left out)")
    parser.add_argument("--tilt", type=_tilt_of, metavar="DEGREES",
                        help="turn every photo this many degrees clockwise within its own frame (a photo taken "
                        "with the camera tilted: labels turned out of it are left out), or `random`: each "
                        "photo its own tilt within 45 degrees either way")
    parser.add_argument("--grey", action="store_true",
                        help="every photo made black and white first (a camera or filter without colour)")
    parser.add_argument("--camera-fault", type=_camera_fault_of, metavar="KIND:AMOUNT",
                        help="every photo shown as a poorer camera would: defocus:SIGMA_PX, motion:LENGTH_PX, "
                        "bright:GAIN, hazy:SHARE or dim:SHARE (labels unchanged)")
    parser.add_argument("--rules", metavar="NAME",
                        help="rule set whose hand size the reading must have (default: any rule set's, or a "
                        "16-tile game's, as `fanscan read` reads)")
    args = parser.parse_args(argv)
    if sum(option is not None for option in (args.tilt, args.far, args.near, args.steep)) > 1:
        parser.error("--tilt, --far, --near and --steep: choose one (each maps the labels its own way)")
    if args.near is not None and not 1 <= args.near <= 8:
        parser.error("--near: a scale from 1 to 8")
    if args.steep is not None and not 0 <= args.steep < 1:
        parser.error("--steep: a share of the width from 0 up to 1")

    from fanscan.datasets.photo_effects import black_and_white
    from fanscan.datasets.real_table_crops import photo_as_taken
    from fanscan.datasets.real_tables import (
        HELD_OUT_FOLD, in_folds, least_turned, load_table_photos, upright_version)
    from fanscan.errors import FanscanError
    from fanscan.vision.classifier import TileClassifier, default_classifier
    from fanscan.vision import evidence, finder, hand_links, refine
    from fanscan.vision.hand_rules import is_complete
    from fanscan.vision.reader import read_photo

    photos = load_table_photos()
    if not photos:
        print("../shared/data/rf-chinese is not here", file=sys.stderr)
        return 1
    folds = [int(f) for f in args.folds.split(",")] if args.folds else [HELD_OUT_FOLD]
    in_chosen_folds = in_folds(photos, folds)
    chosen = (in_chosen_folds if args.every_version else least_turned(in_chosen_folds))[: args.limit]
    chosen = [p for p in chosen if len(p.codes)]
    judge = default_classifier()
    classifiers = [(m.name, TileClassifier(m)) for m in args.model] or [("shipped", judge)]
    finders = [(f.name, f) for f in args.finder] or [("shipped", finder.MODEL_PATH)]
    refiners = [(r.name, r) for r in args.refiner] or [("shipped", refine.MODEL_PATH)]
    links = [(h.name, h) for h in args.hand_links] or [("shipped", hand_links.MODEL_PATH)]
    evidences = [(e.name, e) for e in args.evidence] or [("shipped", evidence.EVIDENCE_PATH)]
    models = [("+".join([f_name] + [r_name] * bool(args.refiner) + [c_name] + [h_name] * bool(args.hand_links)
                        + [e_name] * bool(args.evidence)),
               f_path, r_path, h_path, classifier, e_path)
              for f_name, f_path in finders for r_name, r_path in refiners
              for c_name, classifier in classifiers for h_name, h_path in links for e_name, e_path in evidences]
    tallies = {name: Tally() for name, *_ in models}
    # The photos the augmentation did not turn: their boxes are the labeller's own, where a
    # turned photo's are boxes around turned boxes (looser, and shifted on steep rows).
    unturned = {name: Tally() for name, *_ in models}
    if args.annotate:
        args.annotate.mkdir(parents=True, exist_ok=True)
    for number, photo in enumerate(chosen, start=1):
        version = upright_version(photo)
        if args.as_stored:
            image, truth = turned_clockwise(photo.load(), photo.boxes.astype(np.float32), args.turn)
        else:
            image, truth = turned_clockwise(*photo_as_taken(photo, judge, version), args.turn)
        if args.grey:
            image = black_and_white(image)
        if args.camera_fault:
            image = camera_fault(image, *args.camera_fault, number)
        truth_codes, back, cut = photo.codes, None, np.zeros((0, 4), np.float32)
        if args.tilt is not None or args.steep is not None:
            if args.tilt is not None:
                image, kept, back = tilted(image, truth, tilt_for(photo.source, args.tilt))
            else:
                image, kept, back = seen_steeply(image, truth, args.steep)
            cut = cut_by_frame(truth, kept, back, image.shape[1], image.shape[0])
            truth, truth_codes = truth[kept], tuple(photo.codes[i] for i in kept)
        if args.far is not None and len(truth):
            image, truth = far_away(image, truth, args.far, number)
        if args.near is not None:
            image = cv2.resize(image, None, fx=args.near, fy=args.near, interpolation=cv2.INTER_CUBIC)
            truth = truth * np.float32(args.near)
        labels_own = version is not None and version.turn == 0
        encoded = cv2.imencode(".png" if args.far is None and args.near is None else ".jpg", image)[1].tobytes()
        line: dict = {"photo": photo.path.name, "source": photo.source, "labelled": len(truth),
                      "labels_own": labels_own}
        for name, finder_path, refiner_path, links_path, classifier, evidence_path in models:
            finder.MODEL_PATH, refine.MODEL_PATH = finder_path, refiner_path
            if links_path != hand_links.MODEL_PATH:
                hand_links.use_model_file(links_path)
            evidence.use_evidence_file(evidence_path)
            counted = [tallies[name]] + ([unturned[name]] if labels_own else [])
            started = time.perf_counter()
            try:
                reading = read_photo(encoded, classifier=classifier, one_hand=not args.all_tiles,
                                     rules=None if args.all_tiles else args.rules)
            except FanscanError as error:
                for tally in counted:
                    tally.add_error(len(truth), time.perf_counter() - started)
                line[name] = {"error": error.code}
                continue
            seconds = time.perf_counter() - started
            boxes, codes = reader_boxes(reading, back)
            unjudged = over_cut(boxes, cut)
            pairs = match(truth, boxes)
            right = [(truth_codes[i], codes[j]) for i, j in pairs]
            n_right = sum(t == r for t, r in right)
            all_right = len(pairs) == len(truth) and n_right == len(truth)
            missed = miss_kinds(truth, truth_codes, boxes, codes, pairs, (image.shape[1], image.shape[0]))
            line[name] = {"found": len(pairs), "right": n_right, "boxes": len(boxes),
                          "misread": dict(Counter(f"{t}>{r}" for t, r in right if t != r)),
                          "missed": dict(missed)}
            if len(cut):
                line[name]["unjudged"] = len(unjudged)  # boxes on tiles the new frame cuts
            check = None
            if photo.source.startswith(HAND_PHOTO_PREFIX) and not args.all_tiles:
                check = replace(hand_check(pairs, [t.in_hand for t in reading.tiles], codes, truth_codes, unjudged),
                                complete=is_complete(reading.hand.to_json()))
                line[name].update(hand_exact=check.exact, hand_faces_exact=check.faces_exact,
                                  put_in_hand=check.put_in_hand, put_apart=check.put_apart,
                                  put_in_hand_faces=list(check.put_in_faces))
            for tally in counted:
                tally.add(len(truth), len(boxes) - len(unjudged - {j for _, j in pairs}), right, all_right, check,
                          seconds)
                tally.missed += missed
            exact = all_right and (check is None or check.exact)
            if args.annotate and not exact and name == models[0][0]:
                reading.save_annotated(args.annotate / f"{photo.source}.jpg")
        print(json.dumps(line), flush=True)
        if number % 10 == 0:
            print(f"{number}/{len(chosen)} photos", file=sys.stderr, flush=True)
    for name, tally in tallies.items():
        print(json.dumps({"model": name, "turn": args.turn, "as_stored": args.as_stored, "tilt": args.tilt,
                          "steep": args.steep, "far": args.far, "near": args.near,
                          "grey": args.grey, "camera_fault": ":".join(map(str, args.camera_fault or ())) or None,
                          "rules": args.rules,
                          **tally.summary()}))
    for name, tally in unturned.items():
        print(json.dumps({"model": name, "photos_kept": "unturned (labels the labeller's own)", "turn": args.turn,
                          **tally.summary()}))
    if args.picture:
        from eval_classifier import confusion_picture  # a script beside this one

        pairs = tallies[models[0][0]].pairs
        confusion_picture([t for t, _ in pairs], [r for _, r in pairs], args.picture)
    return 0


if __name__ == "__main__":
    sys.exit(main())
