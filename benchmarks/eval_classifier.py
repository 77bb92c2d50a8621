"""Held-out accuracy of tile classifiers on real crops, per tile set, with a confusion matrix.

    python benchmarks/eval_classifier.py --model FOLD1.onnx --model FOLD2.onnx ... \
        [--picture models/confusion_matrix.png] [--crops work_data/scene_crops/heldout/finder] \
        [--numerals] [--flowers FOLD1-FLOWERS.onnx --flowers FOLD2-FLOWERS.onnx ...]

Each model is scored only on the real tile sets its sidecar lists as held out (``training.hold_out``):
sets it never trained on. With models trained on complementary folds, every set is scored once.
Prints accuracy per set, the most confused pairs, and how confidence separates right from wrong
answers at several thresholds (for the photo reader's "doubtful tile" flag). Needs ../shared/data.
``--crops`` also scores every model on every crop of a crop folder (e.g. faces cut from held-out
generated scenes by ``python -m fanscan.datasets.scene_crops``), each read as the photo reader
reads it. ``--numerals`` and ``--flowers`` (one flower specialist per ``--model``, trained on the
same fold) give possible flowers the photo reader's second looks (``vision.flowers``).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from fanscan.datasets.formats.crops import training_crops
from fanscan.datasets.real_tiles import load_real_crops
from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.vision.classifier import TileClassifier
from fanscan.vision.flowers import FlowerLooks
from fanscan.vision.numerals import DEFAULT_MODEL as NUMERALS_MODEL
from fanscan.vision.numerals import NumeralReader

THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
# The pairs the issue names as easy to confuse: (description, codes on one side, on the other).
WATCHED = (
    ("1s (bird) vs any other tile", {"1s"}, set(CLASS_LABELS) - {"1s"}),
    ("1f plum vs 5f spring (both '1')", {"1f"}, {"5f"}),
    ("2f orchid vs 6f summer (both '2')", {"2f"}, {"6f"}),
    ("3f chrysanthemum vs 7f autumn (both '3')", {"3f"}, {"7f"}),
    ("4f bamboo vs 8f winter (both '4')", {"4f"}, {"8f"}),
    ("any flower vs any other flower", {f"{n}f" for n in range(1, 9)}, {f"{n}f" for n in range(1, 9)}),
    ("P white dragon (framed or blank) vs any other", {"P"}, set(CLASS_LABELS) - {"P"}),
    ("2s / 3s / 5s / 8s among themselves", {"2s", "3s", "5s", "8s"}, {"2s", "3s", "5s", "8s"}),
)


def evaluate(model_paths: list[str], numeral_reader: NumeralReader | None = None,
             specialist_paths: list[str] | None = None,
             ) -> tuple[list[str], list[str], list[str], np.ndarray]:
    """(groups, true codes, predicted codes, confidences) over every model's held-out sets;
    possible flowers get the photo reader's second looks: ``numeral_reader`` at their numbers,
    ``specialist_paths`` (one per model) the flower specialist's."""
    crops = load_real_crops()
    groups: list[str] = []
    truth: list[str] = []
    predicted: list[str] = []
    confidence: list[float] = []
    for n, path in enumerate(model_paths):
        classifier = TileClassifier(path)
        specialist = TileClassifier(specialist_paths[n]) if specialist_paths else None
        held = set(classifier.meta["training"]["hold_out"])
        chosen = [c for c in crops if c.group in held]
        codes, confidences = classifier.classify([c.load() for c in chosen], FlowerLooks(specialist, numeral_reader))
        groups += [c.group for c in chosen]
        truth += [c.code for c in chosen]
        predicted += codes
        confidence += confidences.tolist()
    return groups, truth, predicted, np.array(confidence)


def score_folder(model_path: str, folder: Path, looks: FlowerLooks) -> tuple[list[str], list[str]]:
    """(true codes, predicted codes) of every crop in ``folder`` as the photo reader reads them
    (second look turned round, possible flowers' second looks)."""
    classifier = TileClassifier(model_path)
    crops = training_crops(folder)
    truth, predicted = [], []
    for start in range(0, len(crops), 256):
        chunk = crops[start : start + 256]
        codes, _ = classifier.classify([c.load() for c in chunk], looks)
        truth += [c.code for c in chunk]
        predicted += codes
    return truth, predicted


def confusion_picture(truth: list[str], predicted: list[str], path: Path) -> None:
    """A 43 x 43 confusion matrix (rows: true class, columns: predicted), counts written in."""
    index = {code: i for i, code in enumerate(CLASS_LABELS)}
    n = len(CLASS_LABELS)
    matrix = np.zeros((n, n), int)
    for t, p in zip(truth, predicted, strict=True):
        matrix[index[t], index[p]] += 1
    cell, margin = 22, 44
    size = margin + n * cell + 8
    image = np.full((size + 30, size, 3), 255, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    for i in range(n):
        total = matrix[i].sum()
        for j in range(n):
            count = matrix[i, j]
            x, y = margin + j * cell, margin + i * cell
            if count:
                share = count / max(total, 1)
                colour = (255 - 200 * share, 255 - 120 * share, 255) if i != j else \
                    (255 - 150 * share, 255 - 60 * share, 255 - 150 * share)
                cv2.rectangle(image, (x, y), (x + cell - 1, y + cell - 1), colour, -1)
                cv2.putText(image, str(count), (x + 2, y + 15), font, 0.32, (0, 0, 0), 1, cv2.LINE_AA)
            cv2.rectangle(image, (x, y), (x + cell, y + cell), (225, 225, 225), 1)
        label = CLASS_LABELS[i]
        cv2.putText(image, label, (4, margin + i * cell + 15), font, 0.38, (0, 0, 0), 1, cv2.LINE_AA)
        cv2.putText(image, label, (margin + i * cell + 2, margin - 8), font, 0.32, (0, 0, 0), 1,
                    cv2.LINE_AA)
    cv2.putText(image, "rows: true tile, columns: predicted (held-out real crops; green: right, "
                "red: wrong)", (margin, size + 18), font, 0.42, (0, 0, 0), 1, cv2.LINE_AA)
    # A 64-colour palette keeps the committed picture around 15 KB instead of 170 KB.
    from PIL import Image

    Image.fromarray(image[:, :, ::-1]).quantize(64).save(path, optimize=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", action="append", required=True, help="ONNX model (repeatable)")
    parser.add_argument("--picture", type=Path, help="write the confusion matrix PNG here")
    parser.add_argument("--numerals", nargs="?", const=str(NUMERALS_MODEL), metavar="MODEL",
                        help="re-weigh flowers by their printed number, as the photo reader does "
                             "(default model: the shipped flower_numerals.onnx)")
    parser.add_argument("--flowers", action="append", default=[], metavar="MODEL",
                        help="the flower specialist trained on the same fold as each --model "
                             "(repeatable, in the same order)")
    parser.add_argument("--crops", action="append", default=[], type=Path, metavar="DIR",
                        help="also score each model on every crop of this crop folder (repeatable)")
    args = parser.parse_args()
    if args.flowers and len(args.flowers) != len(args.model):
        parser.error("give one --flowers model for each --model")
    numeral_reader = NumeralReader(args.numerals) if args.numerals else None
    for folder in args.crops:
        print(f"| crops of {folder} | model | crops | top-1 | most confused |\n|---|---|---:|---:|---|")
        for n, model in enumerate(args.model):
            specialist = TileClassifier(args.flowers[n]) if args.flowers else None
            truth, predicted = score_folder(model, folder, FlowerLooks(specialist, numeral_reader))
            right = np.array([t == p for t, p in zip(truth, predicted, strict=True)])
            pairs = Counter((t, p) for t, p in zip(truth, predicted, strict=True) if t != p)
            print(f"| | {Path(model).name} | {len(truth)} | {right.mean():.1%} | "
                  + ", ".join(f"{t}->{p}: {n}" for (t, p), n in pairs.most_common(6)) + " |")
        print()

    groups, truth, predicted, confidence = evaluate(args.model, numeral_reader, args.flowers)
    if not truth:
        print("no held-out real crops (is ../shared/data present?)", file=sys.stderr)
        return 1
    right = np.array([t == p for t, p in zip(truth, predicted, strict=True)])
    print("| held-out tile set | crops | top-1 |\n|---|---:|---:|")
    for group in sorted(set(groups)):
        mask = np.array([g == group for g in groups])
        print(f"| {group} | {mask.sum()} | {right[mask].mean():.1%} |")
    print(f"| **all** | {len(truth)} | **{right.mean():.1%}** |\n")

    pairs = Counter((t, p) for t, p in zip(truth, predicted, strict=True) if t != p)
    print("Confused (true -> predicted: count): " + ", ".join(
        f"{t} -> {p}: {n}" for (t, p), n in pairs.most_common(15)) + "\n")

    print("| confusable pair | crops of these tiles | mistaken one for the other |\n|---|---:|---:|")
    for description, one, other in WATCHED:
        # Crops of the tiles in question ("any other" does not count every crop).
        counted = one if len(other) > len(CLASS_LABELS) // 2 else one | other
        involved = sum(t in counted for t in truth)
        mistakes = sum(
            (t in one and p in other) or (t in other and p in one)
            for t, p in zip(truth, predicted, strict=True)
            if t != p
        )
        print(f"| {description} | {involved} | {mistakes} |")
    print()

    print("| threshold | flagged (below) | accuracy above | wrong answers above | errors caught |")
    print("|---:|---:|---:|---:|---:|")
    errors = (~right).sum()
    for threshold in THRESHOLDS:
        above = confidence >= threshold
        accuracy = right[above].mean() if above.any() else float("nan")
        caught = (~right & ~above).sum() / errors if errors else float("nan")
        print(f"| {threshold:.2f} | {(~above).mean():.1%} | {accuracy:.2%} | "
              f"{(~right & above).sum()} | {caught:.0%} |")
    if args.picture:
        confusion_picture(truth, predicted, args.picture)
        print(f"\nwrote {args.picture}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
