"""Photo reader on real photos whose tiles were labelled by hand (``datasets/labels/untagged_photos_labels.csv``).

    python benchmarks/bench_real_photos.py [--model FOLD.onnx ...] [--annotate DIR]

The photos are camerash/untagged-photos in ../shared (four close-ups of one tile set, 36 tiles
each, laid in a 9 x 4 grid: not hands, so only the tiles are scored, not the layout). With
``--model`` given several times (the fold models of ``benchmarks/eval_classifier.py``), each photo
is read by the fold model whose sidecar says it held out that photo's tile set, so the codes are
those of a classifier that never saw the design; without it, the shipped model (trained on
crops of these very photos) is used and the figures test finding and cutting only.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter
from pathlib import Path

LABELS = Path(__file__).resolve().parents[1] / "datasets" / "labels" / "untagged_photos_labels.csv"


def _held_out(model: Path) -> set[str]:
    sidecar = json.loads(model.with_suffix(".json").read_text())
    return set(sidecar.get("training", {}).get("hold_out", []))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, action="append", default=[])
    parser.add_argument("--annotate", type=Path, help="folder for the annotated photos")
    parser.add_argument("--finder", type=Path, help="tile finder ONNX (default: the shipped one)")
    parser.add_argument("--refiner", type=Path, help="box refiner ONNX (default: the shipped one)")
    parser.add_argument("--classifier", type=Path,
                        help="tile classifier ONNX for every photo (default: the shipped one)")
    args = parser.parse_args(argv)

    from fanscan.datasets.shared import shared_path
    from fanscan.vision.classifier import TileClassifier, default_classifier
    from fanscan.vision import finder, refine
    from fanscan.vision.reader import read_photo

    if args.finder:
        finder.MODEL_PATH = args.finder
    if args.refiner:
        refine.MODEL_PATH = args.refiner

    folder = shared_path("data", "camerash", "untagged-photos")
    if folder is None:
        print("../shared/data/camerash/untagged-photos is not here", file=sys.stderr)
        return 1
    folds = [(TileClassifier(m), _held_out(m)) for m in args.model]
    if args.annotate:
        args.annotate.mkdir(parents=True, exist_ok=True)
    rows = []
    with LABELS.open(newline="") as handle:
        for row in csv.DictReader(handle):
            truth = Counter(row["tiles"].split())
            if folds:
                matches = [c for c, held in folds if f"untagged-{row['set']}" in held]
                if not matches:
                    print(f"no fold model held out {row['set']}", file=sys.stderr)
                    return 1
                classifier = matches[0]
            else:
                classifier = TileClassifier(args.classifier) if args.classifier else default_classifier()
            reading = read_photo(folder / row["photo"], classifier=classifier)
            found = Counter(t.code for t in reading.tiles)
            right = sum((truth & found).values())
            rows.append({
                "photo": row["photo"],
                "tiles": sum(truth.values()),
                "boxes": len(reading.tiles),
                "codes_right": right,
                "recall": round(right / sum(truth.values()), 3),
                "misread": dict((found - truth).most_common(6)),
            })
            if args.annotate:
                reading.save_annotated(args.annotate / (Path(row["photo"]).stem + ".jpg"))
            print(json.dumps(rows[-1]), flush=True)
    total = sum(r["tiles"] for r in rows)
    print(json.dumps({
        "photos": len(rows),
        "tiles": total,
        "boxes": sum(r["boxes"] for r in rows),
        "codes_right": sum(r["codes_right"] for r in rows),
        "recall": round(sum(r["codes_right"] for r in rows) / total, 4),
        "held_out_classifier": bool(folds),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
