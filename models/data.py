"""Training arrays: pre-rendered synthetic crops (cached on disk) and the real crops, resized.

Both come as (images (n, h, w, 3) BGR uint8 at the model's input size, labels (n,) int64 class
indices). Synthetic crops are rendered once per (count, seed, styles, size) into
``<work_dir>/synth`` and memory-mapped afterwards, since rendering is the slow part.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from fanscan.atomic import atomic_path
from fanscan.datasets.real_tiles import RealCrop
from fanscan.datasets.synth_tiles import generate
from fanscan.scoring.tiles import CLASSIFIER_LABELS, NO_TILE
from fanscan.vision.preprocess import PreprocessSpec, as_bgr, resize_crop

SYNTH_VERSION = 4  # bump when the generator changes, so stale caches are not reused
_INDEX = {code: i for i, code in enumerate(CLASSIFIER_LABELS)}


@dataclass(frozen=True)
class ArraySet:
    """Resized crops and their class indices."""

    images: np.ndarray
    labels: np.ndarray

    def __len__(self) -> int:
        return len(self.labels)


def synthetic_set(count: int, seed: int, styles: Sequence[str], spec: PreprocessSpec,
                  work_dir: Path, codes: Sequence[str] = ()) -> ArraySet:
    """``count`` rendered crops at the input size (of ``codes`` only, when given), from the cache
    when it holds them."""
    key = f"{SYNTH_VERSION}-{count}-{seed}-{','.join(styles)}-{spec.width}x{spec.height}"
    if codes:
        key += "-" + ",".join(codes)
    stem = work_dir / "synth" / hashlib.sha1(key.encode()).hexdigest()[:16]
    images_path, labels_path = stem.with_suffix(".images.npy"), stem.with_suffix(".labels.npy")
    if not (images_path.is_file() and labels_path.is_file()):
        images = np.zeros((count, spec.height, spec.width, 3), np.uint8)
        labels = np.zeros(count, np.int64)
        crops = generate(count, seed, styles, codes)
        for i, crop in enumerate(tqdm(crops, total=count, desc="rendering tiles", unit="tile")):
            images[i] = resize_crop(crop.image, spec)
            labels[i] = _INDEX[crop.code]
        with atomic_path(labels_path) as temp:
            np.save(temp, labels)
        with atomic_path(images_path) as temp:
            np.save(temp, images)
    return ArraySet(np.load(images_path, mmap_mode="r"), np.load(labels_path))


def no_tile_set(folders: Sequence[Path], spec: PreprocessSpec) -> tuple[ArraySet, list[np.ndarray]]:
    """The crops of no tile in ``folders`` (each a ``labels.csv`` in the crops layout whose every
    label is ``NO_TILE``, as ``fanscan.datasets.no_tile_crops`` writes them), resized, and the
    indices of each folder's crops (a source each: drawn evenly, whatever their sizes)."""
    import csv

    import cv2

    from fanscan.errors import FanscanError

    paths: list[Path] = []
    sources: list[np.ndarray] = []
    for folder in folders:
        try:
            with open(Path(folder) / "labels.csv", newline="", encoding="utf-8") as handle:
                rows = list(csv.DictReader(handle))
        except OSError as error:
            raise FanscanError("bad_dataset", f"{folder}: no readable labels.csv ({error.strerror})") from None
        for number, row in enumerate(rows, start=2):
            if row.get("label") != NO_TILE or not row.get("file"):
                raise FanscanError("bad_dataset", f"{folder}/labels.csv line {number}: expected 'FILE,{NO_TILE}'")
            paths.append(Path(folder) / row["file"])
        sources.append(np.arange(len(paths) - len(rows), len(paths)))
    images = np.zeros((len(paths), spec.height, spec.width, 3), np.uint8)
    for i, path in enumerate(paths):
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise FanscanError("bad_dataset", f"{path}: not an image")
        images[i] = resize_crop(image, spec)
    return ArraySet(images, np.full(len(paths), _INDEX[NO_TILE], np.int64)), [s for s in sources if len(s)]


def real_set(crops: Sequence[RealCrop], spec: PreprocessSpec) -> ArraySet:
    """The real ``crops`` loaded and resized to the input size."""
    images = np.zeros((len(crops), spec.height, spec.width, 3), np.uint8)
    for i, crop in enumerate(crops):
        images[i] = resize_crop(as_bgr(crop.load(), str(crop.path)), spec)
    return ArraySet(images, np.array([_INDEX[c.code] for c in crops], np.int64))
