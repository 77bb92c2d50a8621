"""Fit the reader's "does this photo show tiles?" model (``vision.tile_photo``).

    python -m fanscan.models.fit_tile_photo --folds 0,1,2,3 --scenes 50000-50299 \
        --no-tiles 0-599 --cache work_data/tile_photo_cases.pkl --out models/tile_photo.json

1. Photos of tiles: the real table photos of the rf-chinese source folds ``--folds`` (the least
   turned version of each source as it lies on disk, and again turned back upright and
   unmirrored as ``bench_real_tables`` reads it: which way up a photo lies is no evidence; fold
   4 is held out for the benchmark) and generated scenes ``--scenes`` (in turn plain, on a cluttered table, standing mid-game). Photos of none:
   ``datasets.no_tile_photos`` seeds ``--no-tiles`` (the Debian pictures are never fitted on:
   the benchmark tests on them).
2. Each photo is read as the reader reads it up to its third step (``locate``, ``read_tiles``);
   a photo in which the finder boxes nothing needs no model and is left out.
3. A logistic regression (``fit_evidence.fit_logistic``: L2, Newton's method) of "shows tiles"
   on ``tile_photo.photo_features``.
4. The tile prior: turning a photo of tiles away loses the whole read, while a photo of none let
   through still comes back with its doubts. So the bias is raised by the smallest offset (of a
   grid) at which at most ``LOSE_AT_MOST`` of the fitting photos of tiles are judged to show none:
   the trade-off between the two errors, stated, not fitted.
It writes the model (``--out``, required: the shipped file is ``models/tile_photo.json``) and,
beside it, a sidecar (``*.about.json``) that says what it was fitted on, when, and the fit's
figures.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from fanscan.errors import FanscanError
from fanscan.models.fit_evidence import fit_logistic
from fanscan.vision.tile_photo import FEATURES, TilePhotoModel, photo_features

LOSE_AT_MOST = 0.002
"""The share of the fitting photos of tiles the check may turn away (one in 500)."""
OFFSETS = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
"""Nats added to the model's bias (step 4)."""


def read_boxes(source: str | Path | bytes, classifier: Any = None) -> list:
    """The photo's boxes as read by the reader's first three steps, less the boxes of no tile
    (empty: no box found)."""
    from fanscan.vision import flowers
    from fanscan.vision.classifier import default_classifier
    from fanscan.vision.image_io import load_photo
    from fanscan.vision.locate import locate
    from fanscan.vision.tile_reading import read_tiles, tiles_only

    photo = load_photo(source)
    _, detections = locate(photo)
    if len(detections) == 0:
        return []
    readings, _, _ = read_tiles(photo, detections, classifier or default_classifier(),
                                flowers.default_flower_looks())
    return tiles_only(readings)


def encoded(image: np.ndarray, suffix: str = ".jpg") -> bytes:
    """``image`` as the bytes of a ``suffix`` file (JPEG at quality 92, as a phone saves it)."""
    import cv2

    ok, data = cv2.imencode(suffix, image, [cv2.IMWRITE_JPEG_QUALITY, 92] if suffix == ".jpg" else [])
    if not ok:
        raise RuntimeError(f"{suffix} encoding failed")
    return data.tobytes()


def tile_photos(folds: list[int], scenes: range) -> Iterator[tuple[str, Callable[[], bytes | Path]]]:
    """(name, source) of each photo of tiles: real table photos of ``folds``, then scenes."""
    from fanscan.datasets.real_table_crops import photo_as_taken
    from fanscan.datasets.real_tables import in_folds, least_turned, load_table_photos
    from fanscan.datasets.scenes import generate_scene
    from fanscan.vision.classifier import default_classifier

    if folds:
        judge = default_classifier()
        for photo in least_turned(in_folds(load_table_photos(), folds)):
            yield f"rf:{photo.source}", lambda path=photo.path: path
            if len(photo.codes):  # also turned back upright and unmirrored, as the benchmark reads it
                yield f"rf-upright:{photo.source}", lambda p=photo: encoded(photo_as_taken(p, judge)[0], ".png")
    for seed in scenes:
        kind = seed % 3
        yield f"scene:{seed}", lambda s=seed, k=kind: generate_scene(s, clutter=k == 1, standing=k == 2).jpeg


def no_tile_photos(seeds: range) -> Iterator[tuple[str, Callable[[], bytes | Path]]]:
    from fanscan.datasets.no_tile_photos import no_tile_photo

    for seed in seeds:
        yield f"none:{seed}", lambda s=seed: encoded(no_tile_photo(s)[0])


@dataclass(frozen=True)
class PhotoCase:
    """One fitting photo: its name, whether it shows tiles, and its boxes as read."""

    name: str
    shows_tiles: bool
    readings: list


def capture(photos: Iterator[tuple[str, Callable[[], bytes | Path]]], shows_tiles: bool,
            progress: Callable[[str], None]) -> list[PhotoCase]:
    """The photos' cases; a photo in which the finder boxes nothing is left out."""
    cases = []
    for count, (name, source) in enumerate(photos, 1):
        try:
            readings = read_boxes(source())
        except FanscanError as error:
            progress(f"{name}: {error}")
            continue
        if readings:
            cases.append(PhotoCase(name, shows_tiles, readings))
        if count % 50 == 0:
            progress(f"{count} photos read ({name})")
    return cases


def fit(x: np.ndarray, y: np.ndarray) -> tuple[TilePhotoModel, dict]:
    """The model (steps 3 and 4) and the fit's figures."""
    weights, bias, mean, scale = fit_logistic(x, y)
    plain = TilePhotoModel(tuple(weights), bias, tuple(mean), tuple(scale))
    positives = x[y == 1]
    chosen = OFFSETS[-1]
    for offset in OFFSETS:
        model = TilePhotoModel(tuple(weights), bias + offset, tuple(mean), tuple(scale))
        lost = sum(model.probability(f) < 0.5 for f in positives)
        if lost <= LOSE_AT_MOST * len(positives):
            chosen = offset
            break
    model = TilePhotoModel(tuple(weights), bias + chosen, tuple(mean), tuple(scale))
    judged = np.array([model.probability(f) >= 0.5 for f in x])
    plain_judged = np.array([plain.probability(f) >= 0.5 for f in x])
    figures = {
        "bias_offset": chosen,
        "photos_of_tiles": int(y.sum()), "photos_of_none": int((1 - y).sum()),
        "tiles_judged_none": int((~judged & (y == 1)).sum()),
        "none_judged_tiles": int((judged & (y == 0)).sum()),
        "without_offset": {"tiles_judged_none": int((~plain_judged & (y == 1)).sum()),
                           "none_judged_tiles": int((plain_judged & (y == 0)).sum())},
    }
    return model, figures


def _range(text: str) -> range:
    first, _, last = text.partition("-")
    try:
        return range(int(first), int(last or first) + 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a seed range like 0-599, not {text!r}") from None


def _folds(text: str) -> list[int]:
    try:
        return [int(f) for f in text.split(",") if f.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected folds like 0,1,2,3, not {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folds", type=_folds, default=[0, 1, 2, 3])
    parser.add_argument("--scenes", type=_range, default=range(50000, 50300))
    parser.add_argument("--no-tiles", type=_range, default=range(0, 600))
    parser.add_argument("--cache", type=Path, help="the photos' boxes, read once, kept here (pickle)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    if args.cache is not None and args.cache.is_file():
        try:
            cases = [PhotoCase(*case) for case in pickle.loads(args.cache.read_bytes())]
        except (OSError, pickle.UnpicklingError, EOFError, TypeError, ValueError) as error:
            parser.error(f"--cache {args.cache}: not the photos' boxes this script keeps ({error})")
    else:
        started = time.time()
        cases = [*capture(tile_photos(args.folds, args.scenes), True, progress),
                 *capture(no_tile_photos(args.no_tiles), False, progress)]
        progress(f"read {len(cases)} photos in {time.time() - started:.0f} s")
        if args.cache is not None:
            args.cache.parent.mkdir(parents=True, exist_ok=True)
            # Plain tuples: a pickled class would be bound to the module that ran the fit.
            args.cache.write_bytes(pickle.dumps([(c.name, c.shows_tiles, c.readings) for c in cases]))
    x = np.array([photo_features(case.readings) for case in cases])
    y = np.array([float(case.shows_tiles) for case in cases])
    model, figures = fit(x, y)
    about = {
        "fitted": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "command": "python -m fanscan.models.fit_tile_photo " + " ".join(argv if argv is not None else sys.argv[1:]),
        "photos_of_tiles": {"rf-chinese folds": args.folds,
                            "scenes": [args.scenes.start, args.scenes.stop - 1]},
        "photos_of_none": {"datasets.no_tile_photos seeds": [args.no_tiles.start, args.no_tiles.stop - 1]},
        "lose_at_most": LOSE_AT_MOST,
        "features": list(FEATURES),
        "fit": figures,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    temporary = args.out.with_suffix(".json.part")
    temporary.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
    temporary.replace(args.out)
    args.out.with_suffix(".about.json").write_text(json.dumps(about, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
