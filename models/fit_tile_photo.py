"""Fit the reader's "does this photo show tiles?" model (``vision.tile_photo``).

    python -m fanscan.models.fit_tile_photo --folds 0,1,2,3 --scenes 50000-50299 \
        --no-tiles 0-599 --noise 0-199 --wallpapers 8 --cache work_data/tile_photo_cases.pkl \
        --out models/tile_photo.json

1. Photos of tiles: the real table photos of the rf-chinese source folds ``--folds`` (the least
   turned version of each source as it lies on disk, and again turned back upright and
   unmirrored as ``bench_real_tables`` reads it: which way up a photo lies is no evidence; fold
   4 is held out for the benchmark) and generated scenes ``--scenes`` (in turn plain, on a cluttered table, standing mid-game). Photos of none:
   ``datasets.no_tile_photos`` seeds ``--no-tiles``, pictures of noise ``--noise``, and with
   ``--wallpapers VIEWS`` the fitting half of Debian's Plasma wallpapers where installed, each
   whole and cropped (``VIEWS`` views; the other half, gnome-backgrounds and gimp-data are never
   fitted on: the benchmark tests on them).
2. Each photo is read as the reader reads it up to its third step (``locate``, ``read_tiles``);
   a photo in which the finder boxes nothing needs no model and is left out.
3. A logistic regression (``fit_evidence.fit_logistic``: L2, Newton's method) of "shows tiles"
   on ``tile_photo.photo_features``.
   A real photo of tiles that the reader reads badly (under ``USEFUL_READ`` of its labelled
   tiles found and named right: a rack seen edge-on, tiles under magenta light) is left out of
   the fit: turning it away with the advice to photograph it again loses nothing a user could
   use, and keeping it pulled the bias up for every photo of none (``reading_quality``).
4. The tile prior: turning a photo of tiles away loses the whole read, while a photo of none let
   through still comes back with its doubts. So the bias is raised by the smallest offset (of a
   grid) at which at most ``LOSE_AT_MOST`` of the fitting photos of tiles are judged to show none
   when each is judged by a fit that never saw its group (``FOLDS`` groups: the real photos by
   source fold, the rest by seed or name): the trade-off between the two errors, stated, and the
   margin it needs on photos never seen, cross-validated.
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
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from fanscan.errors import FanscanError
from fanscan.models.fit_evidence import fit_logistic
from fanscan.vision.tile_photo import FEATURES, TilePhotoModel, photo_features

LOSE_AT_MOST = 0.0
"""The share of the fitting photos of tiles (those read usefully, each judged as unseen) the check
may turn away: none. (At one in 500 it turned away a real photo of the held-out fold read 10 of 17
right, docs/benchmarks.md, session 35.)"""
OFFSETS = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
"""Nats added to the model's bias (step 4)."""
USEFUL_READ = 0.5
"""A real photo of tiles is fitted on when the reader finds and names right at least this share of
its labelled tiles (step 2): a reading worth keeping."""
FOLDS = 4
"""Groups of the cross-validation that sets the offset (step 4)."""


def read_boxes(source: str | Path | bytes, classifier: Any = None) -> list:
    """The photo's boxes as read by the reader's first three steps, less the boxes of no tile
    (empty: no box found)."""
    from fanscan.vision import flowers
    from fanscan.vision.classifier import default_classifier
    from fanscan.vision.image_io import load_photo
    from fanscan.vision.locate import locate
    from fanscan.vision.tile_reading import read_quality, read_tiles, tiles_only

    photo = load_photo(source)
    classifier, looks = classifier or default_classifier(), flowers.default_flower_looks()
    _, detections = locate(photo, judge=read_quality(photo, classifier, looks))
    if len(detections) == 0:
        return []
    readings, _, _ = read_tiles(photo, detections, classifier, looks)
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


def real_labels(folds: list[int]) -> dict[str, tuple[np.ndarray, tuple[str, ...]]]:
    """The labelled boxes (x0 y0 x1 y1) and codes of the real photos ``tile_photos`` yields, by
    case name, in the coordinates each is read in."""
    from fanscan.datasets.real_table_crops import photo_as_taken
    from fanscan.datasets.real_tables import in_folds, least_turned, load_table_photos
    from fanscan.vision.classifier import default_classifier

    labels: dict[str, tuple[np.ndarray, tuple[str, ...]]] = {}
    if not folds:
        return labels
    judge = default_classifier()
    for photo in least_turned(in_folds(load_table_photos(), folds)):
        labels[f"rf:{photo.source}"] = (photo.boxes, photo.codes)
        if len(photo.codes):
            labels[f"rf-upright:{photo.source}"] = (photo_as_taken(photo, judge)[1], photo.codes)
    return labels


def fold_group(name: str, fold_of: dict[str, int]) -> int:
    """The cross-validation group (0 to ``FOLDS`` - 1) of a case by its name: a real photo's
    source fold (``rf:SOURCE``, ``fold_of`` its source's), a generated photo's seed, a picture's
    name."""
    kind, _, rest = name.partition(":")
    if kind.startswith("rf") and rest in fold_of:
        return fold_of[rest] % FOLDS
    first = rest.split(":")[0] or name
    return int(first) % FOLDS if first.isdigit() else zlib.crc32(first.encode("utf-8")) % FOLDS


def reading_quality(readings: list, boxes: np.ndarray, codes: tuple[str, ...]) -> float | None:
    """The share of the labelled tiles (``boxes``, ``codes``) a box of ``readings`` finds
    (``hand_cases.MATCH_IOU``, greedily, best first) and names right; None for a photo with no
    labels."""
    from fanscan.models.hand_cases import MATCH_IOU, box_iou

    if not len(codes):
        return None
    found = [np.array([*np.min(r.box, axis=0), *np.max(r.box, axis=0)]) for r in readings]
    iou = np.array([[box_iou(label, box) for box in found] for label in boxes]).reshape(len(boxes), len(found))
    right = 0
    while iou.size and iou.max() >= MATCH_IOU:
        i, j = np.unravel_index(int(iou.argmax()), iou.shape)
        right += readings[j].code == codes[i]
        iou[i, :] = -1
        iou[:, j] = -1
    return right / len(codes)


def picture_view(path: Path, number: int, view: int) -> bytes:
    """View ``view`` of the picture at ``path`` (``no_tile_photos.picture_views``, ``number`` its
    seed) as a JPEG's bytes."""
    from fanscan.datasets.no_tile_photos import picture_views

    return encoded(picture_views(_picture(path), number, view + 1)[view])


@lru_cache(maxsize=1)
def _picture(path: Path) -> np.ndarray:
    """The picture at ``path``, decoded once for all its views (they are asked for in turn)."""
    import cv2

    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise FanscanError("unreadable_image", f"{path} is no picture OpenCV reads")
    return image


def no_tile_photos(seeds: range, noise: range = range(0), views: int = 0,
                   ) -> Iterator[tuple[str, Callable[[], bytes | Path]]]:
    """(name, source) of each photo of none: generated (``seeds``), noise (``noise``) and the
    fitting half of the wallpapers, each in ``views`` views (none when 0)."""
    from fanscan.datasets.no_tile_photos import no_tile_photo, noise_photo, wallpaper_half, wallpapers

    for seed in seeds:
        yield f"none:{seed}", lambda s=seed: encoded(no_tile_photo(s)[0])
    for seed in noise:
        yield f"noise:{seed}", lambda s=seed: encoded(noise_photo(s), ".png")
    for number, path in enumerate(p for p in wallpapers() if views and wallpaper_half(p) == 0):
        for view in range(views):
            yield (f"wallpaper:{path.parent.parent.parent.name}:{view}",
                   lambda p=path, v=view, n=number: picture_view(p, n, v))


@dataclass(frozen=True)
class PhotoCase:
    """One fitting photo: its name, whether it shows tiles, and its boxes as read."""

    name: str
    shows_tiles: bool
    readings: list


def capture(photos: Iterator[tuple[str, Callable[[], bytes | Path]]], shows_tiles: bool,
            progress: Callable[[str], None]) -> list[PhotoCase]:
    """The photos' cases (a photo in which the finder boxes nothing with no readings: it needs no
    model, and is kept only so that a cache need not read it again)."""
    cases = []
    for count, (name, source) in enumerate(photos, 1):
        try:
            readings = read_boxes(source())
        except FanscanError as error:
            progress(f"{name}: {error}")
            continue
        cases.append(PhotoCase(name, shows_tiles, readings))
        if count % 50 == 0:
            progress(f"{count} photos read ({name})")
    return cases


def _logits(model: TilePhotoModel, x: np.ndarray) -> np.ndarray:
    p = np.clip([model.probability(f) for f in x], 1e-9, 1 - 1e-9)
    return np.log(p / (1 - p))


def held_out_logits(x: np.ndarray, y: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each photo's logit by a model fitted without its group (``groups``: a source fold, a
    seed's or a picture's share), as a photo never seen is judged."""
    out = np.zeros(len(y))
    for group in np.unique(groups):
        fitting = groups != group
        weights, bias, mean, scale = fit_logistic(x[fitting], y[fitting])
        out[~fitting] = _logits(TilePhotoModel(tuple(weights), bias, tuple(mean), tuple(scale)), x[~fitting])
    return out


def fit(x: np.ndarray, y: np.ndarray, groups: np.ndarray | None = None) -> tuple[TilePhotoModel, dict]:
    """The model (steps 3 and 4) and the fit's figures. With ``groups`` the offset is chosen on
    each photo of tiles as judged by a fit without its group (``held_out_logits``), so that it
    holds for photos the fit never saw; without, on the fit's own judgement."""
    weights, bias, mean, scale = fit_logistic(x, y)
    plain = TilePhotoModel(tuple(weights), bias, tuple(mean), tuple(scale))
    judged_by = held_out_logits(x, y, groups) if groups is not None else _logits(plain, x)
    positives = judged_by[y == 1]
    chosen = OFFSETS[-1]
    for offset in OFFSETS:
        if (positives + offset < 0).sum() <= LOSE_AT_MOST * len(positives):
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
    if groups is not None:
        figures["held_out"] = {"groups": len(np.unique(groups)),
                               "tiles_judged_none": int((positives + chosen < 0).sum()),
                               "none_judged_tiles": int((judged_by[y == 0] + chosen >= 0).sum())}
    return model, figures


def _range(text: str) -> range:
    if not text.strip():  # none of these
        return range(0)
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
    parser.add_argument("--noise", type=_range, default=range(0), help="seeds of pictures of noise (A-B)")
    parser.add_argument("--wallpapers", type=int, default=0, metavar="VIEWS",
                        help="fit on the fitting half of Debian's Plasma wallpapers, each in this many views")
    parser.add_argument("--cache", type=Path,
                        help="the photos' boxes, read once, kept here (pickle; photos not in it are read and added)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    cached: dict[str, PhotoCase] = {}
    if args.cache is not None and args.cache.is_file():
        try:
            cached = {case[0]: PhotoCase(*case) for case in pickle.loads(args.cache.read_bytes())}
        except (OSError, pickle.UnpicklingError, EOFError, TypeError, ValueError, IndexError) as error:
            parser.error(f"--cache {args.cache}: not the photos' boxes this script keeps ({error})")
    started = time.time()
    wanted = [(True, tile_photos(args.folds, args.scenes)),
              (False, no_tile_photos(args.no_tiles, args.noise, args.wallpapers))]
    cases = []
    for shows_tiles, photos in wanted:
        fresh = ((name, source) for name, source in photos if name not in cached)
        cases += capture(fresh, shows_tiles, progress)
    progress(f"read {len(cases)} photos in {time.time() - started:.0f} s, {len(cached)} kept from the cache")
    if args.cache is not None and cases:
        args.cache.parent.mkdir(parents=True, exist_ok=True)
        # Plain tuples: a pickled class would be bound to the module that ran the fit.
        every = [*cached.values(), *cases]
        args.cache.write_bytes(pickle.dumps([(c.name, c.shows_tiles, c.readings) for c in every]))
    cases = [case for case in [*cached.values(), *cases] if case.readings]
    labels = real_labels(args.folds)
    quality = {case.name: reading_quality(case.readings, *labels[case.name])
               for case in cases if case.name in labels}
    poorly = sorted(name for name, q in quality.items() if q is not None and q < USEFUL_READ)
    cases = [case for case in cases if case.name not in poorly]
    progress(f"{len(poorly)} real photos read poorly (under {USEFUL_READ:.0%} of their tiles right) left out")
    x = np.array([photo_features(case.readings) for case in cases])
    y = np.array([float(case.shows_tiles) for case in cases])
    from fanscan.datasets.real_tables import load_table_photos

    fold_of = {photo.source: photo.fold for photo in load_table_photos()}
    model, figures = fit(x, y, np.array([fold_group(case.name, fold_of) for case in cases]))
    about = {
        "fitted": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "command": "python -m fanscan.models.fit_tile_photo " + " ".join(argv if argv is not None else sys.argv[1:]),
        "photos_of_tiles": {"rf-chinese folds": args.folds,
                            "scenes": [args.scenes.start, args.scenes.stop - 1]},
        "photos_of_none": {"datasets.no_tile_photos seeds": [args.no_tiles.start, args.no_tiles.stop - 1],
                           "noise seeds": [args.noise.start, args.noise.stop - 1] if len(args.noise) else None,
                           "plasma wallpapers (fitting half)": sum(c.name.startswith("wallpaper:") for c in cases),
                           "wallpaper views": args.wallpapers},
        "lose_at_most": LOSE_AT_MOST,
        "useful_read": USEFUL_READ,
        "real_photos_read_poorly_left_out": len(poorly),
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
