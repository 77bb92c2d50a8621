"""Crops of boxes that hold no tile, cut the way the reader cuts its boxes: the classifier's ``none``.

The tile finder boxes things that are no tile (a rack's rim, a table's wooden edge, felt, a tile's
side, a box across two touching tiles), and the classifier, which knew only the 42 faces and the
back, named each of them as some face. These crops teach it a 44th answer, ``none``
(``fanscan.scoring.tiles.NO_TILE``). Five sources, each a crop folder in the ``fanscan export
--format crops`` layout (``labels.csv``, every label ``none``):

1. ``tables``: generated tables (``scenes.generate_scene(clutter=True)``, a third standing hands):
   every box the reader finds (``locate``) that overlaps no drawn tile (the truth's tiles and its
   ``unseen`` ones) by ``NONE_IOU`` or more.
2. ``straddles``: on the same scenes, boxes laid across two touching face-up tiles, between
   ``STRADDLE`` of the way from one tile's true corners to the next's: a box the finder sometimes
   draws where it merged two faces, which shows two halves and no tile.
3. ``no_tiles``: every box the reader finds on generated photos of no tiles (``no_tile_photos``).
4. ``real``: boxes on the real table photos of ``../shared/data/rf-chinese`` (folds given, never
   the held-out one) that the reader found over no labelled tile, looked at by a person and kept
   only where they hold no tile (``datasets/labels/rf_no_tile_boxes.csv``, the quads in the
   upright, unmirrored photo as ``real_table_crops.photo_as_taken`` makes it). ``propose`` writes
   the candidates and a contact sheet for that review. The file also holds the held-out fold's
   boxes, reviewed alike, for measuring the answer (``benchmarks/bench_no_tile.py``); crops are
   never cut from them.
5. ``busy``: the same as ``tables`` on busy generated tables (``textures.BUSY_TABLE_KINDS``: rubber
   and puzzle mats, photographed tops; ``scene_props``: a rack, dice, coins, a phone, fingers; half
   of them with walls and discards): the pips of a die, a coin's rim, a mat's squares.

Each crop is cut at the reader's crop size and decode scale, turned the way the reader would try
the box (up or down its frame's ``up``, a sideways box either way along the row) and, for a
quarter of them, a quarter turn off (the reader's turned trials): "no tile" holds whichever way
it is cut. A crop with no structure (``plain``) is left out: a blank white dragon or a plain back
looks just so, and a first model taught such crops as "none" took 12 of the 41 labelled white
dragons of the held-out real photos for no tile.

    python -m fanscan.datasets.no_tile_crops --scenes 5000000:5000300 --no-tile-seeds 600000:600200 \
        --real-folds 0,1,2,3 [--busy-seeds 5100000:5100600] --out work_data/no_tile_crops

Seeds: generated tables from 5,000,000, busy ones from 5,100,000, photos of no tiles from 600,000
(``fit_tile_photo`` and ``bench_tile_photo`` draw theirs below).
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from fanscan.atomic import atomic_path, write_text_atomic
from fanscan.datasets.formats.crops import CropRow, format_crops
from fanscan.datasets.scene_crops import parse_seeds
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import BACK, NO_TILE
from fanscan.vision import geometry
from fanscan.vision.detections import TileDetections
from fanscan.vision.image_io import Photo, load_photo
from fanscan.vision.locate import CROP_MIN_SIDE, locate
from fanscan.vision.numeric import quad_iou
from fanscan.vision.tile_reading import CROP_H, CROP_W

NONE_IOU = 0.2
"""A found box counts as no tile only when it overlaps every drawn tile less than this (a box of
IoU 0.2-0.5 is a tile's poor box: neither a tile's crop nor none)."""
STRADDLE = (0.4, 0.6)
"""A straddling box lies this share of the way from a tile's corners to its neighbour's."""
STRADDLES_PER_SCENE = 4
TURNED_SHARE = 0.25
"""The share of crops cut a quarter turn off their frame."""
PLAIN_BELOW = 12.0
"""A crop whose grey levels spread (standard deviation, on a 48 x 64 copy) less than this is plain:
a quarter of the labelled white dragons of the real table photos are (their crops' lower quartile
is 4-36 by fold), as are plain backs."""
SHEET_COLUMNS = 12
REVIEW_FILE = Path(__file__).resolve().parent / "labels" / "rf_no_tile_boxes.csv"
REVIEW_HEADER = ("source", "x0", "y0", "x1", "y1", "x2", "y2", "x3", "y3", "verdict")
VERDICTS = ("none", "tile", "unsure")


@dataclass(frozen=True)
class ReviewedBox:
    """A box on a real photo (quad in the upright, unmirrored photo) and what a person saw in it."""

    source: str
    quad: np.ndarray
    verdict: str


def parse_review(text: str, name: str = "rf_no_tile_boxes.csv") -> list[ReviewedBox]:
    """The rows of a review file; every verdict one of ``VERDICTS``."""
    reader = csv.reader(io.StringIO(text))
    if tuple(next(reader, ())) != REVIEW_HEADER:
        raise FanscanError("bad_dataset", f"{name}: the first line must be {','.join(REVIEW_HEADER)}")
    out = []
    for number, cells in enumerate(reader, start=2):
        if not cells:
            continue
        if len(cells) != len(REVIEW_HEADER) or cells[-1] not in VERDICTS:
            raise FanscanError("bad_dataset", f"{name} line {number}: expected a source, 8 numbers "
                                              f"and one of {', '.join(VERDICTS)}")
        try:
            quad = np.array([float(v) for v in cells[1:9]], np.float32).reshape(4, 2)
        except ValueError:
            raise FanscanError("bad_dataset", f"{name} line {number}: the corners must be numbers") from None
        out.append(ReviewedBox(cells[0], quad, cells[-1]))
    return out


def format_review(boxes: Sequence[ReviewedBox]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(REVIEW_HEADER)
    for box in boxes:
        writer.writerow([box.source, *(f"{v:.1f}" for v in box.quad.reshape(-1)), box.verdict])
    return buffer.getvalue()


def plain(crop: np.ndarray) -> bool:
    """Whether a crop shows no structure (``PLAIN_BELOW``): as likely a blank face or a back."""
    grey = cv2.cvtColor(cv2.resize(crop, (48, 64), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    return float(grey.astype(np.float32).std()) < PLAIN_BELOW


def reader_cut(photo: Photo, quad: np.ndarray, up: np.ndarray, right: np.ndarray, sideways: bool,
               scale: int, rng: np.random.Generator | None) -> np.ndarray:
    """``quad`` cut as the reader might try it: along ``up`` either way (a sideways box along
    ``right``), a quarter turn off for ``TURNED_SHARE`` of the cuts; with no ``rng``, as the
    reader first cuts it (for a person to judge: a tile cut a quarter turn off looks like halves)."""
    along = right if sideways else up
    if rng is not None and rng.random() < TURNED_SHARE:
        along = right if along is up else up
    along = along if rng is None or rng.random() < 0.5 else -along
    return photo.crop_quad(geometry.orient_box(quad, along), CROP_W, CROP_H, scale)


def _frame_cuts(photo: Photo, quads: Sequence[np.ndarray], frame_quads: np.ndarray,
                rng: np.random.Generator | None) -> list[np.ndarray]:
    """``quads`` cut in the frame the reader would read the boxes ``frame_quads`` in."""
    if not len(quads):
        return []
    right, up = geometry.hand_frame(frame_quads)
    stack = np.stack(quads).astype(np.float32)
    sideways = geometry.sideways_flags(stack, right, up)
    scale = photo.scale_for(frame_quads, CROP_MIN_SIDE)
    return [reader_cut(photo, q, up, right, s, scale, rng) for q, s in zip(stack, sideways)]


def _overlaps_a_tile(quad: np.ndarray, tiles: Sequence[np.ndarray]) -> bool:
    centre = quad.mean(axis=0)
    reach = float(np.linalg.norm(quad[0] - quad[2]))
    return any(float(np.linalg.norm(t.mean(axis=0) - centre)) < reach + float(np.linalg.norm(t[0] - t[2]))
               and quad_iou(quad, t) >= NONE_IOU for t in tiles)


def straddles(tiles: Sequence[np.ndarray], rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """Up to ``count`` boxes each laid across two touching tiles (nearest neighbours about a tile's
    width apart), ``STRADDLE`` of the way from one's corners to the other's."""
    if len(tiles) < 2:
        return []
    quads = np.stack(tiles).astype(np.float32)
    centres = quads.mean(axis=1)
    widths = np.array([min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1])) for q in quads])
    apart = np.linalg.norm(centres[:, None] - centres[None], axis=2) + np.eye(len(quads)) * 1e9
    nearest = apart.argmin(axis=1)
    touching = [i for i in range(len(quads)) if apart[i, nearest[i]] < 1.3 * widths[i]]
    out = []
    for i in rng.permutation(touching)[:count]:
        j = nearest[i]
        # Corner k of one tile goes to the other's nearest corner: the two may list them in
        # different orders.
        partner = quads[j][[int(np.argmin(np.linalg.norm(quads[j] - (c + centres[j] - centres[i]), axis=1)))
                            for c in quads[i]]]
        t = rng.uniform(*STRADDLE)
        out.append(quads[i] + (partner - quads[i]) * np.float32(t))
    return out


def _boxes_over_no_tile(scene) -> tuple[Photo, np.ndarray, list[np.ndarray]]:
    """A generated scene's photo, the frame its boxes are cut in (the reader's boxes, or the drawn
    tiles where it found none), and the boxes the reader finds over no drawn tile (the truth's
    tiles and its ``unseen`` ones)."""
    photo = load_photo(scene.jpeg)
    _, found = locate(photo)
    drawn = [t.quad for t in scene.tiles] + list(scene.unseen)
    frame = found.quads if len(found) else np.stack(drawn)
    return photo, frame, [q for q in found.quads if not _overlaps_a_tile(q, drawn)]


def table_crops(seed: int, rng: np.random.Generator) -> dict[str, list[np.ndarray]]:
    """The ``tables`` and ``straddles`` crops of one generated table."""
    from fanscan.datasets.scenes import generate_scene

    scene = generate_scene(seed, clutter=True, standing=seed % 3 == 0)
    photo, frame, boxes = _boxes_over_no_tile(scene)
    # Straddles across face-up tiles only: two halves of plain backs look like a back.
    faces = [t.quad for t in scene.tiles if t.code != BACK]
    across = [q for q in straddles(faces, rng, STRADDLES_PER_SCENE)]
    return {"tables": _frame_cuts(photo, boxes, frame, rng), "straddles": _frame_cuts(photo, across, frame, rng)}


MOST_BUSY_BOXES = 12
"""At most this many boxes of one busy table are cut, drawn at random: a patterned top the finder
boxes all over would otherwise give hundreds of crops of one picture and crowd out the rest."""


def busy_crops(seed: int, rng: np.random.Generator) -> list[np.ndarray]:
    """The boxes over no drawn tile on one busy generated table (``BUSY_TABLE_KINDS``, props; every
    other seed with walls and discards), cut as the reader would cut them."""
    from fanscan.datasets.scenes import generate_scene
    from fanscan.datasets.textures import BUSY_TABLE_KINDS

    scene = generate_scene(seed, clutter=seed % 2 == 0, tables=BUSY_TABLE_KINDS, props=True)
    photo, frame, boxes = _boxes_over_no_tile(scene)
    if len(boxes) > MOST_BUSY_BOXES:
        boxes = [boxes[i] for i in sorted(rng.choice(len(boxes), MOST_BUSY_BOXES, replace=False))]
    return _frame_cuts(photo, boxes, frame, rng)


def no_tile_crops(seed: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Every box the reader finds on one generated photo of no tiles, cut as it would cut it."""
    from fanscan.datasets.no_tile_photos import no_tile_photo

    image, _ = no_tile_photo(seed)
    photo = load_photo(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes())
    _, found = locate(photo)
    return _frame_cuts(photo, list(found.quads), found.quads, rng) if len(found) else []


def _real_photos(folds: Sequence[int], for_training: bool = True) -> list:
    from fanscan.datasets.real_tables import HELD_OUT_FOLD, in_folds, least_turned, load_table_photos

    if for_training and HELD_OUT_FOLD in folds:
        raise FanscanError("bad_option", f"fold {HELD_OUT_FOLD} is held out from every model")
    return [p for p in least_turned(in_folds(load_table_photos(), list(folds))) if len(p.codes)]


@dataclass(frozen=True)
class BoxedPhoto:
    """A real table photo as taken (``real_table_crops.photo_as_taken``), the reader's boxes on it
    (``locate``) and its labels as quads."""

    photo: Photo
    found: TileDetections
    labels: list[np.ndarray]


def boxed(table, judge) -> BoxedPhoto | None:
    """``table`` read up to the reader's boxes; None when the reader finds none or refuses it."""
    from fanscan.datasets.real_table_crops import photo_as_taken

    image, labels = photo_as_taken(table, judge)
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    try:
        _, found = locate(photo)
    except FanscanError:
        return None
    quads = [np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32) for x0, y0, x1, y1 in labels]
    return BoxedPhoto(photo, found, quads) if len(found) else None


def propose(folds: Sequence[int], out: Path) -> int:
    """Write the candidate boxes of no tile on the real photos of ``folds`` for review: the reader's
    boxes over no labelled tile (IoU under ``NONE_IOU`` with every label) inside the labelled
    tiles' region grown by a tile, as ``out/candidates.csv`` (verdict ``unsure``) and contact
    sheets ``out/sheet_NNN.png`` numbered in the file's order. Returns the number of candidates."""
    from fanscan.vision.classifier import default_classifier

    judge = default_classifier()
    boxes: list[ReviewedBox] = []
    crops: list[np.ndarray] = []
    for table in tqdm(_real_photos(folds, for_training=False), desc="real photos", unit="photo"):
        read = boxed(table, judge)
        if read is None or not read.labels:
            continue
        tile = float(np.median([np.linalg.norm(q[0] - q[2]) for q in read.labels]))
        corners = np.concatenate(read.labels)
        lo, hi = corners.min(axis=0) - tile, corners.max(axis=0) + tile
        chosen = [q for q in read.found.quads
                  if (q.mean(axis=0) >= lo).all() and (q.mean(axis=0) <= hi).all()
                  and not _overlaps_a_tile(q, read.labels)]
        crops += _frame_cuts(read.photo, chosen, read.found.quads, None)
        boxes += [ReviewedBox(table.source, q, "unsure") for q in chosen]
    out.mkdir(parents=True, exist_ok=True)
    write_text_atomic(out / "candidates.csv", format_review(boxes))
    for number, start in enumerate(range(0, len(crops), SHEET_COLUMNS * 6)):
        cv2.imwrite(str(out / f"sheet_{number:03d}.png"), contact_sheet(crops[start : start + SHEET_COLUMNS * 6], start))
    return len(boxes)


def contact_sheet(crops: Sequence[np.ndarray], first: int) -> np.ndarray:
    """The crops side by side, ``SHEET_COLUMNS`` a row, each numbered from ``first``."""
    rows = -(-len(crops) // SHEET_COLUMNS)
    sheet = np.full((rows * (CROP_H + 16), SHEET_COLUMNS * (CROP_W + 4), 3), 255, np.uint8)
    for k, crop in enumerate(crops):
        y, x = (k // SHEET_COLUMNS) * (CROP_H + 16), (k % SHEET_COLUMNS) * (CROP_W + 4)
        sheet[y + 16 : y + 16 + CROP_H, x : x + CROP_W] = cv2.resize(crop, (CROP_W, CROP_H))
        cv2.putText(sheet, str(first + k), (x + 2, y + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1)
    return sheet


def real_crops(folds: Sequence[int], reviewed: Sequence[ReviewedBox]) -> list[np.ndarray]:
    """The reviewed boxes judged ``none`` on the photos of ``folds``, cut as the reader would."""
    from fanscan.datasets.real_table_crops import photo_as_taken
    from fanscan.vision.classifier import default_classifier

    by_source: dict[str, list[np.ndarray]] = {}
    for box in reviewed:
        if box.verdict == "none":
            by_source.setdefault(box.source, []).append(box.quad)
    judge = default_classifier()
    rng = np.random.default_rng(1)
    out: list[np.ndarray] = []
    for table in _real_photos(folds):
        if table.source not in by_source:
            continue
        image, labels = photo_as_taken(table, judge)
        photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
        frame = np.stack([np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32) for x0, y0, x1, y1 in labels])
        out += _frame_cuts(photo, by_source[table.source], frame, rng)
    return out


def _write(folder: Path, name: str, crops: Iterable[np.ndarray]) -> int:
    """Write the crops that are not ``plain`` into ``folder``; how many."""
    rows = []
    for k, crop in enumerate(c for c in crops if not plain(c)):
        file = f"{NO_TILE}/{name}_{k:05d}.png"
        with atomic_path(folder / file) as temp:
            if not cv2.imwrite(str(temp), crop):
                raise FanscanError("write_failed", f"could not write the crop {folder / file}")
        rows.append(CropRow(file, NO_TILE))
    write_text_atomic(folder / "labels.csv", format_crops(rows))
    return len(rows)


def _generated(seeds: range, make) -> Iterator:
    for seed in tqdm(seeds, desc=make.__name__, unit="photo"):
        try:
            yield make(seed, np.random.default_rng(seed))
        except FanscanError as error:  # e.g. a photo refused as too large: one photo, not the run
            print(f"seed {seed}: {error.message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, type=Path, help="folder for the crop folders")
    parser.add_argument("--scenes", help="generated table seeds START:END")
    parser.add_argument("--no-tile-seeds", help="generated photos of no tiles, seeds START:END")
    parser.add_argument("--busy-seeds", help="busy generated tables (mats, photographed tops, props), seeds START:END")
    parser.add_argument("--real-folds", help="rf-chinese folds whose reviewed boxes to cut (e.g. 0,1,2,3)")
    parser.add_argument("--propose", action="store_true",
                        help="with --real-folds: write candidate boxes and contact sheets to review "
                        "(the held-out fold too: its reviewed boxes measure the answer, never train it)")
    args = parser.parse_args(argv)
    try:
        folds = [int(f) for f in args.real_folds.split(",")] if args.real_folds else []
        if args.propose:
            if not folds:
                raise FanscanError("bad_option", "--propose needs --real-folds")
            print(f"{propose(folds, args.out)} candidates in {args.out}/candidates.csv")
            return 0
        if args.scenes:
            tables, across = [], []
            for made in _generated(parse_seeds(args.scenes), table_crops):
                tables += made["tables"]
                across += made["straddles"]
            print(f"tables: {_write(args.out / 'tables', 'table', tables)} crops, "
                  f"straddles: {_write(args.out / 'straddles', 'straddle', across)}")
        if args.busy_seeds:
            crops = [c for made in _generated(parse_seeds(args.busy_seeds), busy_crops) for c in made]
            print(f"busy: {_write(args.out / 'busy', 'busy', crops)} crops")
        if args.no_tile_seeds:
            crops = [c for made in _generated(parse_seeds(args.no_tile_seeds), no_tile_crops) for c in made]
            print(f"no tiles: {_write(args.out / 'no_tiles', 'photo', crops)} crops")
        if folds:
            reviewed = parse_review(REVIEW_FILE.read_text(encoding="utf-8"), REVIEW_FILE.name)
            print(f"real: {_write(args.out / 'real', 'real', real_crops(folds, reviewed))} crops")
    except FanscanError as error:
        print(f"error: {error.message}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
