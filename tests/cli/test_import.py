"""``fanscan import``: export then import gives the same labels, for each format."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from fanscan.cli import main
from fanscan.datasets.labels import PhotoLabels, TileLabel, label_path, load_folder, save_labels
from fanscan.scoring.tiles import CLASS_LABELS

TILTED = ((30.5, 10.25), (60.0, 20.0), (50.0, 55.5), (20.0, 45.0))
UPRIGHT = ((70.0, 8.0), (95.0, 8.0), (95.0, 50.0), (70.0, 50.0))


def _folder(root: Path) -> Path:
    """Photos ``a.png`` and ``sub/b.png``, both reviewed, with tilted and upright tiles."""
    import cv2

    for name, tiles in (
        ("a.png", (TileLabel("7s", TILTED, 0.6, "model"), TileLabel("C", UPRIGHT, 1.0, "person"))),
        ("sub/b.png", (TileLabel("back", UPRIGHT, 0.95, "model"),)),
    ):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), np.full((60, 100, 3), 90, np.uint8))
        save_labels(label_path(path), PhotoLabels(path.name, 100, 60, tiles, status="reviewed"))
    return root


def _photos_only(source: Path, target: Path) -> Path:
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("*.fanscan.json"))
    return target


def _geometry(photos: list[PhotoLabels], upright: bool = False) -> list[tuple[object, ...]]:
    """Image, size and per-tile code and corners (or the upright box), rounded to 1/1000 px."""

    def corners(tile: TileLabel) -> tuple[float, ...]:
        values = tile.bounds if upright else [v for corner in tile.corners for v in corner]
        return tuple(round(v, 3) for v in values)

    return [(p.image, p.width, p.height, [(t.code, corners(t)) for t in p.tiles]) for p in photos]


def test_import_coco_gives_back_the_same_labels(tmp_path: Path) -> None:
    source = _folder(tmp_path / "source")
    assert main(["export", str(source), "--format", "coco", "--out", str(tmp_path / "c.json")]) == 0
    target = _photos_only(source, tmp_path / "target")
    assert (
        main(["import", str(tmp_path / "c.json"), "--format", "coco", "--images", str(target)]) == 0
    )
    assert load_folder(target) == load_folder(source)


def test_import_yolo_oriented_gives_back_codes_and_corners(tmp_path: Path) -> None:
    source = _folder(tmp_path / "source")
    out = tmp_path / "yolo"
    assert main(["export", str(source), "--format", "yolo", "--obb", "--out", str(out)]) == 0
    assert main(["import", str(out), "--format", "yolo"]) == 0
    imported = load_folder(out / "images")
    assert _geometry(imported) == _geometry(load_folder(source))
    assert {t.source for p in imported for t in p.tiles} == {"person"}


def test_import_yolo_boxes_give_back_codes_and_boxes(tmp_path: Path) -> None:
    source = _folder(tmp_path / "source")
    out = tmp_path / "yolo"
    assert main(["export", str(source), "--format", "yolo", "--out", str(out)]) == 0
    assert main(["import", str(out), "--format", "yolo"]) == 0
    assert _geometry(load_folder(out / "images"), upright=True) == _geometry(
        load_folder(source), upright=True
    )


def test_import_voc_gives_back_codes_and_boxes(tmp_path: Path) -> None:
    source = _folder(tmp_path / "source")
    out = tmp_path / "voc"
    assert main(["export", str(source), "--format", "voc", "--out", str(out)]) == 0
    assert main(["import", str(out), "--format", "voc"]) == 0
    imported = _geometry(load_folder(out / "JPEGImages"), upright=True)
    # VOC keeps whole pixels: the tilted tile's box (x 20-60, y 10.25-55.5) grows to the pixels
    # it touches; the upright one lies on whole pixels already.
    expected = [
        ("a.png", 100, 60, [("7s", (20.0, 10.0, 60.0, 56.0)), ("C", (70.0, 8.0, 95.0, 50.0))]),
        ("sub/b.png", 100, 60, [("back", (70.0, 8.0, 95.0, 50.0))]),
    ]
    assert [(row[0].replace("__", "/"), *row[1:]) for row in imported] == expected  # type: ignore[union-attr]


def test_import_keeps_existing_label_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _folder(tmp_path / "source")
    assert main(["export", str(source), "--format", "coco", "--out", str(tmp_path / "c.json")]) == 0
    before = (source / "a.png.fanscan.json").read_text()
    assert (
        main(["import", str(tmp_path / "c.json"), "--format", "coco", "--images", str(source)]) == 0
    )
    assert "kept 2 existing label files" in capsys.readouterr().out
    assert (source / "a.png.fanscan.json").read_text() == before


def test_import_names_a_missing_photo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _folder(tmp_path / "source")
    assert main(["export", str(source), "--format", "coco", "--out", str(tmp_path / "c.json")]) == 0
    (tmp_path / "empty").mkdir()
    code = main(
        [
            "import",
            str(tmp_path / "c.json"),
            "--format",
            "coco",
            "--images",
            str(tmp_path / "empty"),
        ]
    )
    assert code == 1
    assert "photo 'a.png' and 1 more named in" in capsys.readouterr().err


def _yolo_set(root: Path, names: list[str], lines: list[str]) -> Path:
    """A YOLO set from another tool: its class names in data.yaml, one photo with ``lines``."""
    import cv2

    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    cv2.imwrite(str(root / "images" / "table.jpg"), np.full((100, 200, 3), 90, np.uint8))
    (root / "labels" / "table.txt").write_text("".join(line + "\n" for line in lines))
    (root / "data.yaml").write_text(f"nc: {len(names)}\nnames: {names!r}\n")
    return root


def test_import_yolo_with_the_ready_rf_chinese_map(tmp_path: Path, capsys) -> None:
    # The first five classes of the Roboflow Chinese set, in its data.yaml order.
    names = ["bs1", "sc1", "sd1", "sb1", "hwe"]
    lines = [f"{i} 0.{i + 1} 0.5 0.05 0.2" for i in range(5)]
    source = _yolo_set(tmp_path / "rf", names, lines)
    assert main(["import", str(source), "--format", "yolo", "--map", "rf-chinese"]) == 0
    (photo,) = load_folder(source / "images")
    # spring is the first season (5f); characters, dots, bamboo 1; the east wind
    assert [t.code for t in photo.tiles] == ["5f", "1m", "1p", "1s", "E"]
    assert "imported 1 photos with 5 tiles" in capsys.readouterr().out


def test_import_without_a_map_names_the_class_and_the_way_out(tmp_path: Path, capsys) -> None:
    source = _yolo_set(tmp_path / "rf", ["sc1"], ["0 0.5 0.5 0.1 0.2"])
    assert main(["import", str(source), "--format", "yolo"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fanscan: error: ") and err.count("\n") == 1
    assert "class 'sc1' is not a tile code" in err and "--map" in err


def test_import_coco_with_a_map_file_leaves_out_classes_mapped_to_nothing(
    tmp_path: Path, capsys
) -> None:
    import cv2

    cv2.imwrite(str(tmp_path / "t.png"), np.full((60, 100, 3), 90, np.uint8))
    document = {
        "images": [{"id": 7, "file_name": "t.png", "width": 100, "height": 60}],
        "categories": [{"id": 1, "name": "dots-five"}, {"id": 2, "name": "joker"},
                       {"id": 3, "name": "E"}],
        "annotations": [
            {"id": 1, "image_id": 7, "category_id": 1, "bbox": [10, 5, 20, 30]},
            {"id": 2, "image_id": 7, "category_id": 2, "bbox": [40, 5, 20, 30]},
            {"id": 3, "image_id": 7, "category_id": 3, "bbox": [70, 5, 20, 30]},
        ],
    }
    (tmp_path / "other.json").write_text(json.dumps(document))
    (tmp_path / "map.yaml").write_text("dots-five: 5p\njoker: null  # not a tile\n")
    argv = ["import", str(tmp_path / "other.json"), "--format", "coco", "--map", str(tmp_path / "map.yaml")]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "with 2 tiles" in out and "left out the classes mapped to nothing: joker" in out
    (photo,) = load_folder(tmp_path)
    assert [(t.code, t.bounds) for t in photo.tiles] == [
        ("5p", (10.0, 5.0, 30.0, 35.0)),
        ("E", (70.0, 5.0, 90.0, 35.0)),
    ]


@pytest.mark.parametrize(
    ("map_text", "message"),
    [
        pytest.param("dots-five: 5p\n", "class 'joker' is not in the class map", id="unmapped"),
        pytest.param("joker: wild\n", "class 'joker' maps to 'wild', which is not a tile code",
                     id="bad-code"),
        pytest.param("- a list\n", "a class map maps class names to tile codes", id="not-a-map"),
    ],
)
def test_import_bad_class_map_is_one_line(tmp_path: Path, capsys, map_text: str, message: str) -> None:
    source = _yolo_set(tmp_path / "set", ["joker"], ["0 0.5 0.5 0.1 0.2"])
    (tmp_path / "map.yaml").write_text(map_text)
    argv = ["import", str(source), "--format", "yolo", "--map", str(tmp_path / "map.yaml")]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("fanscan: error: ") and message in err and err.count("\n") == 1


def test_import_unknown_map_lists_the_ready_ones(tmp_path: Path, capsys) -> None:
    source = _yolo_set(tmp_path / "set", ["1m"], ["0 0.5 0.5 0.1 0.2"])
    assert main(["import", str(source), "--format", "yolo", "--map", "rf-japanese"]) == 1
    err = capsys.readouterr().err
    assert "no class map 'rf-japanese'" in err and "rf-chinese, tenhou" in err


def test_import_the_shared_rf_chinese_photos_with_its_map(tmp_path: Path) -> None:
    from fanscan.datasets.shared import shared_path

    data = shared_path("data", "rf-chinese")
    if data is None:
        pytest.skip("no ../shared/data/rf-chinese on this machine")
    images = sorted((data / "images").glob("*.jpg"))[:3]
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    shutil.copy(data / "data.yaml", tmp_path / "data.yaml")
    boxes = 0
    for image in images:
        shutil.copy(image, tmp_path / "images")
        label = data / "labels" / f"{image.stem}.txt"
        shutil.copy(label, tmp_path / "labels")
        boxes += sum(1 for line in label.read_text().splitlines() if line.strip())
    assert main(["import", str(tmp_path), "--format", "yolo", "--map", "rf-chinese"]) == 0
    photos = load_folder(tmp_path / "images")
    assert len(photos) == len(images) and sum(len(p.tiles) for p in photos) == boxes
    assert {t.code for p in photos for t in p.tiles} - {"back"} <= set(CLASS_LABELS)


@pytest.mark.parametrize("name", ["../outside.png", "sub/../../outside.png", "/ABS/outside.png"])
def test_import_refuses_a_photo_named_outside_the_images_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    # A COCO file naming ../outside.png (or an absolute path) would have had its label file
    # written beside a file outside the folder: refused before anything is written.
    import cv2

    images = tmp_path / "images"
    images.mkdir()
    cv2.imwrite(str(tmp_path / "outside.png"), np.full((60, 100, 3), 90, np.uint8))
    file_name = name.replace("/ABS", str(tmp_path))
    coco = {"images": [{"id": 1, "file_name": file_name, "width": 100, "height": 60}],
            "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "bbox": [10, 10, 20, 30]}],
            "categories": [{"id": 1, "name": "1m"}]}
    source = tmp_path / "c.json"
    source.write_text(json.dumps(coco))
    assert main(["import", str(source), "--format", "coco", "--images", str(images), "--overwrite"]) == 1
    err = capsys.readouterr().err
    assert "outside" in err and len(err.strip().splitlines()) == 1
    assert not list(tmp_path.glob("*.fanscan.json")) and not list(images.glob("*.fanscan.json"))


@pytest.mark.parametrize("bbox", [[float("nan"), 1, 2, 3], [1, 2, 3, "x"], [1, 2, 3, True], [1e308, 1, 1e308, 3]])
def test_import_a_bbox_of_no_finite_numbers_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bbox: list
) -> None:
    import cv2

    cv2.imwrite(str(tmp_path / "a.png"), np.full((60, 100, 3), 90, np.uint8))
    coco = {"images": [{"id": 1, "file_name": "a.png", "width": 100, "height": 60}],
            "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "bbox": bbox}],
            "categories": [{"id": 1, "name": "1m"}]}
    source = tmp_path / "c.json"
    source.write_text(json.dumps(coco))
    assert main(["import", str(source), "--format", "coco"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fanscan: error: ") and err.count("\n") == 1
    assert not (tmp_path / "a.png.fanscan.json").exists()


def test_import_a_label_file_that_is_no_utf8_text_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _yolo_set(tmp_path / "set", ["1m"], ["0 0.5 0.5 0.1 0.2"])
    (source / "labels" / "table.txt").write_bytes(b"\xff\xfe0 0.5 0.5 0.1 0.2\n")
    assert main(["import", str(source), "--format", "yolo"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fanscan: error: ") and err.count("\n") == 1
    assert "table.txt: not UTF-8 text (byte 0xff at offset 0)" in err


@pytest.mark.parametrize("form", ["yolo", "coco"])
def test_import_refuses_a_box_off_the_photo_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], form: str
) -> None:
    # The labelling page refuses to save such a tile: taken in, the photo could not be saved again.
    import cv2

    if form == "yolo":
        source = _yolo_set(tmp_path / "set", ["1m"], ["0 0.5 0.5 0.1 0.2", "0 5 5 0.1 0.1"])
        photo = source / "images" / "table.jpg"
    else:
        photo = tmp_path / "table.jpg"
        cv2.imwrite(str(photo), np.full((100, 200, 3), 90, np.uint8))
        source = tmp_path / "c.json"
        source.write_text(json.dumps({
            "images": [{"id": 1, "file_name": "table.jpg", "width": 200, "height": 100}],
            "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "bbox": [10, 10, 20, 30]},
                            {"id": 2, "image_id": 1, "category_id": 1, "bbox": [5000, 5000, 10, 10]}],
            "categories": [{"id": 1, "name": "1m"}]}))
    assert main(["import", str(source), "--format", form]) == 1
    err = capsys.readouterr().err
    assert err.startswith("fanscan: error: ") and err.count("\n") == 1
    assert "photo 'table.jpg'" in err and "tile 2 has a corner at" in err and "outside the 200 x 100 photo" in err
    assert not (photo.parent / "table.jpg.fanscan.json").exists()
