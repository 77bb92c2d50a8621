"""``fanscan classify`` on real crops cut the ways people cut them: tight, turned a quarter, loose.

    python benchmarks/bench_crops.py [--model CLASSIFIER.onnx] [--camerash 300]

Crops: the labelled tiles of rf-chinese's held-out fold (``real_tables.HELD_OUT_FOLD``; never seen
by the shipped classifier), each cut along its label and turned upright as
``datasets.real_table_crops`` does, and ``--camerash`` random crops of camerash's labelled tiles
(seen in training: they test the cut, not the design). Each is read tight as cut, turned a quarter
clockwise, with a margin of a quarter of its size each way (the photo's own pixels around a label
can be off the photo: the edge repeated), and camerash's also with half its size of plain wood
colour each way, and so turned. Each way is read by the classifier as it is (``named``, the crop
as given) and as ``fanscan classify`` reads it (``crop_reading.read_crops``), side by side.
Needs ../shared/data.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

WOOD_BGR = (150, 180, 205)


def _margin(image: np.ndarray, share: float, colour: tuple[int, int, int] | None = None) -> np.ndarray:
    h, w = image.shape[:2]
    mh, mw = max(1, round(h * share)), max(1, round(w * share))
    if colour is None:
        return cv2.copyMakeBorder(image, mh, mh, mw, mw, cv2.BORDER_REPLICATE)
    return cv2.copyMakeBorder(image, mh, mh, mw, mw, cv2.BORDER_CONSTANT, value=colour)


def _turned(image: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, help="classifier ONNX (default: the shipped one)")
    parser.add_argument("--camerash", type=int, default=300, help="camerash crops drawn (seed 0)")
    args = parser.parse_args(argv)

    from fanscan.datasets.real_table_crops import upright_crops
    from fanscan.datasets.real_tables import HELD_OUT_FOLD, in_folds, least_turned, load_table_photos
    from fanscan.datasets.real_tiles import load_real_crops
    from fanscan.vision.classifier import TileClassifier, default_classifier
    from fanscan.vision.crop_reading import read_crops
    from fanscan.vision.flowers import default_flower_looks

    classifier = TileClassifier(args.model) if args.model else default_classifier()
    looks = default_flower_looks()
    photos = [p for p in least_turned(in_folds(load_table_photos(), [HELD_OUT_FOLD])) if len(p.codes)]
    if not photos:
        print("../shared/data/rf-chinese is not here", file=sys.stderr)
        return 1
    held, held_codes = [], []
    for n, photo in enumerate(photos, start=1):
        cut = upright_crops(photo, default_classifier())
        for crop, code in zip(cut.crops, cut.codes):
            if min(crop.shape[:2]) >= 8:
                held.append(crop)
                held_codes.append(code)
        if n % 20 == 0:
            print(f"{n}/{len(photos)} photos cut", file=sys.stderr, flush=True)
    pool = load_real_crops()
    drawn = np.random.default_rng(0).choice(len(pool), min(args.camerash, len(pool)), replace=False)
    seen, seen_codes = [pool[i].load() for i in drawn], [pool[i].code for i in drawn]

    ways: list[tuple[str, list[np.ndarray], list[str], Callable[[np.ndarray], np.ndarray]]] = [
        ("fold 4 (held out), tight", held, held_codes, lambda c: c),
        ("fold 4, turned a quarter", held, held_codes, _turned),
        ("fold 4, a quarter's margin", held, held_codes, lambda c: _margin(c, 0.25)),
        ("camerash, tight", seen, seen_codes, lambda c: c),
        ("camerash, turned a quarter", seen, seen_codes, _turned),
        ("camerash, half its size of wood", seen, seen_codes, lambda c: _margin(c, 0.5, WOOD_BGR)),
        ("camerash, a quarter of wood, turned", seen, seen_codes, lambda c: _turned(_margin(c, 0.25, WOOD_BGR))),
    ]
    print("| crops | n | as given | as `fanscan classify` reads them | ms a crop (as given / classify) |")
    print("|---|---:|---:|---:|---:|")
    for name, crops, codes, cut_so in ways:
        if not crops:  # --camerash 0
            continue
        images = [cut_so(c) for c in crops]
        start = time.perf_counter()
        named = classifier.named(images, looks)[0]
        middle = time.perf_counter()
        read = [r.code for r in read_crops(images, classifier, looks)]
        end = time.perf_counter()
        before = np.mean([a == b for a, b in zip(named, codes)])
        after = np.mean([a == b for a, b in zip(read, codes)])
        print(f"| {name} | {len(codes)} | {100 * before:.2f} % | {100 * after:.2f} % | "
              f"{1000 * (middle - start) / len(codes):.1f} / {1000 * (end - middle) / len(codes):.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
