"""``fanscan export``: each format's files from a labelled folder, reviewed photos by default."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from fanscan.cli import main
from fanscan.datasets.labels import PhotoLabels, TileLabel, label_path, save_labels

BOX = ((10.0, 8.0), (40.0, 8.0), (40.0, 50.0), (10.0, 50.0))


def _labelled_folder(root: Path) -> Path:
    """Two photos: ``a.png`` reviewed with two tiles, ``sub/b.jpg`` unreviewed with one."""
    import cv2

    shifted = tuple((x + 40, y) for x, y in BOX)
    for name, tiles, status in (
        (
            "a.png",
            (TileLabel("5p", BOX, 0.6, "model"), TileLabel("N", shifted, 1.0, "person")),
            "reviewed",
        ),
        ("sub/b.jpg", (TileLabel("3f", BOX, 0.9, "model"),), "unreviewed"),
    ):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), np.full((60, 100, 3), 200, np.uint8))
        save_labels(label_path(path), PhotoLabels(path.name, 100, 60, tiles, status=status))
    return root


def test_export_coco_writes_reviewed_photos(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _labelled_folder(tmp_path / "photos")
    assert main(["export", str(folder), "--format", "coco", "--out", str(tmp_path / "c.json")]) == 0
    document = json.loads((tmp_path / "c.json").read_text())
    assert [image["file_name"] for image in document["images"]] == ["a.png"]
    assert len(document["annotations"]) == 2 and len(document["categories"]) == 43
    assert "exported 1 photos, 2 tiles" in capsys.readouterr().out


def test_export_all_includes_unreviewed(tmp_path: Path) -> None:
    folder = _labelled_folder(tmp_path / "photos")
    assert (
        main(["export", str(folder), "--format", "yolo", "--out", str(tmp_path / "y"), "--all"])
        == 0
    )
    assert (tmp_path / "y" / "labels" / "sub" / "b.txt").read_text().startswith("36 ")
    assert (tmp_path / "y" / "images" / "sub" / "b.jpg").is_file()
    assert (tmp_path / "y" / "data.yaml").is_file()


def test_export_crops_feed_a_labels_csv(tmp_path: Path) -> None:
    folder = _labelled_folder(tmp_path / "photos")
    assert main(["export", str(folder), "--format", "crops", "--out", str(tmp_path / "crops")]) == 0
    lines = (tmp_path / "crops" / "labels.csv").read_text().splitlines()
    assert lines == ["file,label", "5p/a_001.png,5p", "N/a_002.png,N"]


def test_export_with_nothing_reviewed_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _labelled_folder(tmp_path / "photos")
    (folder / "a.png.fanscan.json").unlink()
    assert main(["export", str(folder), "--format", "voc", "--out", str(tmp_path / "v")]) == 1
    error = capsys.readouterr().err
    assert error.startswith("fanscan: error: no labelled photos to export") and "--all" in error
    assert error.count("\n") == 1


def test_export_obb_only_for_yolo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _labelled_folder(tmp_path / "photos")
    assert (
        main(
            ["export", str(folder), "--format", "coco", "--obb", "--out", str(tmp_path / "c.json")]
        )
        == 2
    )
    assert "--obb only applies to --format yolo" in capsys.readouterr().err


def test_export_refuses_a_file_for_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _labelled_folder(tmp_path / "photos")
    (tmp_path / "taken").write_text("x")
    assert main(["export", str(folder), "--format", "voc", "--out", str(tmp_path / "taken")]) == 1
    assert "taken is a file: voc is written to a folder" in capsys.readouterr().err
