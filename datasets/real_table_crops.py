"""Upright training crops of the labelled tiles in the real table photos (``real_tables``).

    python -m fanscan.datasets.real_table_crops --out work_data/rf_crops

Writes one crop folder per source fold (``OUT/rf-fold0`` ... ``rf-fold4``, each a ``labels.csv``
as ``fanscan export --format crops`` writes it), so ``fanscan train --extra-crops`` takes each fold
as a tile set of its own and ``--hold-out rf-fold4`` keeps whole sources out.

1. Of each source, the least turned version (``real_tables.least_turned``), turned back upright
   where its turn allows (``real_tables.upright_version``): a box around a turned tile holds halves
   of its neighbours too.
2. The augmentation may have mirrored the photo and turned it a quarter: each crop's labelled face
   is scored by the shipped classifier in the eight ways it could lie (four turns, mirrored or
   not). Mirroring is a property of the photo: it is decided on the sum over all its crops, once,
   and kept in ``datasets/labels/rf_mirrored.csv`` (decided by the stage-7 classifier, session
   22's), so that the photos every benchmark and fit reads, and the boxes reviewed on them, stay
   the same whatever classifier is shipped later (the stage-8 one would mirror 7 of the 87
   held-out photos otherwise); a photo not listed is decided by the classifier given. A turn
   is a property of each tile, but the tiles of one photo mostly share one: a crop's turn is the
   most probable under a prior over turns fitted to that photo (a few EM steps), so a tile the
   classifier cannot read follows its row instead of a guess.
3. Each crop is written turned and unmirrored so that its face stands upright (or upside down:
   the classifier learns both).
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from fanscan.datasets.real_tables import (
    FOLDS, TablePhoto, UprightPhoto, least_turned, load_table_photos, upright_version)
from fanscan.scoring.tiles import CLASS_LABELS

EM_STEPS = 5
MIRRORED_FILE = Path(__file__).resolve().parent / "labels" / "rf_mirrored.csv"


@dataclass(frozen=True)
class UprightCrops:
    """One photo's crops, turned upright, with their codes; ``mirrored`` when the photo was."""

    crops: list[np.ndarray]
    codes: tuple[str, ...]
    mirrored: bool
    turns: tuple[int, ...]  # quarter turns counter-clockwise applied to each crop


def box_crops(image: np.ndarray, boxes: np.ndarray) -> list[np.ndarray]:
    """The pixels inside each box (at least 2 x 2)."""
    height, width = image.shape[:2]
    crops = []
    for x0, y0, x1, y1 in boxes:
        left, top = int(np.clip(np.floor(x0), 0, width - 2)), int(np.clip(np.floor(y0), 0, height - 2))
        right = int(np.clip(np.ceil(x1), left + 2, width))
        bottom = int(np.clip(np.ceil(y1), top + 2, height))
        crops.append(np.ascontiguousarray(image[top:bottom, left:right]))
    return crops


def _ways(crop: np.ndarray) -> list[np.ndarray]:
    """The crop in its eight ways: turns 0-3 as is, then turns 0-3 mirrored."""
    mirror = crop[:, ::-1]
    return [np.ascontiguousarray(np.rot90(c, k)) for c in (crop, mirror) for k in range(4)]


def label_log_probs(classifier, crops: Sequence[np.ndarray], codes: Sequence[str]) -> np.ndarray:
    """(n, 8): log probability of each crop's labelled code in each of its eight ways."""
    if not crops:
        return np.zeros((0, 8))
    ways = [way for crop in crops for way in _ways(crop)]
    probs = classifier.one_look(ways).reshape(len(crops), 8, -1)
    index = np.array([CLASS_LABELS.index(code) for code in codes])
    return np.log(probs[np.arange(len(crops)), :, index] + 1e-6)


def choose_turns(log_probs: np.ndarray, steps: int = EM_STEPS) -> tuple[np.ndarray, np.ndarray]:
    """Each crop's turn (0-3) among four ways' log probabilities (n, 4), under a prior over turns
    fitted to the crops themselves (EM on a mixture); also the fitted prior."""
    prior = np.full(4, 0.25)
    for _ in range(steps):
        joint = log_probs + np.log(prior)
        posterior = np.exp(joint - joint.max(axis=1, keepdims=True))
        posterior /= posterior.sum(axis=1, keepdims=True)
        prior = (posterior.sum(axis=0) + 0.5) / (len(log_probs) + 2.0)
    return (log_probs + np.log(prior)).argmax(axis=1), prior


def photo_as_taken(photo: TablePhoto, classifier,
                   version: UprightPhoto | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The photo as someone took it, as the benchmarks and fits read it: turned back upright
    where its turn allows and flipped back when the augmentation mirrored it (decided by
    ``upright_crops``), with its labelled boxes (x0 y0 x1 y1) moved alike. ``version``: its
    ``upright_version`` when the caller has it already."""
    version = version if version is not None else upright_version(photo)
    image, boxes = (version.image, version.boxes.copy()) if version else (photo.load(), photo.boxes.copy())
    mirrored = recorded_mirrors().get(photo.path.name)
    if mirrored if mirrored is not None else upright_crops(photo, classifier, version).mirrored:
        image = np.ascontiguousarray(image[:, ::-1])
        boxes[:, [0, 2]] = image.shape[1] - boxes[:, [2, 0]]
    return image, boxes


@lru_cache(maxsize=1)
def recorded_mirrors(path: Path = MIRRORED_FILE) -> dict[str, bool]:
    """The recorded mirror decisions (photo file name -> mirrored); empty without the file."""
    if not path.is_file():
        return {}
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    return {row["photo"]: row["mirrored"] == "1" for row in rows}


def upright_crops(photo: TablePhoto, classifier, version: UprightPhoto | None = None,
                  recorded: bool = True) -> UprightCrops:
    """Step 2 and 3 for one photo (turned back upright first where its turn allows; ``version``:
    its ``upright_version`` when the caller has it already); mirrored as recorded
    (``recorded_mirrors``) where the photo is listed, unless ``recorded`` is false."""
    version = version if version is not None else upright_version(photo)
    image, boxes = (version.image, version.boxes) if version is not None else (photo.load(), photo.boxes)
    crops = box_crops(image, boxes)
    scores = label_log_probs(classifier, crops, photo.codes)
    if len(crops) == 0:
        return UprightCrops([], (), False, ())
    as_is, mirrored_scores = scores[:, :4], scores[:, 4:]
    mirrored = recorded_mirrors().get(photo.path.name) if recorded else None
    if mirrored is None:
        mirrored = bool(mirrored_scores.max(axis=1).sum() > as_is.max(axis=1).sum())
    chosen = mirrored_scores if mirrored else as_is
    turns, _ = choose_turns(chosen)
    out = []
    for crop, turn in zip(crops, turns):
        base = crop[:, ::-1] if mirrored else crop
        out.append(np.ascontiguousarray(np.rot90(base, int(turn))))
    return UprightCrops(out, photo.codes, mirrored, tuple(int(t) for t in turns))


def write_folds(photos: Sequence[TablePhoto], out: Path, classifier, progress=None) -> dict[str, int]:
    """Crops of ``photos`` into ``out/rf-fold<k>`` folders; the crop count per folder."""
    from fanscan.datasets.formats.crops import CropRow, format_crops
    from fanscan.atomic import write_text_atomic

    rows: dict[int, list[CropRow]] = {fold: [] for fold in range(FOLDS)}
    for number, photo in enumerate(photos, start=1):
        result = upright_crops(photo, classifier)
        folder = out / f"rf-fold{photo.fold}"
        for index, (crop, code) in enumerate(zip(result.crops, result.codes), start=1):
            file = f"{code}/{photo.source}_{index:03d}.png"
            (folder / code).mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(folder / file), crop)
            rows[photo.fold].append(CropRow(file, code))
        if progress is not None:
            progress(number, len(photos), photo, result)
    for fold, fold_rows in rows.items():
        folder = out / f"rf-fold{fold}"
        folder.mkdir(parents=True, exist_ok=True)
        write_text_atomic(folder / "labels.csv", format_crops(fold_rows))
    return {f"rf-fold{fold}": len(fold_rows) for fold, fold_rows in rows.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for the crop folders")
    parser.add_argument("--limit", type=int, help="only the first N sources (a quick trial)")
    parser.add_argument("--record-mirrors", type=Path, metavar="CLASSIFIER",
                        help="decide each photo's mirror with this classifier (ignoring the record) "
                        "and write the decisions to --out as rf_mirrored.csv, cutting no crops")
    args = parser.parse_args(argv)
    from fanscan.vision.classifier import TileClassifier, default_classifier

    photos = load_table_photos()
    if not photos:
        print("../shared/data/rf-chinese is not here", file=sys.stderr)
        return 1
    chosen = least_turned(photos)[: args.limit]
    if args.record_mirrors:
        judge = TileClassifier(args.record_mirrors)
        rows = ["photo,mirrored"]
        rows += [f"{p.path.name},{int(upright_crops(p, judge, recorded=False).mirrored)}" for p in chosen]
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / MIRRORED_FILE.name).write_text("\n".join(rows) + "\n", encoding="utf-8")
        print(f"{len(chosen)} photos, {sum(r.endswith(',1') for r in rows)} mirrored: {args.out / MIRRORED_FILE.name}")
        return 0
    mirrored = 0

    def progress(number: int, total: int, photo: TablePhoto, result: UprightCrops) -> None:
        nonlocal mirrored
        mirrored += result.mirrored
        if number % 20 == 0 or number == total:
            print(f"{number}/{total} photos, {mirrored} mirrored", file=sys.stderr, flush=True)

    counts = write_folds(chosen, args.out, default_classifier(), progress)
    print(counts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
