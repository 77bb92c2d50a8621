"""``benchmarks/label_review.py``: the contact sheets a reviewer reads labels from."""

from __future__ import annotations

import numpy as np
import pytest
from benchmark_scripts import load_benchmark


@pytest.fixture(scope="module")
def review():
    return load_benchmark("label_review")


def test_label_review_cell_shows_the_box_and_its_text(review):
    image = np.full((200, 300, 3), 40, np.uint8)
    image[50:130, 100:160] = 230  # a tile 60 x 80
    cell = review.crop_cell(image, np.float32([100, 50, 160, 130]), ["#1 hand_101", "label 9p", "read 9m 97%"])
    width, height = review.CELL
    assert cell.shape == (height, width, 3)
    crop = cell[:160]
    dark = (crop < 60).all(axis=2)
    assert dark.any() and (crop[80, 75] > 200).all()  # the table's margin around the tile, the tile at the middle
    assert (np.abs(crop.astype(int) - [0, 200, 0]).sum(axis=2) < 30).any()  # its outline drawn
    assert (cell[165:] < 100).any()  # text written below


def test_label_review_cell_of_a_box_at_the_frame(review):
    image = np.full((100, 100, 3), 200, np.uint8)
    cell = review.crop_cell(image, np.float32([-5, 90, 20, 110]), [])
    assert cell.shape == (review.CELL[1], review.CELL[0], 3)


def test_label_review_sheet_lays_cells_in_rows(review):
    width, height = review.CELL
    cells = [np.full((height, width, 3), k, np.uint8) for k in range(1, 11)]
    out = review.sheet(cells, columns=4)
    assert out.shape == (3 * (height + 2), 4 * (width + 2), 3)
    assert out[0, 0, 0] == 1 and out[height + 2, 0, 0] == 5 and out[2 * (height + 2), width + 2, 0] == 10
    assert out[2 * (height + 2), 2 * (width + 2) + 5, 0] == 128  # no cell there


def test_label_review_refuses_bad_folds(review, capsys):
    with pytest.raises(SystemExit) as stop:
        review.main(["--folds", "a,b"])
    assert stop.value.code == 2 and "numbers with commas" in capsys.readouterr().err
