"""Pascal VOC: one XML annotation per photo, in ``Annotations/``, photos in ``JPEGImages/``.

Each tile is an ``<object>`` named by its tile code with an axis-aligned ``<bndbox>`` in whole
pixels, 1-based, first and last pixel covered (as the VOC devkit writes them; ``voc_box``); read
back, a box covers those pixels. ``ImageSets/Main/trainval.txt`` lists the photos. VOC keeps only
codes and boxes: tiles read back count as set by a person, photos as reviewed.
"""

from __future__ import annotations

import math
import os
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from fanscan.atomic import write_text_atomic
from fanscan.datasets.formats._common import coder, place_photo, read_text_file, rectangle, refuse_name_clashes
from fanscan.datasets.formats.class_map import ClassMap
from fanscan.datasets.labels import PhotoLabels, TileLabel
from fanscan.errors import FanscanError


def voc_box(bounds: tuple[float, float, float, float], width: int, height: int) -> tuple[int, ...]:
    """VOC's whole-pixel box of ``bounds`` (fanscan's pixel edges, from 0): the 1-based first and
    last pixel columns and rows it covers, as the VOC devkit counts them, within the photo.

    >>> voc_box((10.0, 20.5, 30.2, 40.0), 100, 100)
    (11, 21, 31, 40)
    """
    x_min, y_min, x_max, y_max = bounds
    return (
        min(max(1, math.floor(x_min) + 1), width),
        min(max(1, math.floor(y_min) + 1), height),
        min(max(1, math.ceil(x_max)), width),
        min(max(1, math.ceil(y_max)), height),
    )


def format_voc(photo: PhotoLabels) -> str:
    """The annotation XML of one photo."""
    root = ET.Element("annotation")
    ET.SubElement(root, "folder").text = "JPEGImages"
    ET.SubElement(root, "filename").text = photo.image
    ET.SubElement(ET.SubElement(root, "source"), "database").text = "fanscan"
    size = ET.SubElement(root, "size")
    ET.SubElement(size, "width").text = str(photo.width)
    ET.SubElement(size, "height").text = str(photo.height)
    ET.SubElement(size, "depth").text = "3"
    ET.SubElement(root, "segmented").text = "0"
    for tile in photo.tiles:
        item = ET.SubElement(root, "object")
        ET.SubElement(item, "name").text = tile.code
        ET.SubElement(item, "pose").text = "Unspecified"
        ET.SubElement(item, "truncated").text = "0"
        ET.SubElement(item, "difficult").text = "0"
        box = ET.SubElement(item, "bndbox")
        whole = voc_box(tile.bounds, photo.width, photo.height)
        for key, value in zip(("xmin", "ymin", "xmax", "ymax"), whole):
            ET.SubElement(box, key).text = str(value)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode") + "\n"


def _text(element: ET.Element, path: str, where: str) -> str:
    found = element.findtext(path)
    if found is None or not found.strip():
        raise FanscanError("bad_dataset", f"{where}: missing <{path}>")
    return found.strip()


def _float(element: ET.Element, path: str, where: str) -> float:
    text = _text(element, path, where)
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise FanscanError("bad_dataset", f"{where}: <{path}> is {text!r}, not a finite number")
    return value


def parse_voc(text: str, name: str = "VOC annotation", class_map: ClassMap | None = None) -> PhotoLabels:
    """The photo described by one annotation XML (objects of a class ``class_map`` leaves out
    are skipped)."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        raise FanscanError("bad_dataset", f"{name}: not valid XML ({error})") from None
    if root.tag != "annotation":
        raise FanscanError("bad_dataset", f"{name}: the root element must be <annotation>")
    image = _text(root, "filename", name)
    width, height = (int(_float(root, f"size/{key}", name)) for key in ("width", "height"))
    tiles = []
    to_code = coder(class_map)
    for number, item in enumerate(root.iter("object"), start=1):
        where = f"{name} object {number}"
        code = to_code(_text(item, "name", where), where)
        if code is None:
            continue
        x_min, y_min, x_max, y_max = (
            _float(item, f"bndbox/{key}", where) for key in ("xmin", "ymin", "xmax", "ymax")
        )
        tiles.append(TileLabel(code, rectangle(x_min - 1, y_min - 1, x_max, y_max), 1.0, "person"))
    return PhotoLabels(image, width, height, tuple(tiles), status="reviewed")


def _stem(image: str) -> str:
    """The annotation's base name: the photo's path without suffix, folders joined by ``__``."""
    return str(PurePosixPath(image).with_suffix("")).replace("/", "__")


def save_voc(
    out: str | os.PathLike[str], photos: Sequence[PhotoLabels], image_root: str | os.PathLike[str]
) -> None:
    """Write a VOC dataset into folder ``out``, placing each photo from ``image_root``."""
    root = Path(out)
    names = []
    refuse_name_clashes({photo.image: _stem(photo.image) for photo in photos}, "VOC")
    for photo in photos:
        stem = _stem(photo.image)
        flat_name = stem + PurePosixPath(photo.image).suffix
        place_photo(Path(image_root) / photo.image, root / "JPEGImages" / flat_name)
        flat = PhotoLabels(flat_name, photo.width, photo.height, photo.tiles, status=photo.status)
        write_text_atomic(root / "Annotations" / f"{stem}.xml", format_voc(flat))
        names.append(stem)
    write_text_atomic(
        root / "ImageSets" / "Main" / "trainval.txt", "".join(name + "\n" for name in names)
    )


def load_voc(dataset: str | os.PathLike[str], class_map: ClassMap | None = None) -> list[PhotoLabels]:
    """Read every annotation in ``dataset/Annotations`` (photos named relative to JPEGImages/)."""
    folder = Path(dataset) / "Annotations"
    if not folder.is_dir():
        raise FanscanError("not_found", f"{dataset} has no Annotations folder (not a VOC dataset)")
    return [
        parse_voc(read_text_file(path), str(path), class_map)
        for path in sorted(folder.glob("*.xml"))
    ]
