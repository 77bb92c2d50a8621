"""How well the classifier's "no tile" answer tells boxes of no tile from tiles, on real photos it
never trained on (the held-out fold of rf-chinese).

    python benchmarks/bench_no_tile.py [--model A.onnx --model B.onnx ...] [--sheet OUT.png]

For each held-out photo (upright and unmirrored, as ``bench_real_tables.py`` reads it) the
reader's own boxes are found (``locate``) and read (``read_tiles``) by each classifier, and
sorted by what they lie on:
- ``labelled tile``: a box over a labelled tile (IoU >= 0.5): dropped here, a tile is lost;
- ``reviewed none`` / ``reviewed tile``: a box a person judged (``datasets/labels/
  rf_no_tile_boxes.csv``, the held-out fold's rows; the reviewer looked at the reader's boxes
  over no label, so most of its "tile" rows are tiles the labels left out), matched at IoU >= 0.9.
A box is dropped when the reader would drop it (``tile_reading.holds_no_tile``).
Prints, per classifier, how many of each kind were kept and dropped. ``--sheet`` draws the first
classifier's mistakes (labelled tiles dropped, reviewed boxes of no tile kept) as a contact sheet.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

KINDS = ("labelled tile", "reviewed none", "reviewed tile")
SAME_BOX = 0.9
"""A reader box is a reviewed one when they overlap this much (the reviewer saw this reader's boxes:
a looser match takes a tile's box for a straddle reviewed beside it)."""


def kind_of(quad: np.ndarray, truth: list[np.ndarray], judged: list) -> str | None:
    """What a reader box lies on (``KINDS``): a labelled tile, a box a person judged (matched at
    ``SAME_BOX``), or None: neither."""
    from fanscan.vision.numeric import quad_iou

    if any(quad_iou(quad, t) >= 0.5 for t in truth):
        return "labelled tile"
    match = next((b for b in judged if b.verdict in ("none", "tile") and quad_iou(quad, b.quad) >= SAME_BOX), None)
    return None if match is None else f"reviewed {match.verdict}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, action="append", default=[],
                        help="tile classifier (repeatable; default: the shipped one)")
    parser.add_argument("--sheet", type=Path, help="contact sheet of the first model's mistakes")
    parser.add_argument("--limit", type=int, help="only the first N held-out photos")
    args = parser.parse_args(argv)

    from fanscan.datasets.no_tile_crops import REVIEW_FILE, boxed, contact_sheet, parse_review
    from fanscan.datasets.real_tables import HELD_OUT_FOLD, in_folds, least_turned, load_table_photos
    from fanscan.vision.classifier import TileClassifier, default_classifier
    from fanscan.vision.flowers import default_flower_looks
    from fanscan.vision.tile_reading import holds_no_tile, read_tiles

    photos = [p for p in least_turned(in_folds(load_table_photos(), [HELD_OUT_FOLD])) if len(p.codes)]
    if not photos:
        print("../shared/data/rf-chinese is not here", file=sys.stderr)
        return 1
    reviewed: dict[str, list] = {}
    for box in parse_review(REVIEW_FILE.read_text(encoding="utf-8")):
        reviewed.setdefault(box.source, []).append(box)
    judge = default_classifier()
    models = [(m.name, TileClassifier(m)) for m in args.model] or [("shipped", judge)]
    tallies = {name: Counter() for name, _ in models}
    mistakes: list[np.ndarray] = []
    for number, table in enumerate(photos[: args.limit], start=1):
        read = boxed(table, judge)
        if read is None:
            continue
        photo, found, truth = read.photo, read.found, read.labels
        kinds = [kind_of(quad, truth, reviewed.get(table.source, [])) for quad in found.quads]
        for name, classifier in models:
            readings, _, _ = read_tiles(photo, found, classifier, default_flower_looks())
            for kind, reading in zip(kinds, readings):
                if kind is None:
                    continue
                dropped = holds_no_tile(reading)
                tallies[name][(kind, "dropped" if dropped else "kept")] += 1
                wrong = dropped == (kind != "reviewed none")
                if args.sheet and wrong and name == models[0][0] and len(mistakes) < 72:
                    from fanscan.vision.tile_reading import CROP_H, CROP_W

                    mistakes.append(photo.crop_quad(reading.box, CROP_W, CROP_H, 1))
        if number % 20 == 0:
            print(f"{number}/{len(photos)} photos", file=sys.stderr, flush=True)
    for name, tally in tallies.items():
        print(json.dumps({"model": name, **{f"{kind}: {fate}": tally[(kind, fate)]
                                             for kind in KINDS for fate in ("kept", "dropped")}}))
    if args.sheet:
        cv2.imwrite(str(args.sheet), contact_sheet(mistakes, 0) if mistakes else np.zeros((8, 8, 3), np.uint8))
    return 0


if __name__ == "__main__":
    sys.exit(main())
