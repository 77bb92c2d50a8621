"""``fanscan import``: export then import gives the same labels, for each format."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from fanscan.cli import main
from fanscan.datasets.labels import PhotoLabels, TileLabel, label_path, load_folder, save_labels

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
    expected = _geometry(load_folder(source), upright=True)
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
