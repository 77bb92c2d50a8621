"""Pascal VOC export and import: round trip of boxes and the published XML structure."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest

from fanscan.datasets.formats.voc import format_voc, load_voc, parse_voc, save_voc
from fanscan.datasets.labels import PhotoLabels, TileLabel
from fanscan.errors import FanscanError


def _boxes_by_person(photo: PhotoLabels) -> PhotoLabels:
    """What VOC keeps: codes and axis-aligned boxes, set by a person."""
    tiles = []
    for tile in photo.tiles:
        x0, y0, x1, y1 = tile.bounds
        tiles.append(TileLabel(tile.code, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), 1.0, "person"))
    return PhotoLabels(photo.image, photo.width, photo.height, tuple(tiles), status="reviewed")


def test_voc_round_trip_keeps_codes_and_boxes(scene: PhotoLabels) -> None:
    assert parse_voc(format_voc(scene)) == _boxes_by_person(scene)


def test_voc_xml_has_the_published_elements(scene: PhotoLabels) -> None:
    root = ET.fromstring(format_voc(scene))
    assert root.tag == "annotation"
    assert root.findtext("filename") == "table/hand.png"
    assert [root.findtext(f"size/{key}") for key in ("width", "height", "depth")] == [
        "320",
        "200",
        "3",
    ]
    objects = root.findall("object")
    assert [o.findtext("name") for o in objects] == ["5p", "E", "back"]
    tilted = objects[2].find("bndbox")
    assert tilted is not None
    # The box spans pixel edges 160-240 and 60-140: VOC's 1-based first and last pixels.
    assert [tilted.findtext(k) for k in ("xmin", "ymin", "xmax", "ymax")] == [
        "161",
        "61",
        "240",
        "140",
    ]
    assert all(o.findtext("difficult") == "0" for o in objects)


def test_voc_dataset_round_trip_through_folders(
    tmp_path: Path, scene: PhotoLabels, scene_root: Path
) -> None:
    save_voc(tmp_path / "voc", [scene], scene_root)
    assert (tmp_path / "voc" / "JPEGImages" / "table__hand.png").is_file()
    assert (tmp_path / "voc" / "ImageSets" / "Main" / "trainval.txt").read_text() == "table__hand\n"
    (photo,) = load_voc(tmp_path / "voc")
    assert photo == replace(_boxes_by_person(scene), image="table__hand.png")


def test_voc_missing_box_is_named(scene: PhotoLabels) -> None:
    text = format_voc(scene).replace("<xmin>161</xmin>", "")
    with pytest.raises(FanscanError, match="a.xml object 3: missing <bndbox/xmin>"):
        parse_voc(text, "a.xml")


@pytest.mark.parametrize("text", ["inf", "nan", "1e999", "wide"])
def test_voc_number_that_is_no_finite_number_is_named(scene: PhotoLabels, text: str) -> None:
    xml = format_voc(scene)
    width = xml[xml.index("<width>"):xml.index("</width>") + len("</width>")]
    with pytest.raises(FanscanError, match=f"a.xml: <size/width> is '{text}', not a finite number"):
        parse_voc(xml.replace(width, f"<width>{text}</width>"), "a.xml")


def test_voc_unknown_class_is_named(scene: PhotoLabels) -> None:
    text = format_voc(scene).replace("<name>E</name>", "<name>east</name>")
    with pytest.raises(FanscanError, match="a.xml object 2: class 'east' is not a tile code"):
        parse_voc(text, "a.xml")


def test_voc_boxes_are_whole_pixels_covering_the_tile(scene: PhotoLabels) -> None:
    tile = TileLabel("7s", ((10.2, 20.7), (30.5, 20.7), (30.5, 40.0), (10.2, 40.0)), 1.0, "person")
    root = ET.fromstring(format_voc(replace(scene, tiles=(tile,))))
    box = root.find("object/bndbox")
    assert box is not None
    # Columns 10-30 (0-based pixels holding part of the box) are 11-31 counted from 1.
    assert [box.findtext(k) for k in ("xmin", "ymin", "xmax", "ymax")] == ["11", "21", "31", "40"]
    (back,) = parse_voc(ET.tostring(root, encoding="unicode")).tiles
    assert back.bounds == (10.0, 20.0, 31.0, 40.0)  # the whole pixels, holding the box


def test_voc_boxes_stay_inside_the_photo(scene: PhotoLabels) -> None:
    tile = TileLabel("7s", ((-3.0, -1.0), (321.5, -1.0), (321.5, 201.0), (-3.0, 201.0)), 1.0, "person")
    box = ET.fromstring(format_voc(replace(scene, tiles=(tile,)))).find("object/bndbox")
    assert box is not None
    assert [box.findtext(k) for k in ("xmin", "ymin", "xmax", "ymax")] == ["1", "1", "320", "200"]


def test_voc_class_map_names_codes_and_leaves_classes_out(scene: PhotoLabels) -> None:
    from fanscan.datasets.formats.class_map import parse_class_map

    text = format_voc(scene).replace("<name>5p</name>", "<name>dots-5</name>")
    text = text.replace("<name>back</name>", "<name>joker</name>")
    class_map = parse_class_map("dots-5: 5p\njoker: null\n", "m.yaml")
    photo = parse_voc(text, "a.xml", class_map)
    assert [t.code for t in photo.tiles] == ["5p", "E"]
    assert class_map.left_out == {"joker"}
