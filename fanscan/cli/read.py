"""``fanscan read PHOTO``: what a photo of a hand shows (tiles, groups, the hand, doubts), unscored."""

from __future__ import annotations

import argparse
import json

ORDER = 20


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "read",
        help="read the tiles and the declared hand in a photo",
        description="Find every tile in a photo of a declared hand, name it, work out the melds, "
        "flowers and winning tile, and say what is uncertain. Nothing is scored (see "
        "`fanscan score PHOTO`).",
    )
    parser.add_argument("photo", metavar="PHOTO", help="JPEG, PNG, WebP, ... photo of the hand")
    parser.add_argument("--json", action="store_true",
                        help='print one JSON object: {"tiles", "hand", "doubts", "groups", ...}')
    parser.add_argument("--annotate", metavar="OUT.jpg",
                        help="also write the photo with every tile's box, code and confidence")
    parser.add_argument("--debug", dest="debug_dir", metavar="DIR",
                        help="write the intermediate images (finder maps, detections, crops) to DIR")
    parser.add_argument("--model", metavar="ONNX", help="classifier model (default: the shipped one)")
    parser.set_defaults(handler=run)


def summary(reading) -> str:
    """The reading in a few lines for people."""
    hand = reading.hand
    lines = [f"{len(reading.tiles)} tiles found in a {reading.image_size[0]}x{reading.image_size[1]} photo"]
    lines.append("concealed: " + (" ".join(hand["concealed"]) or "-"))
    for meld in hand["melds"]:
        kind = ("concealed " if meld["concealed"] else "exposed ") + meld["type"]
        lines.append(f"{kind}: {' '.join(meld['tiles'])}")
    lines.append(f"winning tile: {hand['win_tile'] or '-'}")
    if hand["flowers"]:
        lines.append("flowers: " + " ".join(hand["flowers"]))
    for description, _ in reading.alternatives:
        lines.append(f"other reading: {description}")
    for doubt in reading.doubts:
        lines.append(f"doubt: {doubt}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from fanscan.vision.reader import read_photo

    classifier = None
    if args.model:
        from fanscan.vision.classifier import TileClassifier

        classifier = TileClassifier(args.model)
    reading = read_photo(args.photo, classifier=classifier, debug_dir=args.debug_dir)
    if args.annotate:
        reading.save_annotated(args.annotate)
    if args.json:
        print(json.dumps(reading.to_json(), ensure_ascii=False))
    else:
        print(summary(reading))
    return 0
