"""``fanscan import SOURCE --format coco|yolo|voc``: labels from other tools, beside the photos.

Each photo named in SOURCE gets a label file (PHOTO.fanscan.json) beside it in the image folder
(``--images``; by default the COCO file's folder, the YOLO dataset's ``images/``, or the VOC
dataset's ``JPEGImages/``), ready for ``fanscan label`` and ``fanscan export``. ``--map`` turns
another tool's class names into tile codes (``datasets/formats/class_map.py``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from fanscan.cli._inputs import named_path
from fanscan.errors import FanscanError

ORDER = 72
FORMATS = ("coco", "yolo", "voc")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "import",
        help="read COCO, YOLO or Pascal VOC labels into label files beside the photos",
        description="Read labels made with another tool (a COCO JSON file, a YOLO or a Pascal VOC "
        "dataset folder) and write a fanscan label file beside each photo. Existing label files "
        "are kept unless --overwrite.",
    )
    parser.add_argument(
        "source",
        type=named_path,
        metavar="SOURCE",
        help="COCO: the JSON file; YOLO, VOC: the dataset folder",
    )
    parser.add_argument("--format", choices=FORMATS, required=True, help="what SOURCE is")
    parser.add_argument(
        "--images",
        type=named_path,
        metavar="DIR",
        help="the folder the photos are in (default: the COCO file's folder, the YOLO dataset's "
        "images/, the VOC dataset's JPEGImages/)",
    )
    parser.add_argument(
        "--map",
        metavar="FILE",
        help="class names -> tile codes: a YAML/JSON file (a class mapped to null is left out), "
        f"or a ready map: {', '.join(_ready_maps())}; without it the classes must be tile codes",
    )
    parser.add_argument("--overwrite", action="store_true", help="replace existing label files")
    parser.set_defaults(handler=run)


def _ready_maps() -> list[str]:
    from fanscan.datasets.formats.class_map import bundled_maps

    return bundled_maps()


def run(args: argparse.Namespace) -> int:
    from fanscan.datasets.labels import check_corners_reach, label_path, save_in_folder

    class_map = None
    if args.map:
        from fanscan.datasets.formats.class_map import load_class_map

        class_map = load_class_map(args.map)
    if args.format == "coco":
        from fanscan.datasets.formats.coco import load_coco

        photos = load_coco(args.source, class_map)
        images = args.images or args.source.parent
    elif args.format == "yolo":
        from fanscan.datasets.formats.yolo import load_yolo

        photos = load_yolo(args.source, class_map)
        images = args.images or args.source / "images"
    else:
        from fanscan.datasets.formats.voc import load_voc

        photos = load_voc(args.source, class_map)
        images = args.images or args.source / "JPEGImages"
    outside = [p.image for p in photos if not _inside(images, p.image)]
    if outside:
        raise FanscanError(
            "bad_path", f"{args.source} names a photo outside {images} ({outside[0]!r}): labels are "
                        "written only beside the photos in that folder"
        )
    missing = [p.image for p in photos if not (images / p.image).is_file()]
    if missing:
        more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
        raise FanscanError(
            "not_found", f"photo {missing[0]!r}{more} named in {args.source} is not in {images}"
        )
    for photo in photos:  # a box off the photo is a slip in the dataset (the labelling page would refuse to save it)
        check_corners_reach(photo, f"{args.source}, photo {photo.image!r}")
    written = kept = tiles = 0
    for photo in photos:
        if label_path(images / photo.image).exists() and not args.overwrite:
            kept += 1
            continue
        save_in_folder(images, photo)
        written += 1
        tiles += len(photo.tiles)
    note = f", kept {kept} existing label files (--overwrite replaces them)" if kept else ""
    if class_map is not None and class_map.left_out:
        note += f"; left out the classes mapped to nothing: {', '.join(sorted(class_map.left_out))}"
    print(f"imported {written} photos with {tiles} tiles into {images}{note}")
    return 0


def _inside(folder: Path, name: str) -> bool:
    """Whether photo ``name`` (relative, as a dataset names it) lies inside ``folder``: no absolute
    name, no ``..`` out of it, no link leading out."""
    if not name or Path(name).is_absolute() or "\0" in name:
        return False
    root = folder.resolve()
    try:
        return (root / name).resolve().is_relative_to(root)
    except (OSError, ValueError):
        return False
