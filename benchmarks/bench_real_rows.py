"""The photo reader on rows of real tile faces: labelled real crops laid side by side on a table.

    python benchmarks/bench_real_rows.py --model FOLD1.onnx --model FOLD2.onnx --model FOLD3.onnx \
        [--flowers FOLD1-FLOWERS.onnx --flowers FOLD2-FLOWERS.onnx ...] [--rows 10] [--annotate DIR]

No real photo of a hand in rows is available here, so this builds the nearest thing from what
is: for each real tile set, ``--rows`` rows of 14 to 18 of its labelled crops (../shared/data,
tight face crops), touching, each with a thin shaded rim, on a generated table, the row about
two thirds of the photo wide and slightly turned (``--keystone``: seen at a slant). Each picture is read with ``one_hand=False``
(no hand logic: a row of random faces is no hand) by the fold model that never saw the set, so it
measures finding touching real faces and reading unseen designs. ``--flowers`` gives the flower
specialist trained on the same fold as each ``--model`` (else the shipped one looks, which has
seen every set's flowers). The faces are flat pastes
(no tile sides, no perspective), so it is kinder to the finder than a phone photo.

``--hands`` makes each row a complete hand instead (4 sets and a pair, or 5 and a pair: the
16-tile game's 17 tiles) of the set's suit and honour faces, sorted or shuffled, with up to two of
its flowers at the right end, and reads it as a hand (``one_hand=True``): it counts the hands
whose every tile is read right, with the hand logic (copy limits, completing the hand) and face by
face without it, and prints each hand read wrong. A set with one crop per face shows the same
crop for each copy. ``--two-rows`` lays each row's faces in two rows, the first half above;
``--waiting`` makes each hand a 16-tile one waiting to win (a 17-tile hand less one tile), which
must be read as the 16 it shows.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from fanscan.datasets.real_rows import compose_row
from fanscan.datasets.real_tiles import RealCrop, load_real_crops
from fanscan.datasets.scenes import random_winning_tiles
from fanscan.datasets.scene_crops import quad_iou
from fanscan.scoring.tiles import FLOWER_CODES, TILE_CODES
from fanscan.vision.classifier import TileClassifier
from fanscan.vision.flowers import FlowerLooks, default_flower_looks
from fanscan.vision.reader import read_photo

MIXED = "camerash-mixed"  # crops of several sets: no row of one design


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", action="append", required=True, help="fold model ONNX (repeatable)")
    parser.add_argument("--flowers", action="append", default=[], metavar="MODEL",
                        help="the flower specialist of each --model's fold (repeatable, same order)")
    parser.add_argument("--rows", type=int, default=10, help="rows per tile set")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keystone", type=float, default=0.0,
                        help="slant the photo: up to this share of its width off each end of the top edge (0-0.3)")
    parser.add_argument("--annotate", type=Path, help="write each row's annotated reading here")
    parser.add_argument("--hands", action="store_true", help="each row a complete hand, read as one")
    parser.add_argument("--two-rows", action="store_true", help="lay each row's faces in two rows")
    parser.add_argument("--waiting", action="store_true",
                        help="with --hands: 16-tile hands waiting to win (a 17-tile hand less one tile)")
    args = parser.parse_args(argv)
    crops = [c for c in load_real_crops() if c.group != MIXED]
    if not crops:
        print("no real crops (is ../shared/data present?)", file=sys.stderr)
        return 1
    if args.flowers and len(args.flowers) != len(args.model):
        parser.error("give one --flowers model for each --model")
    classifiers = [TileClassifier(path) for path in args.model]
    shipped = default_flower_looks()
    looks = [FlowerLooks(TileClassifier(path), shipped.numerals) for path in args.flowers] or [shipped] * len(classifiers)
    rng = np.random.default_rng(args.seed)
    totals = Counter()
    for group in sorted({c.group for c in crops}):
        fold = next((k for k, c in enumerate(classifiers) if group in c.meta["training"].get("hold_out", [])), None)
        if fold is None:
            continue
        judge = classifiers[fold]
        pool = [c for c in crops if c.group == group]
        found = right = tiles = boxes_found = 0
        for n in range(args.rows):
            chosen = _hand_of(pool, rng, waiting=args.waiting) if args.hands else _random_row(pool, rng)
            photo, quads = compose_row([c.load() for c in chosen], rng, keystone=args.keystone,
                                       rows=2 if args.two_rows else 1)
            _, data = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
            reading = read_photo(data.tobytes(), classifier=judge, one_hand=False, flower_looks=looks[fold])
            shown = reading
            if args.hands:
                shown = as_hand = read_photo(data.tobytes(), classifier=judge, flower_looks=looks[fold])
                truth = Counter(c.code for c in chosen)
                totals["hands"] += 1
                read = _hand_tiles(as_hand.hand.to_json())
                totals["hands_right"] += read == truth
                if read != truth:
                    print(json.dumps({"set": group, "row": n, "missed": sorted((truth - read).elements()),
                                      "misread_as": sorted((read - truth).elements())}))
                totals["hands_right_face_by_face"] += Counter(t.code for t in reading.tiles) == truth
            boxes = [np.array(t.box, np.float32) for t in reading.tiles]
            for crop, quad in zip(chosen, quads, strict=True):
                ious = [quad_iou(quad, box) for box in boxes]
                best = int(np.argmax(ious)) if ious else -1
                if best >= 0 and ious[best] > 0.5:
                    found += 1
                    right += reading.tiles[best].code == crop.code
            tiles += len(chosen)
            boxes_found += len(boxes)
            if args.annotate:
                args.annotate.mkdir(parents=True, exist_ok=True)
                shown.save_annotated(args.annotate / f"{group}-{n}.jpg")
        totals["tiles"] += tiles
        totals["found"] += found
        totals["right"] += right
        totals["boxes"] += boxes_found
        print(json.dumps({"set": group, "rows": args.rows, "tiles": tiles, "boxes": boxes_found, "found": found,
                          "codes_right": right}))
    hands = {key: totals[key] for key in ("hands", "hands_right", "hands_right_face_by_face")} if args.hands else {}
    print(json.dumps({"tiles": totals["tiles"], "boxes": totals["boxes"], "found": totals["found"],
                      "codes_right": totals["right"], **hands,
                      "found_rate": round(totals["found"] / max(totals["tiles"], 1), 4),
                      "right_rate": round(totals["right"] / max(totals["tiles"], 1), 4)}))
    return 0


def _random_row(pool: list[RealCrop], rng: np.random.Generator) -> list[RealCrop]:
    """14 to 18 different faces of the set (all of them if it has fewer)."""
    count = min(len(pool), int(rng.integers(14, 19)))
    return [pool[i] for i in rng.choice(len(pool), count, replace=False)]


def _hand_of(pool: list[RealCrop], rng: np.random.Generator, *, waiting: bool = False) -> list[RealCrop]:
    """A complete hand of 14 or 17 of the set's suit and honour faces (``waiting``: 17 less one,
    a 16-tile hand waiting to win), sorted (mostly) or shuffled, and up to two of its flowers."""
    by_code: dict[str, list[RealCrop]] = {}
    for crop in pool:
        by_code.setdefault(crop.code, []).append(crop)
    for _ in range(100):
        tiles = random_winning_tiles(rng, set(by_code), 5 if waiting or rng.random() < 0.5 else 4)
        if tiles is not None:
            break
    else:
        raise SystemExit(f"{pool[0].group}: its faces make no complete hand")
    if waiting:
        tiles.pop(int(rng.integers(len(tiles))))
    if rng.random() < 0.8:
        tiles.sort(key=TILE_CODES.index)
    else:
        tiles = [str(t) for t in rng.permutation(tiles)]
    flowers = [code for code in FLOWER_CODES if code in by_code]
    tiles += [str(f) for f in rng.choice(flowers, min(len(flowers), int(rng.choice([0, 0, 1, 2]))), replace=False)]
    return [by_code[t][int(rng.integers(len(by_code[t])))] for t in tiles]


def _hand_tiles(hand: dict) -> Counter:
    """Every tile of a read hand: the concealed ones (the winning tile among them), the melds'
    and the flowers."""
    melded = (t for meld in hand["melds"] for t in meld["tiles"])
    return Counter(hand["concealed"]) + Counter(melded) + Counter(hand["flowers"])


if __name__ == "__main__":
    sys.exit(main())
