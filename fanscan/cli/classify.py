"""``fanscan classify CROP...``: name the tile face in each crop image (one tile per file)."""

from __future__ import annotations

import argparse
import json

ORDER = 30


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "classify",
        help="name the tile in each crop image",
        description="Classify crops that each hold one tile face: prints the tile code (1m..9m, "
        "1p..9p, 1s..9s, E S W N C F P, 1f..8f, or back for a face-down tile) and the model's "
        "confidence for every file.",
    )
    parser.add_argument("crops", nargs="+", metavar="CROP", help="image file of one tile")
    parser.add_argument("--json", action="store_true",
                        help='one JSON object per line: {"file", "code", "confidence"}')
    parser.add_argument("--model", metavar="ONNX", help="classifier model (default: the shipped one)")
    parser.add_argument("--no-numerals", action="store_true",
                        help="skip the second look at the number printed on a flower or season")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from fanscan.vision.classifier import TileClassifier, default_classifier
    from fanscan.vision.image_io import load_photo
    from fanscan.vision.flowers import FlowerLooks, default_flower_looks

    images = [load_photo(path).decode(1) for path in args.crops]
    classifier = TileClassifier(args.model) if args.model else default_classifier()
    looks = default_flower_looks()
    if args.no_numerals:
        looks = FlowerLooks(looks.specialist, None)
    codes, confidences = classifier.classify(images, looks)
    if args.json:
        for path, code, confidence in zip(args.crops, codes, confidences, strict=True):
            print(json.dumps({"file": path, "code": code, "confidence": round(float(confidence), 4)}))
        return 0
    width = max(len("file"), *(len(path) for path in args.crops))
    print(f"{'file':<{width}}  code  confidence")
    for path, code, confidence in zip(args.crops, codes, confidences, strict=True):
        print(f"{path:<{width}}  {code:<4}  {confidence:10.3f}")
    return 0
