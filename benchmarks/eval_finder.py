"""The tile finder alone on generated scenes: tiles found, face-down tiles found, box fit.

    python benchmarks/eval_finder.py [--model FINDER.onnx] [--refiner REFINER.onnx] [--no-refine]
                                     [--first 1000] [--scenes 60]

Runs the reader's whole search (``fanscan.vision.locate.locate``: first pass, close-up check, second
search, the box refiner unless ``--no-refine``) and matches each true tile of the scene to its best box: found when IoU > 0.5. Scene seeds
1000-1999 are the reader's tuning range; the finder trains on seeds from 1,000,000.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, help="finder ONNX (default: the shipped one)")
    parser.add_argument("--first", type=int, default=1000)
    parser.add_argument("--scenes", type=int, default=60)
    parser.add_argument("--refiner", type=Path, help="box refiner ONNX (default: the shipped one)")
    parser.add_argument("--no-refine", action="store_true", help="the finder's boxes as found")
    args = parser.parse_args(argv)

    from fanscan.datasets.scene_crops import quad_iou
    from fanscan.datasets.scenes import generate_scene
    from fanscan.vision import finder, refine
    from fanscan.vision.locate import locate
    from fanscan.vision.image_io import load_photo

    if args.model:
        finder.MODEL_PATH = args.model
    if args.refiner:
        refine.MODEL_PATH = args.refiner
    total, found, ious = Counter(), Counter(), []
    boxes = every_tile_found = 0
    for seed in range(args.first, args.first + args.scenes):
        scene = generate_scene(seed)
        _, detections = locate(load_photo(scene.jpeg), refine=not args.no_refine)
        boxes += len(detections)
        all_found = True
        for tile in scene.tiles:
            kind = "back" if tile.code == "back" else "sideways" if tile.sideways else "face"
            total[kind] += 1
            best = max((quad_iou(tile.quad, q) for q in detections.quads), default=0.0)
            if best > 0.5:
                found[kind] += 1
                ious.append(best)
            else:
                all_found = False
        every_tile_found += all_found
    tiles = sum(total.values())
    print(json.dumps({
        "scenes": args.scenes,
        "tiles": tiles,
        "found": sum(found.values()),
        "found_by_kind": {k: f"{found[k]}/{total[k]}" for k in total},
        "extra_boxes": boxes - sum(found.values()),
        "scenes_every_tile_found": every_tile_found,
        "mean_iou_of_found": round(float(np.mean(ious)), 3) if ious else None,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
