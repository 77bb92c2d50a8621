"""`fanscan waits PHOTO` on real waiting hands: real hand photos with the tile at one end cut off.

    python benchmarks/bench_real_waits.py [--folds 4] [--keep DIR] [-- WAITS OPTIONS...]

No labelled real photo of a hand waiting to win is at hand, so this makes them from what is: of
each rf-chinese hand photo (sources named ``hand_*``, the labels the player's hand alone) of the
given folds (default: the held-out fold) that the augmentation did not turn (its boxes are the
labeller's own), whose hand is complete (14 playing tiles, or 17 for the 16-tile games) and holds
no face four times (the labels do not say which four of a face are a kong, counted as three), the
photo is cut just inside the left edge of its rightmost tile, when that tile is no flower and no
other labelled tile reaches past the cut (a sliver of the cut tile stays, as a neighbour's edge
would). The labelled tiles left of the cut are the waiting hand. Each cut photo is read by
``fanscan waits PHOTO --json`` as a new process (options after ``--`` passed on), and counted
right when the hand read (concealed tiles, melds as three) is the labelled one; prints each
photo and the totals as JSON lines.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

HAND_PHOTO_PREFIX = "hand_"
COMPLETE_SIZES = (14, 17)
KEEP_OF_CUT_TILE = 0.15
"""The cut runs this share of the rightmost tile's width inside its left edge."""


def cut_photo(image: np.ndarray, boxes: np.ndarray, codes: tuple[str, ...]
              ) -> tuple[np.ndarray, Counter[str]] | None:
    """The photo cut just inside its rightmost labelled tile, and the playing tiles left; None when
    that tile is a flower or another tile reaches past the cut."""
    last = int(np.argmax(boxes[:, 0] + boxes[:, 2]))
    if codes[last].endswith("f"):
        return None
    cut = int(boxes[last, 0] + KEEP_OF_CUT_TILE * (boxes[last, 2] - boxes[last, 0]))
    others = [i for i in range(len(codes)) if i != last]
    if not others or boxes[others, 2].max() > cut + 2:
        return None
    return image[:, :cut], Counter(codes[i] for i in others if not codes[i].endswith("f"))


def read_hand(out: dict) -> Counter[str]:
    """The playing tiles of the hand ``fanscan waits --json`` read (melds as three)."""
    hand = (out.get("reading") or {}).get("hand") or {}
    tiles = Counter(hand.get("concealed", []))
    for meld in hand.get("melds", []):
        tiles.update(meld["tiles"][:3])
    return tiles


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folds", default=None, help="comma-separated source folds (default: the held-out fold)")
    parser.add_argument("--keep", type=Path, help="keep the cut photos in this folder")
    args = parser.parse_args(argv[: argv.index("--")] if "--" in argv else argv)

    from fanscan.datasets.real_table_crops import photo_as_taken
    from fanscan.datasets.real_tables import HELD_OUT_FOLD, in_folds, least_turned, load_table_photos, upright_version
    from fanscan.vision.classifier import default_classifier

    photos = load_table_photos()
    if not photos:
        print("../shared/data/rf-chinese is not here", file=sys.stderr)
        return 1
    folds = [int(f) for f in args.folds.split(",")] if args.folds else [HELD_OUT_FOLD]
    judge = default_classifier()
    totals: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for photo in least_turned(in_folds(photos, folds)):
            version = upright_version(photo)
            if not photo.source.startswith(HAND_PHOTO_PREFIX) or version is None or version.turn != 0:
                continue
            playing = Counter(c for c in photo.codes if not c.endswith("f"))
            if sum(playing.values()) not in COMPLETE_SIZES or max(playing.values()) >= 4:
                continue
            image, boxes = photo_as_taken(photo, judge, version)
            made = cut_photo(image, boxes, photo.codes)
            if made is None:
                continue
            cut, truth = made
            path = folder / f"{photo.source}.png"
            cv2.imwrite(str(path), cut)
            done = subprocess.run([sys.executable, "-m", "fanscan", "waits", str(path), "--json", *extra],
                                  capture_output=True, text=True)
            line = {"photo": photo.source, "tiles": sum(truth.values()), "exit": done.returncode}
            totals["photos"] += 1
            if done.returncode == 0:
                out = json.loads(done.stdout)
                read = read_hand(out)
                line.update(right=read == truth, missed=sorted((truth - read).elements()),
                            extra=sorted((read - truth).elements()), waits=[w["tile"] for w in out["waits"]])
                totals["right"] += read == truth
            else:
                line["error"] = done.stderr.strip()[-200:]
                totals["refused"] += 1
            print(json.dumps(line), flush=True)
    print(json.dumps({"folds": folds, "options": extra, **totals}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
