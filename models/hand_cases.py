"""Hand cases: what the reader hands its search, with the truth, for fitting and benchmarking it.

A ``HandCase`` is one photo's tile readings just before the reading search (``vision.interpret``)
runs: the readings, the hand's frame, the rows of groups and the photo's size, together with the
truth of each reading (the face of the true tile its box lies on, or None for a box of no tile)
and, for a generated scene, the true hand. ``models.fit_evidence`` fits the search's evidence on
them; ``benchmarks/bench_interpret.py`` reads the same cases with two searches side by side.

1. ``capture`` runs the reader on a photo with the search replaced by a recorder.
2. ``scene_cases`` does so for generated scenes, matching boxes to the scene's tiles;
   ``table_cases`` for the labelled real photos of ``../shared/data/rf-chinese`` (a box on no
   labelled tile counts as no tile only inside the labelled tiles' region, else its truth is
   ``UNKNOWN``: those photos label the hand, not always the rest of the table).
3. ``save`` / ``load`` keep them in a pickle in the work folder (they hold numpy arrays).
"""

from __future__ import annotations

import pickle
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from fanscan.vision import reader
from fanscan.scoring.tiles import BACK
from fanscan.vision.detections import TileReading
from fanscan.vision.numeric import quad_iou

from fanscan.errors import FanscanError

MATCH_IOU = 0.5
"""A box lies on a true tile when their intersection over union is at least this (the
benchmarks' "found" test)."""
UNKNOWN = "?"
"""The truth of a box on no labelled tile of a real photo outside the labelled tiles' region:
those photos often label the hand alone, so it may be an unlabelled tile of a wall."""


@dataclass
class HandCase:
    """One photo's input to the reading search, and its truth."""

    name: str
    readings: list[TileReading]
    right: np.ndarray
    up: np.ndarray
    rows: list[list[list[int]]]
    image_size: tuple[int, int]
    truth: list[str | None]
    """Per reading: the face of the true tile under its box, None for a box of no tile."""
    hand: dict | None = None
    """The true hand JSON (generated scenes only)."""
    truth_quads: list[np.ndarray] | None = None
    """The true tiles' quads (the labelled boxes of a real photo)."""
    truth_codes: list[str] | None = None
    """...and their faces."""


@dataclass
class _Captured:
    args: tuple[Any, ...] | None = None


@contextmanager
def _recording() -> Iterator[_Captured]:
    """Within it, the reader records the input of its search (``reader.interpret_hand``)."""
    captured = _Captured()
    original = reader.interpret_hand

    def record(*args: Any, **kwargs: Any) -> Any:
        captured.args = args
        return original(*args, **kwargs)

    reader.interpret_hand = record
    try:
        yield captured
    finally:
        reader.interpret_hand = original


def capture(source: bytes, classifier: Any) -> tuple[Any, tuple[Any, ...] | None]:
    """The reading of ``source`` and the arguments its search was called with (None when the
    reader stopped before it, e.g. no tiles)."""
    with _recording() as captured:
        reading = reader.read_photo(source, classifier=classifier)
    return reading, captured.args


def _case(name: str, args: tuple[Any, ...], truth: list[str | None], hand: dict | None,
          quads: list[np.ndarray], codes: list[str]) -> HandCase:
    readings, right, up, rows, image_size = args[:5]
    return HandCase(name, list(readings), np.asarray(right), np.asarray(up), rows, tuple(image_size),
                    truth, hand, quads, codes)


def _outside_the_labels(readings: list[TileReading], truth: list[str | None],
                        quads: list[np.ndarray], codes: list[str]) -> list[str | None]:
    """``truth`` with each box of no labelled tile marked ``UNKNOWN`` where the labels cannot say:
    outside the labelled tiles' region (their bounding box, grown by half the median tile), or
    read face-down when the labels hold no back (rf-chinese has no class for one)."""
    if BACK not in codes:
        truth = [UNKNOWN if t is None and r.code == BACK else t for r, t in zip(readings, truth)]
    if not quads:
        return [UNKNOWN if t is None else t for t in truth]
    corners = np.concatenate(quads)
    half = float(np.median([np.linalg.norm(q[0] - q[2]) for q in quads])) / 2
    lo, hi = corners.min(axis=0) - half, corners.max(axis=0) + half
    return [UNKNOWN if t is None and not ((r.box.mean(axis=0) >= lo).all() and (r.box.mean(axis=0) <= hi).all())
            else t for r, t in zip(readings, truth)]


def _truth_by_quads(readings: list[TileReading], quads: list[np.ndarray], codes: list[str]) -> list[str | None]:
    """Each reading's true face: that of the true quad it overlaps best at ``MATCH_IOU`` or more."""
    out: list[str | None] = []
    for r in readings:
        centre = r.box.mean(axis=0)
        best, best_iou = None, MATCH_IOU
        for quad, code in zip(quads, codes):
            if np.linalg.norm(quad.mean(axis=0) - centre) > np.linalg.norm(quad[0] - quad[2]):
                continue
            iou = quad_iou(r.box, quad)
            if iou >= best_iou:
                best, best_iou = code, iou
        out.append(best)
    return out


def hand_key(hand: dict) -> tuple:
    """What "read exactly" compares: the concealed tiles as a multiset, every meld (type, tiles,
    concealed or not), the winning tile and the flowers."""
    melds = sorted((m["type"], tuple(m["tiles"]), m["concealed"]) for m in hand["melds"])
    return (tuple(sorted(hand["concealed"])), tuple(melds), hand["win_tile"], tuple(sorted(hand["flowers"])))


def kept_right(case: HandCase, readings: list[TileReading]) -> tuple[int, int]:
    """Of the case's boxes, (those on a true tile that ``readings`` keep with its true face,
    those on no tile that they keep); boxes whose truth is ``UNKNOWN`` count for neither."""
    faces = {r.box.tobytes(): r.code for r in readings}
    right = sum(faces.get(r.box.tobytes()) == t for r, t in zip(case.readings, case.truth)
                if t is not None and t != UNKNOWN)
    kept = sum(r.box.tobytes() in faces for r, t in zip(case.readings, case.truth) if t is None)
    return right, kept


def box_iou(a: np.ndarray, b: np.ndarray) -> float:
    """The IoU of two upright boxes (x0, y0, x1, y1)."""
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[2], b[2]), min(a[3], b[3])
    inter = max(0.0, x1 - x0) * max(0.0, y1 - y0)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return float(inter / union) if union > 0 else 0.0


def truth_by_boxes(readings: list[TileReading], quads: list[np.ndarray], codes: list[str]) -> list[str | None]:
    """Each reading's true face when the truth is upright boxes (a labelled photo's, drawn round
    the whole tile): the box round the reading's quad against them, as the benchmarks match."""
    boxes = [np.array([*q.min(axis=0), *q.max(axis=0)]) for q in quads]
    out: list[str | None] = []
    for r in readings:
        mine = np.array([*r.box.min(axis=0), *r.box.max(axis=0)])
        ious = [box_iou(mine, b) for b in boxes]
        best = int(np.argmax(ious)) if ious else -1
        out.append(codes[best] if best >= 0 and ious[best] >= MATCH_IOU else None)
    return out


BUSY_PREFIX = "busy"
"""The name of a busy scene's case: this and its seed (a plain scene's is ``scene`` and its seed)."""


def scene_cases(seeds: Iterable[int], classifier: Any, busy: bool = False) -> Iterator[HandCase]:
    """The cases of the generated scenes of ``seeds``, with their true hands; ``busy`` lays them on
    mats and photographed tops with things that are no tiles about (``bench_scenes.py --busy``)."""
    from fanscan.datasets.scenes import generate_scene
    from fanscan.datasets.textures import BUSY_TABLE_KINDS, TABLE_KINDS

    for n, seed in enumerate(seeds, start=1):
        scene = generate_scene(seed, tables=BUSY_TABLE_KINDS if busy else TABLE_KINDS, props=busy)
        try:
            _, args = capture(scene.jpeg, classifier)
        except FanscanError as error:
            print(f"scene {seed}: {error.message}", file=sys.stderr, flush=True)
            args = None
        if args is not None:
            quads = [np.asarray(t.quad, np.float32) for t in scene.tiles]
            truth = _truth_by_quads(args[0], quads, [t.code for t in scene.tiles])
            yield _case(f"{BUSY_PREFIX if busy else 'scene'}{seed}", args, truth, scene.hand, quads,
                        [t.code for t in scene.tiles])
        if n % 50 == 0:
            print(f"{n} scenes", file=sys.stderr, flush=True)


def table_cases(folds: Iterable[int], classifier: Any, limit: int | None = None) -> Iterator[HandCase]:
    """The cases of the labelled real photos of the source ``folds`` (upright, unmirrored)."""
    import cv2
    from fanscan.datasets.real_table_crops import photo_as_taken
    from fanscan.datasets.real_tables import in_folds, least_turned, load_table_photos

    chosen = [p for p in least_turned(in_folds(load_table_photos(), list(folds))) if len(p.codes)][:limit]
    for n, photo in enumerate(chosen, start=1):
        image, boxes = photo_as_taken(photo, classifier)
        try:
            _, args = capture(cv2.imencode(".png", image)[1].tobytes(), classifier)
        except FanscanError as error:
            print(f"{photo.path.name}: {error.message}", file=sys.stderr, flush=True)
            args = None
        if args is not None:
            quads = [np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32) for x0, y0, x1, y1 in boxes]
            truth = _outside_the_labels(args[0], truth_by_boxes(args[0], quads, list(photo.codes)), quads,
                                        list(photo.codes))
            yield _case(photo.source, args, truth, None, quads, list(photo.codes))
        if n % 20 == 0:
            print(f"{n}/{len(chosen)} photos", file=sys.stderr, flush=True)


def save(cases: list[HandCase], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        pickle.dump(cases, out)


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if module == "__main__":  # saved by ``python -m fanscan.models.hand_cases`` before the fix below
            module = __name__
        return super().find_class(module, name)


def load(path: Path) -> list[HandCase]:
    """Cases this module saved (a pickle of the project's own records: load only your own)."""
    with path.open("rb") as source:
        return list(_Unpickler(source).load())


def relabelled(cases: list[HandCase]) -> list[HandCase]:
    """The real cases' truth worked out again from their labelled boxes (after a change of the
    matching rules; the cases keep the boxes and faces)."""
    for case in cases:
        if case.hand is None and case.truth_quads is not None and case.truth_codes is not None:
            case.truth = _outside_the_labels(case.readings, truth_by_boxes(case.readings, case.truth_quads, case.truth_codes),
                                             case.truth_quads, case.truth_codes)
    return cases


def main(argv: list[str] | None = None) -> int:
    import argparse

    from fanscan.vision.classifier import default_classifier

    parser = argparse.ArgumentParser(description="collect hand cases for fitting the reading search")
    parser.add_argument("--scenes", default="", help="seed range FIRST-LAST of generated scenes")
    parser.add_argument("--folds", default="", help="comma-separated rf-chinese source folds")
    parser.add_argument("--busy", action="store_true",
                        help="the scenes on mats and photographed tops, with a rack, dice, coins, a phone or fingers")
    parser.add_argument("--limit", type=int, help="at most this many real photos")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--relabel", type=Path, help="work out the truth of the real cases in this file again")
    args = parser.parse_args(argv)
    if args.relabel:
        if not args.relabel.is_file():
            parser.error(f"no case file {args.relabel}")
        save(relabelled(load(args.relabel)), args.out)
        print(f"relabelled {args.relabel} into {args.out}")
        return 0
    if not (args.scenes or args.folds):
        parser.error("give --scenes FIRST-LAST, --folds, or --relabel")
    try:
        first, last = (int(x) for x in args.scenes.split("-")) if args.scenes else (0, -1)
        folds = [int(f) for f in args.folds.split(",")] if args.folds else []
    except ValueError:
        parser.error("--scenes takes FIRST-LAST (two seeds), --folds numbers with commas")
    classifier = default_classifier()
    cases: list[HandCase] = []
    if args.scenes:
        cases += scene_cases(range(first, last + 1), classifier, busy=args.busy)
    if args.folds:
        cases += table_cases(folds, classifier, args.limit)
    save(cases, args.out)
    print(f"wrote {len(cases)} cases to {args.out}")
    return 0


if __name__ == "__main__":
    from fanscan.models import hand_cases  # the records pickled under their package's name

    sys.exit(hand_cases.main())
