"""Upright crops of the real table photos: the mirror decision, the turns, the crop folders."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from fanscan.datasets.formats.crops import load_crops
from fanscan.datasets.real_table_crops import box_crops, choose_turns, upright_crops, write_folds
from fanscan.datasets.real_tables import TablePhoto
from fanscan.scoring.tiles import CLASS_LABELS


class ArrowClassifier:
    """Reads a crop as ``1m`` when it shows the glyph upright and unmirrored: its bright dot in the
    top-left quarter and its dim dot to the right of it on the same line (a glyph that no turn
    makes its own mirror image); anything else as ``back``."""

    def one_look(self, crops):
        probs = np.full((len(crops), len(CLASS_LABELS)), 1e-3)
        for n, crop in enumerate(crops):
            h, w = crop.shape[:2]
            bright = np.argwhere(crop[:, :, 0] == 255)[0]
            dim = np.argwhere(crop[:, :, 0] == 150)[0]
            upright = bright[0] < h / 2 and bright[1] < w / 2 and dim[0] == bright[0] and dim[1] > bright[1]
            probs[n, CLASS_LABELS.index("1m" if upright else "back")] = 1
        return probs / probs.sum(axis=1, keepdims=True)


def _photo(tmp_path, mirrored: bool, turns: int, count: int = 3) -> TablePhoto:
    """A photo of ``count`` tiles, each the glyph ``ArrowClassifier`` reads, mirrored or not, then
    turned ``turns`` quarters (counter-clockwise)."""
    tile = np.full((30, 20, 3), 40, np.uint8)
    tile[4, 4], tile[4, 10] = 255, 150
    if mirrored:
        tile = tile[:, ::-1]
    tile = np.rot90(tile, turns)
    h, w = tile.shape[:2]
    image = np.zeros((40, 10 + count * (w + 10), 3), np.uint8)
    boxes = []
    for n in range(count):
        x0 = 10 + n * (w + 10)
        image[5 : 5 + h, x0 : x0 + w] = tile
        boxes.append((x0, 5, x0 + w, 5 + h))
    path = tmp_path / f"m{int(mirrored)}t{turns}_jpg.rf.0.png"
    cv2.imwrite(str(path), image)
    return TablePhoto(path, path.stem, np.float32(boxes), ("1m",) * count)


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_real_table_crops_turn_each_crop_upright(tmp_path, turns):
    result = upright_crops(_photo(tmp_path, False, turns), ArrowClassifier())
    assert not result.mirrored
    for crop in result.crops:
        assert crop.shape[:2] == (30, 20)
        y, x = np.unravel_index(int(crop[:, :, 0].argmax()), crop.shape[:2])
        assert (y, x) == (4, 4)


def test_real_table_crops_find_a_mirrored_photo_and_turn_it_back(tmp_path):
    result = upright_crops(_photo(tmp_path, True, 1), ArrowClassifier())
    assert result.mirrored
    y, x = np.unravel_index(int(result.crops[0][:, :, 0].argmax()), result.crops[0].shape[:2])
    assert (y, x) == (4, 4)


def test_real_table_crops_a_doubtful_tile_follows_the_photos_turn():
    # Nine tiles read surely at turn 1; one tile's reading barely prefers turn 3.
    sure = np.log(np.array([[0.01, 0.97, 0.01, 0.01]] * 9))
    doubtful = np.log(np.array([[0.2, 0.3, 0.2, 0.3 + 1e-3]]))
    turns, prior = choose_turns(np.vstack([sure, doubtful]))
    assert list(turns) == [1] * 10
    assert prior.argmax() == 1


def test_real_table_crops_a_sure_tile_keeps_its_own_turn():
    sure = np.log(np.array([[0.01, 0.97, 0.01, 0.01]] * 9))
    other = np.log(np.array([[0.001, 0.001, 0.001, 0.997]]))
    turns, _ = choose_turns(np.vstack([sure, other]))
    assert turns[-1] == 3


def test_real_table_crops_box_crops_stay_inside_the_photo():
    image = np.zeros((50, 40, 3), np.uint8)
    crops = box_crops(image, np.float32([[-5, -5, 10, 10], [39.5, 49.5, 60, 60]]))
    assert crops[0].shape[:2] == (10, 10)
    assert min(crops[1].shape[:2]) >= 2


def test_real_table_crops_write_a_crop_folder_per_fold(tmp_path):
    photo = _photo(tmp_path, False, 0)
    counts = write_folds([photo], tmp_path / "out", ArrowClassifier())
    folder = tmp_path / "out" / f"rf-fold{photo.fold}"
    assert counts[folder.name] == 3 and sum(counts.values()) == 3
    rows = load_crops(folder)
    assert [row.label for row in rows] == ["1m"] * 3


def test_the_recorded_mirrors_name_photos_of_the_set_once_each():
    from fanscan.datasets.real_table_crops import MIRRORED_FILE, recorded_mirrors

    text = MIRRORED_FILE.read_text(encoding="utf-8").splitlines()
    assert text[0] == "photo,mirrored"
    names = [line.split(",")[0] for line in text[1:]]
    assert len(names) == len(set(names)) == len(recorded_mirrors()) > 400
    assert all(name.endswith(".jpg") and line.split(",")[1] in ("0", "1") for name, line in zip(names, text[1:]))
    assert 0 < sum(recorded_mirrors().values()) < len(names)  # the augmentation mirrored some
