"""COCO export and import: exact round trip, and files a COCO reader library accepts."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from fanscan.datasets.formats.coco import format_coco, load_coco, parse_coco, save_coco
from fanscan.datasets.labels import PhotoLabels
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import CLASS_LABELS


def test_coco_round_trip_keeps_every_label(scene: PhotoLabels) -> None:
    empty = PhotoLabels("empty.jpg", 50, 40, status="unreviewed", image_bytes=99)
    photos = [scene, empty]
    assert parse_coco(format_coco(photos)) == photos


def test_coco_save_then_load(tmp_path: Path, scene: PhotoLabels) -> None:
    save_coco(tmp_path / "out" / "labels.json", [scene])
    assert load_coco(tmp_path / "out" / "labels.json") == [scene]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # pycocotools vs numpy 2
def test_coco_file_reads_with_pycocotools(tmp_path: Path, scene: PhotoLabels) -> None:
    coco_module = pytest.importorskip("pycocotools.coco")
    path = tmp_path / "labels.json"
    save_coco(path, [scene])
    coco = coco_module.COCO(str(path))
    categories = coco.loadCats(coco.getCatIds())
    assert [category["name"] for category in categories] == list(CLASS_LABELS)
    assert len(categories) == 43
    image_id = coco.getImgIds()[0]
    assert coco.loadImgs(image_id)[0]["file_name"] == "table/hand.png"
    annotations = coco.loadAnns(coco.getAnnIds(imgIds=image_id))
    names = [coco.loadCats(a["category_id"])[0]["name"] for a in annotations]
    assert names == ["5p", "E", "back"]
    tilted = annotations[2]
    assert tilted["bbox"] == [160.0, 60.0, 80.0, 80.0]
    mask = coco.annToMask(tilted)
    assert mask.shape == (200, 320)
    assert abs(int(mask.sum()) - tilted["area"]) < 0.1 * tilted["area"]  # the diamond's 3200 px


def test_coco_from_another_tool_uses_bbox_and_counts_as_person() -> None:
    document = {
        "images": [{"id": 7, "file_name": "x.jpg", "width": 100, "height": 80}],
        "annotations": [{"id": 1, "image_id": 7, "category_id": 3, "bbox": [10, 5, 20, 30]}],
        "categories": [{"id": 3, "name": "N"}],
    }
    (photo,) = parse_coco(json.dumps(document))
    (tile,) = photo.tiles
    assert tile.code == "N"
    assert tile.corners == ((10, 5), (30, 5), (30, 35), (10, 35))
    assert (tile.source, tile.confidence, photo.status) == ("person", 1.0, "reviewed")


def test_coco_unknown_category_is_named(scene: PhotoLabels) -> None:
    document = json.loads(format_coco([scene]))
    document["categories"][4]["name"] = "dragon"
    with pytest.raises(FanscanError, match="class 'dragon' is not a tile code"):
        parse_coco(json.dumps(document), "in.json")


def test_coco_annotation_of_unknown_category_is_named(scene: PhotoLabels) -> None:
    document = json.loads(format_coco([replace(scene, tiles=scene.tiles[:1])]))
    document["annotations"][0]["category_id"] = 99
    with pytest.raises(FanscanError, match="annotation 1 has unknown category_id 99"):
        parse_coco(json.dumps(document))


def _other_tool_document() -> dict:
    return {
        "images": [{"id": 7, "file_name": "x.jpg", "width": 100, "height": 80}],
        "annotations": [{"id": 1, "image_id": 7, "category_id": 3, "bbox": [10, 5, 20, 30]}],
        "categories": [{"id": 3, "name": "N"}],
    }


@pytest.mark.parametrize(("where", "key", "value", "message"), [
    ("images", "id", [7], "image 'x.jpg''s id must be a whole number or a string, not list"),
    ("annotations", "image_id", {"a": 1}, "image_id must be a whole number or a string, not dict"),
    ("annotations", "category_id", [3], "category_id must be a whole number or a string, not list"),
    ("categories", "id", 3.5, "a category id must be a whole number or a string, not float"),
    ("annotations", "attributes", [1], "attributes must be an object, not list"),
    ("images", "fanscan", "x", "'fanscan' must be an object, not str"),
    ("annotations", "segmentation", [5], "neither a 4-corner polygon nor a bbox"),
])
def test_coco_of_wrong_json_types_is_named_not_a_crash(where: str, key: str, value: object, message: str) -> None:
    document = _other_tool_document()
    document[where][0][key] = value
    if key == "segmentation":
        del document["annotations"][0]["bbox"]
    with pytest.raises(FanscanError, match=message):
        parse_coco(json.dumps(document), "in.json")


@pytest.mark.parametrize("categories", [[1], [None], ["x"]])
def test_coco_categories_that_are_not_objects_are_named(categories: list) -> None:
    document = _other_tool_document()
    document["categories"] = categories
    with pytest.raises(FanscanError, match="every category must be an object"):
        parse_coco(json.dumps(document), "in.json")
