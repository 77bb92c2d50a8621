"""COCO object-detection JSON: one file listing images, annotations and the 43 tile categories.

Categories are the contract's class order with ids 1..43, named by tile code (``5p``, ``E``,
``back``). Each annotation has the usual axis-aligned ``bbox`` [x, y, w, h] and ``area``, plus the
tile's four corners as its ``segmentation`` polygon (clockwise from the face's top-left), and
fanscan's extras in ``attributes`` (confidence, source, group). Each image carries its review
status, reader and layout groups under a ``fanscan`` key. COCO readers ignore the extras, and
fanscan reads files from other tools without them: a polygon of other than four points falls back
to the bbox, and a tile without attributes counts as set by a person.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fanscan.atomic import write_text_atomic
from fanscan.datasets.formats._common import coder, rectangle, supercategory
from fanscan.datasets.formats.class_map import ClassMap
from fanscan.datasets.labels import PhotoLabels, labels_from_json, labels_to_json, quad_area
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.strict_json import finite_number


def format_coco(photos: Sequence[PhotoLabels]) -> str:
    """The COCO JSON text for ``photos``."""
    images: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
    for image_id, photo in enumerate(photos, start=1):
        extras = labels_to_json(photo)
        images.append(
            {
                "id": image_id,
                "file_name": photo.image,
                "width": photo.width,
                "height": photo.height,
                "fanscan": {
                    "status": photo.status,
                    "reader": photo.reader,
                    "groups": extras["groups"],
                    **({"image_bytes": photo.image_bytes} if photo.image_bytes is not None else {}),
                },
            }
        )
        for tile in photo.tiles:
            x_min, y_min, x_max, y_max = tile.bounds
            annotations.append(
                {
                    "id": len(annotations) + 1,
                    "image_id": image_id,
                    "category_id": CLASS_LABELS.index(tile.code) + 1,
                    "bbox": [x_min, y_min, x_max - x_min, y_max - y_min],
                    "area": quad_area(tile.corners),
                    "segmentation": [[value for corner in tile.corners for value in corner]],
                    "iscrowd": 0,
                    "attributes": {
                        "confidence": tile.confidence,
                        "source": tile.source,
                        "group": tile.group,
                    },
                }
            )
    categories = [
        {"id": index + 1, "name": code, "supercategory": supercategory(code)}
        for index, code in enumerate(CLASS_LABELS)
    ]
    document = {
        "info": {"description": "mahjong tiles labelled with fanscan", "version": "1.0"},
        "licenses": [],
        "categories": categories,
        "images": images,
        "annotations": annotations,
    }
    return json.dumps(document, ensure_ascii=False) + "\n"


def _fail(name: str, message: str) -> FanscanError:
    return FanscanError("bad_dataset", f"{name}: {message}")


def _id(value: Any, what: str, name: str) -> int | str | None:
    """An id as COCO writes them (a whole number or a string; None when missing)."""
    if value is None or isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise _fail(name, f"{what} must be a whole number or a string, not {type(value).__name__}")


def _object(value: Any, what: str, name: str) -> dict[str, Any]:
    """An optional JSON object (empty when missing)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _fail(name, f"{what} must be an object, not {type(value).__name__}")
    return value


def _corners(annotation: dict[str, Any], where: str, name: str) -> tuple[Any, ...]:
    segmentation = annotation.get("segmentation")
    if (isinstance(segmentation, list) and len(segmentation) == 1 and isinstance(segmentation[0], list)
            and len(segmentation[0]) == 8):
        flat = segmentation[0]
        return tuple((flat[i], flat[i + 1]) for i in range(0, 8, 2))
    bbox = annotation.get("bbox")
    if not isinstance(bbox, list) or len(bbox) != 4:
        raise _fail(name, f"{where} has neither a 4-corner polygon nor a bbox")
    if not all(finite_number(v) for v in bbox):
        raise _fail(name, f"{where} has a bbox that is not four finite numbers")
    x, y, w, h = bbox
    return rectangle(x, y, x + w, y + h)


def _tile(annotation: Any, codes: dict[Any, str | None], name: str) -> tuple[Any, dict[str, Any]] | None:
    """The image id and the label-file JSON of one annotation; None for one of a category the
    class map leaves out (mapped to no code)."""
    if not isinstance(annotation, dict):
        raise _fail(name, "every annotation must be an object")
    where = f"annotation {_id(annotation.get('id'), 'an annotation id', name)!r}"
    category = _id(annotation.get("category_id"), f"{where}'s category_id", name)
    if category not in codes:
        raise _fail(name, f"{where} has unknown category_id {category!r}")
    if codes[category] is None:
        return None
    attributes = _object(annotation.get("attributes"), f"{where}'s attributes", name)
    tile_json = {
        "code": codes[category],
        "corners": [list(corner) for corner in _corners(annotation, where, name)],
        "confidence": attributes.get("confidence", 1.0),
        "source": attributes.get("source", "person"),
        "group": attributes.get("group"),
    }
    return _id(annotation.get("image_id"), f"{where}'s image_id", name), tile_json


def parse_coco(text: str, name: str = "COCO file", class_map: ClassMap | None = None) -> list[PhotoLabels]:
    """The photos of a COCO JSON text, in the order of its ``images``; annotations of a category
    ``class_map`` leaves out are skipped."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise _fail(name, f"not valid JSON ({error.msg} at line {error.lineno})") from None
    except (RecursionError, ValueError):  # nested too deeply, or a number too long to convert
        raise _fail(name, "JSON nested too deeply, or a number too long") from None
    if not isinstance(document, dict) or not all(
        isinstance(document.get(key), list) for key in ("images", "annotations", "categories")
    ):
        raise _fail(name, "a COCO file needs lists 'images', 'annotations' and 'categories'")
    to_code = coder(class_map)
    if not all(isinstance(category, dict) for category in document["categories"]):
        raise _fail(name, "every category must be an object with an 'id' and a 'name'")
    codes = {
        _id(category.get("id"), "a category id", name): to_code(str(category.get("name")), name)
        for category in document["categories"]
    }
    tiles_by_image: dict[Any, list[Any]] = {}
    for annotation in document["annotations"]:
        if (found := _tile(annotation, codes, name)) is not None:
            image_id, tile_json = found
            tiles_by_image.setdefault(image_id, []).append(tile_json)
    photos = []
    for image in document["images"]:
        if not isinstance(image, dict) or not isinstance(image.get("file_name"), str):
            raise _fail(name, "every image needs a 'file_name'")
        extras = _object(image.get("fanscan"), f"image {image['file_name']!r}'s 'fanscan'", name)
        tiles = tiles_by_image.get(_id(image.get("id"), f"image {image['file_name']!r}'s id", name), [])
        by_person = all(tile["source"] == "person" for tile in tiles)
        label_json = {
            "format": "fanscan-labels/1",
            "image": image["file_name"],
            "width": image.get("width"),
            "height": image.get("height"),
            "status": extras.get("status", "reviewed" if by_person else "unreviewed"),
            "reader": extras.get("reader", ""),
            "groups": extras.get("groups", []),
            "tiles": tiles,
        }
        if "image_bytes" in extras:
            label_json["image_bytes"] = extras["image_bytes"]
        photos.append(labels_from_json(label_json, f"{name}, image {image['file_name']!r}"))
    return photos


def load_coco(path: str | os.PathLike[str], class_map: ClassMap | None = None) -> list[PhotoLabels]:
    """Read a COCO JSON file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FanscanError("not_found", f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise _fail(str(path), f"cannot be read ({error})") from None
    return parse_coco(text, str(path), class_map)


def save_coco(path: str | os.PathLike[str], photos: Sequence[PhotoLabels]) -> None:
    """Write a COCO JSON file atomically."""
    write_text_atomic(path, format_coco(photos))
