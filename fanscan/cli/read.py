"""``fanscan read PHOTO...``: what photos of hands show (tiles, groups, the hand, doubts), unscored.

Several photos (or a folder of them) are read in one process, or in ``--workers N`` processes,
each keeping one set of ONNX sessions for all its photos; with ``--json`` every photo gives one
line of JSON, in the order given.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fanscan import strict_json
from fanscan.cli._inputs import named
from fanscan.errors import FanscanError

if TYPE_CHECKING:
    from fanscan.scoring.hand import Hand

ORDER = 20

PROGRESS_FROM = 10
"""Runs of at least this many photos show their progress on standard error."""

EPILOG = """\
PHOTO may be a folder (every photo under it, sorted by path) or - for a photo on standard input.
Photos: JPEG, PNG, WebP, TIFF, BMP; HEIC/HEIF with pip install 'fanscan[heif]'.

exit status:
  0  every photo was read
  1  bad input: a photo could not be read or shows no tiles (each one says why; with several
     photos the others are still read, and each failure is a JSON line with "error")
  2  usage error (unknown option, missing PHOTO)
"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "read",
        help="read the tiles and the declared hand in photos",
        description="Find every tile in a photo of a declared hand, name it, work out the melds, "
        "flowers and winning tile, and say what is uncertain. Nothing is scored (see "
        "`fanscan score PHOTO`).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("photos", nargs="+", metavar="PHOTO", type=named,
                        help="photo of a hand, a folder of photos, or - for standard input")
    parser.add_argument("--json", action="store_true",
                        help='one JSON object per photo and line: {"file", "tiles", "hand", '
                        '"doubts", "groups", ...}, or {"file", "error", "code"}')
    parser.add_argument("--annotate", metavar="OUT.jpg", type=named,
                        help="(one photo) also write the photo with every tile's box, code and "
                        "confidence")
    parser.add_argument("--debug", dest="debug_dir", metavar="DIR", type=named,
                        help="(one photo) write the intermediate images (finder maps, "
                        "detections, crops) to DIR")
    parser.add_argument("--all-tiles", action="store_true",
                        help="read every tile in any arrangement (grids, piles, several hands) as "
                        "one layout, with no hand picked out and no hand rules applied (as the "
                        "labelling tool's pre-labels do)")
    parser.add_argument("--rules", metavar="NAME",
                        help="rule set whose hand size the reading must have (see `fanscan rules`; "
                        "default: any rule set's, or a 16-tile game's)")
    parser.add_argument("--hand", choices=("win", "waiting", "any"), default=None,
                        help="what the photo shows: a complete winning hand (default), a hand "
                        "waiting to win (one tile short), or any tiles of a hand (no size asked)")
    parser.add_argument(
        "--model", metavar="ONNX", type=named, help="classifier model (default: the shipped one)"
    )
    parser.add_argument("--workers", type=_positive, default=1, metavar="N",
                        help="read in N processes (default 1)")
    parser.add_argument("--quiet", action="store_true",
                        help=f"no progress on standard error (shown from {PROGRESS_FROM} photos)")
    parser.set_defaults(handler=run)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def tiles_counted(count: int) -> str:
    """``count`` tiles, in words: "1 tile", "14 tiles"."""
    return f"{count} tile{'' if count == 1 else 's'}"


def hand_line(hand: Hand, waiting: bool = False) -> str:
    """One line for people: the tiles, the sets, the winning tile and the flowers of ``hand``
    (``waiting``: a hand one tile short of a win, whose JSON names a winning tile only because
    the hand JSON holds one)."""
    sets = [
        ("concealed " if m.concealed else "exposed ") + m.kind for m in hand.melds
    ]
    parts = [tiles_counted(hand.tile_count()), f"{len(hand.concealed)} standing"]
    parts += sets
    text = ", ".join(parts)
    win = hand.win_tile
    if waiting:
        waits = hand.tile_count() % 3 == 1
        text += "; waiting to win" if waits else "; read as waiting, but not a waiting hand's count"
    else:
        text += f"; winning tile {win.code}" if win is not None else "; no winning tile"
    if hand.flowers:
        text += f"; flower{'s' if len(hand.flowers) > 1 else ''} " + " ".join(
            f.code for f in hand.flowers
        )
    return text


def hand_notation(hand: Hand) -> str:
    """The notation of ``hand`` (``-`` when the photo showed no playing tile)."""
    from fanscan.scoring.notation import format_notation

    return format_notation(hand) if hand.concealed or hand.melds else "-"


def summary(reading: Any, waiting: bool = False) -> str:
    """The reading in a few lines for people (``waiting``: read as a hand waiting to win)."""
    hand = reading.hand
    width, height = reading.image_size
    lines = [f"{tiles_counted(len(reading.tiles))} found in a {width}x{height} photo"]
    apart = sum(not t.in_hand for t in reading.tiles)
    if apart:
        lines[0] += f", {apart} of them outside the hand (not read as part of it)"
    lines.append(f"hand: {hand_notation(hand)}")
    lines.append(hand_line(hand, waiting))
    lines.append("concealed: " + (" ".join(t.code for t in hand.concealed) or "-"))
    for meld in hand.melds:
        kind = ("concealed " if meld.concealed else "exposed ") + meld.kind
        lines.append(f"{kind}: {' '.join(t.code for t in meld.tiles)}")
    if not waiting:
        lines.append(f"winning tile: {hand.win_tile.code if hand.win_tile is not None else '-'}")
    if hand.flowers:
        lines.append("flowers: " + " ".join(f.code for f in hand.flowers))
    for description, _ in reading.alternatives:
        lines.append(f"other reading: {description}")
    for doubt in reading.doubts:
        lines.append(f"doubt: {doubt}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.all_tiles and (args.rules is not None or args.hand is not None):
        raise FanscanError("bad_usage", "--all-tiles reads no hand: --rules and --hand do not go with it")
    args.hand = args.hand or "win"
    if args.rules is not None:
        from fanscan.scoring.ruleset import get_ruleset

        get_ruleset(args.rules)  # an unknown rule set is one line before any photo is read
    from fanscan.cli._inputs import STDIN, check_image_out, photo_names, stdin_bytes

    names = photo_names(args.photos)
    single = names == args.photos and len(names) == 1  # one photo named, not a folder of one
    if (args.annotate or args.debug_dir) and not single:
        raise FanscanError("bad_arguments", "--annotate and --debug take one photo, not several")
    if args.annotate:
        check_image_out(args.annotate, "--annotate", names)
    if args.debug_dir and Path(args.debug_dir).exists() and not Path(args.debug_dir).is_dir():
        raise FanscanError("bad_path", f"--debug {args.debug_dir} is a file, not a folder")
    if single:
        return _run_one(args, names[0])
    photos = [(name, stdin_bytes("a photo") if name == STDIN else None) for name in names]
    return _run_many(args, photos)


def _run_one(args: argparse.Namespace, name: str) -> int:
    from fanscan.cli._inputs import photo_source
    from fanscan.vision.reader import read_photo

    classifier = None
    if args.model:
        from fanscan.vision.classifier import TileClassifier

        classifier = TileClassifier(args.model)
    reading = read_photo(photo_source(name), classifier=classifier, debug_dir=args.debug_dir,
                         one_hand=not args.all_tiles, rules=args.rules, hand=args.hand)
    if args.annotate:
        reading.save_annotated(args.annotate)
    if args.json:
        print(strict_json.dumps({"file": name, **reading.to_json()}))
    else:
        print(summary(reading, waiting=args.hand == "waiting"))
    return 0


def _run_many(args: argparse.Namespace, photos: list[tuple[str, bytes | None]]) -> int:
    from tqdm import tqdm

    from fanscan.cli._batch import ReadOptions, read_all

    failed = 0
    show = not args.quiet and len(photos) >= PROGRESS_FROM
    with tqdm(total=len(photos), unit="photo", desc="reading", disable=not show,
              file=sys.stderr) as bar:
        for number, outcome in enumerate(
            read_all(photos, model=args.model, workers=args.workers, progress=bar.update,
                     options=ReadOptions(not args.all_tiles, args.rules, args.hand))
        ):
            if outcome.error is not None:
                failed += 1
                bar.write(f"fanscan: error: {outcome.error}", file=sys.stderr)
                if args.json:
                    line = {"file": outcome.name, "error": outcome.error, "code": outcome.code}
                    print(strict_json.dumps(line), flush=True)
                continue
            if args.json:
                print(strict_json.dumps({"file": outcome.name, **(outcome.reading or {})}), flush=True)
            else:
                gap = "\n" if number else ""
                print(f"{gap}== {outcome.name}\n{outcome.summary}", flush=True)
    return 1 if failed else 0
