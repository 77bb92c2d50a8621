"""Contact sheets of the rf-chinese labels the reader disagrees with, for a person to review.

    python benchmarks/label_review.py [--folds 0,1,2,3,4] [--out review/] [--per-sheet 24]

The labels of ``../shared/data/rf-chinese`` are a person's, with slips (its README). A slip the
reader gets right shows up as a misread, in every benchmark and in every fit on those labels.
This reads the least turned version of each source of the given folds as the benchmarks do
(upright, unmirrored: ``real_table_crops.photo_as_taken``), pairs its boxes with the labels
(``bench_real_tables.match``, IoU >= 0.5) and, for every pair whose face differs, cuts the label's
box with a margin. Written to ``--out``: ``sheet_NN.png`` (each cell: the crop, its number, the
label's face and the reader's with its confidence) and ``disagreements.jsonl`` (one line a cell:
the number, the photo's file name, the label's index in its label file, both faces, the reader's
confidence). A reviewer looks at every cell, either way, and writes what the tile is into
``datasets/labels/rf_label_fixes.csv`` where the label is wrong (``datasets.real_tables``
applies those rows to every version of the source). Shows progress.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

CELL = (150, 200)
"""(width, height) of a sheet's cell: the crop fitted into the top 150 x 160, three lines of text below."""
MARGIN = 0.2
"""The crop runs this share of the box's size past each of its sides (the neighbours' edges show)."""


def crop_cell(image: np.ndarray, box: np.ndarray, lines: list[str]) -> np.ndarray:
    """One cell: the box's crop (with ``MARGIN``) fitted in, its outline drawn, ``lines`` below."""
    width, height = CELL
    x0, y0, x1, y1 = (float(v) for v in box)
    mx, my = (x1 - x0) * MARGIN, (y1 - y0) * MARGIN
    cx0, cy0 = max(0, int(x0 - mx)), max(0, int(y0 - my))
    cx1, cy1 = min(image.shape[1], int(np.ceil(x1 + mx))), min(image.shape[0], int(np.ceil(y1 + my)))
    cell = np.full((height, width, 3), 255, np.uint8)
    crop = image[cy0:cy1, cx0:cx1]
    if crop.size:
        scale = min((width - 6) / crop.shape[1], 156 / crop.shape[0])
        shown = cv2.resize(crop, (max(1, int(crop.shape[1] * scale)), max(1, int(crop.shape[0] * scale))),
                           interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
        top, left = 2, (width - shown.shape[1]) // 2
        cell[top:top + shown.shape[0], left:left + shown.shape[1]] = shown
        corner = (left + int((x0 - cx0) * scale), top + int((y0 - cy0) * scale))
        far = (left + int((x1 - cx0) * scale), top + int((y1 - cy0) * scale))
        cv2.rectangle(cell, corner, far, (0, 200, 0), 1)
    for k, text in enumerate(lines):
        cv2.putText(cell, text, (3, 172 + 13 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1, cv2.LINE_AA)
    return cell


def sheet(cells: list[np.ndarray], columns: int = 8) -> np.ndarray:
    """The cells in rows of ``columns``, a grey line between them."""
    width, height = CELL
    rows = -(-len(cells) // columns)
    out = np.full((rows * (height + 2), columns * (width + 2), 3), 128, np.uint8)
    for k, cell in enumerate(cells):
        r, c = divmod(k, columns)
        out[r * (height + 2):r * (height + 2) + height, c * (width + 2):c * (width + 2) + width] = cell
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folds", default="0,1,2,3,4", help="comma-separated source folds")
    parser.add_argument("--out", type=Path, default=Path("label_review"))
    parser.add_argument("--per-sheet", type=int, default=24)
    args = parser.parse_args(argv)
    try:
        folds = [int(f) for f in args.folds.split(",")]
    except ValueError:
        parser.error(f"--folds: numbers with commas (e.g. 0,1,2,3), not {args.folds!r}")
    if args.per_sheet < 1:
        parser.error("--per-sheet: at least 1")

    from fanscan.datasets.real_table_crops import photo_as_taken
    from fanscan.datasets.real_tables import in_folds, least_turned, load_table_photos
    from fanscan.errors import FanscanError
    from fanscan.vision.classifier import default_classifier
    from fanscan.vision.reader import read_photo

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_real_tables import match, reader_boxes

    photos = least_turned(in_folds(load_table_photos(), folds))
    if not photos:
        print("no rf-chinese photos here (../shared/data/rf-chinese)", file=sys.stderr)
        return 1
    judge = default_classifier()
    args.out.mkdir(parents=True, exist_ok=True)
    cells: list[np.ndarray] = []
    with (args.out / "disagreements.jsonl").open("w", encoding="utf-8") as listing:
        for n, photo in enumerate(photos, start=1):
            image, truth = photo_as_taken(photo, judge)
            try:
                reading = read_photo(cv2.imencode(".png", image)[1].tobytes(), classifier=judge)
            except FanscanError:
                continue
            boxes, codes = reader_boxes(reading)
            for i, j in match(truth, boxes):
                if codes[j] == photo.codes[i]:
                    continue
                number = len(cells) + 1
                confidence = float(reading.tiles[j].confidence)
                listing.write(json.dumps({"cell": number, "photo": photo.path.name, "source": photo.source,
                                          "index": i, "labelled": photo.codes[i], "read": codes[j],
                                          "confidence": round(confidence, 3)}) + "\n")
                cells.append(crop_cell(image, truth[i], [f"#{number} {photo.source[:16]}",
                                                         f"label {photo.codes[i]}",
                                                         f"read {codes[j]} {confidence:.0%}"]))
            if n % 25 == 0:
                print(f"{n}/{len(photos)} photos, {len(cells)} disagreements", file=sys.stderr, flush=True)
    for k in range(0, len(cells), args.per_sheet):
        cv2.imwrite(str(args.out / f"sheet_{k // args.per_sheet + 1:02d}.png"), sheet(cells[k:k + args.per_sheet]))
    print(json.dumps({"photos": len(photos), "disagreements": len(cells), "out": str(args.out)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
