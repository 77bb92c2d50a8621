"""``fanscan export DIR --format coco|yolo|voc|crops --out PATH``: labels for other tools.

Reads the label files under DIR (reviewed photos only, unless ``--all``) and writes them as a
COCO JSON file, a YOLO dataset folder, a Pascal VOC folder, or per-class crop folders with a
``labels.csv`` (the layout the classifier's training reads real crops in).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from fanscan.cli._inputs import named_path
from fanscan.errors import FanscanError

if TYPE_CHECKING:
    from fanscan.datasets.labels import PhotoLabels

ORDER = 71
FORMATS = ("coco", "yolo", "voc", "crops")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "export",
        help="export a labelled folder as COCO, YOLO, Pascal VOC or crop folders",
        description="Export the labels of a folder of photos (see fanscan label). COCO: one JSON "
        "file (--out labels.json), photos stay where they are. YOLO, VOC: a dataset folder with "
        "copies of the photos. crops: one upright image per tile in a folder per code, and a "
        "labels.csv (file,label) for training the classifier.",
    )
    parser.add_argument("directory", type=named_path, metavar="DIR", help="labelled folder of photos")
    parser.add_argument("--format", choices=FORMATS, required=True, help="what to write")
    parser.add_argument(
        "--out",
        type=named_path,
        required=True,
        metavar="PATH",
        help="COCO: the JSON file; others: the folder to write",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="include photos no person has reviewed yet (default: reviewed only)",
    )
    parser.add_argument(
        "--obb",
        action="store_true",
        help="YOLO: oriented boxes (class and four corners) instead of upright boxes",
    )
    parser.add_argument(
        "--val-fraction",
        type=float,
        default=0.0,
        metavar="F",
        help="YOLO: put about this share of the photos (whole photos, by a hash of the name) in "
        "images/val and the rest in images/train (default 0: no split)",
    )
    parser.set_defaults(handler=run)


def _check_out(out: Path, directory: Path, form: str) -> None:
    """Refuse an ``--out`` that would write over the folder's own photos and labels: a COCO file
    named as a photo or a label file, or a folder of images that is the source folder or lies
    inside it (its photos would then be found among the folder's own); and a folder that holds
    files already (someone's: a dataset written there would replace some and mix with the rest)."""
    from fanscan.datasets.labels import SUFFIX, is_photo

    if form == "coco":
        if out.name.endswith(SUFFIX) or is_photo(out):
            raise FanscanError("bad_path", f"{out} is named as a photo or a label file: COCO is written "
                                           "to a .json file of its own")
        return
    try:
        inside = out.resolve().is_relative_to(directory.resolve())
    except (OSError, ValueError):
        inside = False
    if inside:
        raise FanscanError("bad_path", f"{out} is the folder exported, or inside it: {form} is written "
                                       "to a folder of its own, apart from the photos")
    if out.is_dir() and any(out.iterdir()):
        raise FanscanError("bad_path", f"{out} holds files already: {form} is written to a folder of its own, "
                                       "whose files would replace or mix with them; name a new or empty folder")


def _readable(photos: list[PhotoLabels], directory: Path, decode: bool = False) -> list[PhotoLabels]:
    """The photos whose file is an image fanscan reads (with ``decode``, whose picture decodes
    too: a file cut short has a header); each other one is named on stderr and left out, so
    that one broken file does not stop the export of the rest."""
    from fanscan.vision.image_io import load_photo

    kept = []
    for photo in photos:
        try:
            picture = load_photo(directory / photo.image, name="it")
            if decode:
                picture.decode(8)
        except FanscanError as error:
            print(f"fanscan: skipped {photo.image}: {error.message}", file=sys.stderr)
            continue
        kept.append(photo)
    return kept


def run(args: argparse.Namespace) -> int:
    from fanscan.datasets.labels import load_folder

    if args.obb and args.format != "yolo":
        raise FanscanError("bad_usage", "--obb only applies to --format yolo")
    if args.val_fraction and args.format != "yolo":
        raise FanscanError("bad_usage", "--val-fraction only applies to --format yolo")
    if not 0 <= args.val_fraction < 1:
        raise FanscanError(
            "bad_option", f"--val-fraction must be at least 0 and below 1, not {args.val_fraction}"
        )
    if args.format == "coco" and args.out.is_dir():
        raise FanscanError("bad_path", f"{args.out} is a folder: COCO is written to a .json file")
    if args.format != "coco" and args.out.exists() and not args.out.is_dir():
        raise FanscanError(
            "bad_path", f"{args.out} is a file: {args.format} is written to a folder"
        )
    _check_out(args.out, args.directory, args.format)
    photos = load_folder(args.directory)
    wanted = [p for p in photos if args.all or p.status == "reviewed"]
    chosen = _readable(wanted, args.directory, decode=args.format == "crops")
    skipped = len(wanted) - len(chosen)
    if not chosen:
        hint = (
            f" ({skipped} skipped: no image fanscan reads)" if skipped
            else " (none is reviewed yet: review them with fanscan label, or pass --all)" if photos
            else ""
        )
        raise FanscanError(
            "nothing_to_export", f"no labelled photos to export in {args.directory}{hint}"
        )
    if args.format == "coco":
        from fanscan.datasets.formats.coco import save_coco

        save_coco(args.out, chosen)
    elif args.format == "yolo":
        from fanscan.datasets.formats.yolo import save_yolo

        save_yolo(args.out, chosen, args.directory, obb=args.obb, val_fraction=args.val_fraction)
    elif args.format == "voc":
        from fanscan.datasets.formats.voc import save_voc

        save_voc(args.out, chosen, args.directory)
    else:
        from fanscan.datasets.formats.crops import save_crops

        save_crops(args.out, chosen, args.directory)
    tiles = sum(len(p.tiles) for p in chosen)
    left = len(photos) - len(wanted)
    notes = ([f"{left} unreviewed left out; --all includes them"] if left else []) + (
        [f"{skipped} skipped: no image fanscan reads"] if skipped else [])
    note = f" ({'; '.join(notes)})" if notes else ""
    print(f"exported {len(chosen)} photos, {tiles} tiles, as {args.format} to {args.out}{note}")
    return 0
