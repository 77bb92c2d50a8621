"""Crop folders: labels.csv round trip, the shared sets' layout, and upright perspective crops."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from fanscan.datasets.formats.crops import (
    CropRow,
    crop_size,
    format_crops,
    load_crops,
    parse_crops,
    save_crops,
    training_crops,
)
from fanscan.datasets.labels import PhotoLabels
from fanscan.datasets.shared import shared_path
from fanscan.errors import FanscanError


def test_crops_csv_round_trip() -> None:
    rows = [CropRow("5p/a_001.png", "5p"), CropRow("back/b, c_002.png", "back")]
    text = format_crops(rows)
    assert text.splitlines()[0] == "file,label"
    assert parse_crops(text) == rows


def test_crops_csv_reads_the_shared_real_crop_set() -> None:
    labels = shared_path("data", "camerash", "tiles", "labels.csv")
    if labels is None:
        pytest.skip("no ../shared real crop set on this machine")
    rows = parse_crops(labels.read_text(encoding="utf-8"))
    assert len(rows) > 400
    assert all((labels.parent / row.file).is_file() for row in rows[:20])


def test_crops_unknown_label_is_named() -> None:
    with pytest.raises(FanscanError, match="x.csv line 3: class 'Z' is not a tile code"):
        parse_crops("file,label\na.png,5p\nb.png,Z\n", "x.csv")


def test_crops_size_follows_the_edges() -> None:
    assert crop_size(((0, 0), (40, 0), (40, 50), (0, 50))) == (40, 50)
    assert crop_size(((200, 60), (240, 100), (200, 140), (160, 100))) == (57, 57)


def test_crops_are_cut_upright_into_class_folders(
    tmp_path: Path, scene: PhotoLabels, scene_root: Path
) -> None:
    import cv2

    rows = save_crops(tmp_path / "crops", [scene], scene_root)
    assert rows == [
        CropRow("5p/table__hand_001.png", "5p"),
        CropRow("E/table__hand_002.png", "E"),
        CropRow("back/table__hand_003.png", "back"),
    ]
    assert load_crops(tmp_path / "crops") == rows
    for row in rows:
        crop = cv2.imread(str(tmp_path / "crops" / row.file))
        assert crop is not None
        red = (crop[:, :, 2] > 200) & (crop[:, :, 1] < 80)
        ys, xs = np.nonzero(red)
        # the red mark sits near the face's top-left corner in every crop, the tilted one included
        assert xs.mean() < crop.shape[1] / 2 and ys.mean() < crop.shape[0] / 2, row.file
        face = crop[crop.shape[0] // 2 :, crop.shape[1] // 2 :]
        assert face.mean() > 200  # the rest is the white face, not the background


def test_crops_folder_naming_a_missing_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "labels.csv").write_text("file,label\n5p/gone.png,5p\n")
    with pytest.raises(FanscanError, match="names 5p/gone.png, which does not exist"):
        load_crops(tmp_path)


def test_crops_of_a_flattened_box_are_refused(
    tmp_path: Path, scene: PhotoLabels, scene_root: Path
) -> None:
    flat = replace(scene.tiles[0], corners=((20, 30), (40, 30), (60, 30), (80, 30)))
    with pytest.raises(FanscanError, match="table/hand.png tile 2: its corners enclose no area"):
        save_crops(tmp_path / "crops", [replace(scene, tiles=(scene.tiles[1], flat))], scene_root)


def test_crops_folder_is_one_training_tile_set(
    tmp_path: Path, scene: PhotoLabels, scene_root: Path
) -> None:
    save_crops(tmp_path / "my_set", [scene], scene_root)
    crops = training_crops(tmp_path / "my_set")
    assert [(crop.code, crop.group) for crop in crops] == [
        ("5p", "my_set"),
        ("E", "my_set"),
        ("back", "my_set"),
    ]
    assert crops[0].load().shape == (55, 40, 3)


def test_crops_load_as_the_classifiers_training_arrays(
    tmp_path: Path, scene: PhotoLabels, scene_root: Path
) -> None:
    from fanscan.models.data import real_set
    from fanscan.scoring.tiles import CLASS_LABELS
    from fanscan.vision.preprocess import PreprocessSpec

    save_crops(tmp_path / "my_set", [scene], scene_root)
    spec = PreprocessSpec()
    arrays = real_set(training_crops(tmp_path / "my_set"), spec)
    assert arrays.images.shape == (3, spec.height, spec.width, 3)
    assert [CLASS_LABELS[i] for i in arrays.labels] == ["5p", "E", "back"]
    assert arrays.images[:, spec.height // 2 :, spec.width // 2 :].mean() > 200  # white faces
