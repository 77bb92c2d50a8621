"""``fanscan classify CROP...``: name the tile face in each crop image (one tile per file)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from fanscan import strict_json
from fanscan.cli._inputs import named
from fanscan.errors import FanscanError

if TYPE_CHECKING:
    import numpy as np
    from fanscan.vision.image_io import Photo

ORDER = 30

CROP_LONG_SIDE = 500
"""Images up to this many pixels on their long side are taken as crops without a look."""
TILE_SIDE = 64
"""``one_tile_when_small``: the image shrunk to this long side, a tile's size to the finder..."""
TABLE_SIDE = 224
"""...in the middle of a plain table this many pixels square."""
TABLE_BGR = (40, 110, 40)
ONE_TILE_COVERS = 0.5
"""...is one tile when the finder finds one box there covering at least this share of it."""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "classify",
        help="name the tile in each crop image",
        description="Classify crops that each hold one tile face: prints the tile code (1m..9m, "
        "1p..9p, 1s..9s, E S W N C F P, 1f..8f, or back for a face-down tile) and the model's "
        "confidence for every file, and how likely the image holds no tile at all (no_tile). "
        "The code and its confidence say which face the crop shows if it shows one; no_tile is "
        "the model's own answer to whether it does. A plain back or a blank white dragon may "
        "score high on both (a face with no drawing looks like felt); the photo reader keeps "
        "those as tiles. A crop wider than tall (a tile lying sideways) is read turned a "
        "quarter too, and a doubtful one again at its middle (a loose crop, table around the "
        "face). A whole photo of a hand gets a warning: read it with `fanscan read`.",
        epilog="exit status: 0 every crop was named; 1 bad input (a file that is no image); "
        "2 usage error.",
    )
    parser.add_argument(
        "crops", nargs="+", metavar="CROP", type=named, help="image file of one tile (- for stdin)"
    )
    parser.add_argument("--json", action="store_true",
                        help='one JSON object per line: {"file", "code", "confidence", "no_tile"}')
    parser.add_argument("--model", metavar="ONNX", type=named, help="classifier model (default: the shipped one)")
    parser.add_argument("--no-numerals", action="store_true",
                        help="skip the second look at the number printed on a flower or season")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from fanscan.cli import one_line
    from fanscan.cli._inputs import STDIN, photo_source
    from fanscan.vision.classifier import TileClassifier, default_classifier
    from fanscan.vision.crop_reading import read_crops
    from fanscan.vision.flowers import FlowerLooks, default_flower_looks
    from fanscan.vision.annotate import DOUBT_BELOW
    from fanscan.vision.image_io import load_photo
    from fanscan.vision.tile_reading import NO_TILE_ABOVE, PLAIN_FACES

    if args.crops.count(STDIN) > 1:
        raise FanscanError("bad_arguments", "standard input (-) can be read only once")
    # One image that cannot be read is said on its own line; the others are still classified.
    failed: dict[int, str] = {}
    loaded: list[tuple[str, Photo, np.ndarray]] = []
    for number, path in enumerate(args.crops):
        try:
            photo = load_photo(photo_source(path))
            loaded.append((path, photo, photo.decode(1)))
        except FanscanError as error:
            if len(args.crops) == 1:
                raise
            failed[number] = error.message
            print(f"fanscan: error: {one_line(error.message)}", file=sys.stderr)
    if not loaded:
        raise FanscanError("unreadable_image", f"none of the {len(args.crops)} images could be read")
    paths, photos, images = (list(column) for column in zip(*loaded))
    classifier = TileClassifier(args.model) if args.model else default_classifier()
    looks = default_flower_looks()
    if args.no_numerals:
        looks = FlowerLooks(looks.specialist, None)
    readings = read_crops(images, classifier, looks)
    codes = [r.code for r in readings]
    confidences = [r.confidence for r in readings]
    no_tile = [r.no_tile for r in readings]
    for path, photo, image, code, confidence, none in zip(paths, photos, images, codes, confidences, no_tile,
                                                          strict=True):
        found = tiles_in_photo(photo)
        # A large crop of one tile shows the finder pieces of its face: it is a crop still when,
        # shrunk to a tile's size, it is one tile, and the classifier is sure of its face.
        shown = "the image on standard input" if path == STDIN else path
        if found > 1 and not (confidence >= DOUBT_BELOW and none <= NO_TILE_ABOVE and one_tile_when_small(image)):
            print(
                f"fanscan: warning: {shown} looks like a whole photo ({found} tiles found); "
                "classify expects one tile per image (read photos with fanscan read)",
                file=sys.stderr,
            )
        elif classifier.answers_no_tile and none > NO_TILE_ABOVE:
            plain = (" or a face with no drawing (a white dragon, a back: they look alike to the model)"
                     if code in PLAIN_FACES else "")
            print(f"fanscan: warning: {shown} seems to hold no tile (no_tile {none:.2f}){plain}; "
                  "its code is the likeliest face if it holds one", file=sys.stderr)
    answers = iter(zip(codes, confidences, no_tile, strict=True))
    if args.json:  # one line per image file, in order: its face, or why it could not be read
        for number, path in enumerate(args.crops):
            if number in failed:
                print(strict_json.dumps({"file": path, "error": failed[number]}))
                continue
            code, confidence, none = next(answers)
            line = {"file": path, "code": code, "confidence": round(float(confidence), 4)}
            if classifier.answers_no_tile:
                line["no_tile"] = round(float(none), 4)
            print(strict_json.dumps(line))
        return 1 if failed else 0
    width = max(len("file"), *(len(path) for path in paths))
    print(f"{'file':<{width}}  code  confidence" + "  no tile" * classifier.answers_no_tile)
    for path, (code, confidence, none) in zip(paths, answers):
        print(f"{path:<{width}}  {code:<4}  {confidence:10.3f}"
              + f"  {none:7.3f}" * classifier.answers_no_tile)
    return 1 if failed else 0


def tiles_in_photo(photo: Photo) -> int:
    """How many tiles the finder sees in a large image (0 for one small enough to be a crop)."""
    if max(photo.size) <= CROP_LONG_SIDE:
        return 0
    from fanscan.vision.locate import locate

    try:
        return len(locate(photo)[1])
    except FanscanError:
        return 0


def one_tile_when_small(image: np.ndarray) -> bool:
    """Whether ``image`` (BGR), shrunk to a tile's size (``TILE_SIDE``) and laid on a plain table,
    is one tile to the finder: one box covering most of it (``ONE_TILE_COVERS``). A whole photo so
    shrunk is mostly several boxes or none."""
    import cv2
    import numpy as np
    from fanscan.vision import finder
    from fanscan.vision.numeric import quad_areas

    height, width = image.shape[:2]
    factor = TILE_SIDE / max(height, width)
    small = cv2.resize(image, (max(1, round(width * factor)), max(1, round(height * factor))),
                       interpolation=cv2.INTER_AREA)
    table = np.full((TABLE_SIDE, TABLE_SIDE, 3), TABLE_BGR, np.uint8)
    top, left = (TABLE_SIDE - small.shape[0]) // 2, (TABLE_SIDE - small.shape[1]) // 2
    table[top : top + small.shape[0], left : left + small.shape[1]] = small
    found = finder.find_tiles(table)
    return len(found) == 1 and float(quad_areas(found.quads)[0]) >= ONE_TILE_COVERS * small.shape[0] * small.shape[1]
