"""Real flowers as bags of numeral windows: their numbers, their windows, and the rf photos."""

from __future__ import annotations

import numpy as np
import pytest

from fanscan.datasets import real_numerals
from fanscan.datasets.real_tables import load_table_photos
from fanscan.scoring.tiles import FLOWER_CODES
from fanscan.vision.numerals import CROP_SIZE, windows


def test_each_flower_and_season_prints_its_number_one_to_four() -> None:
    assert [real_numerals.flower_number(code) for code in FLOWER_CODES] == [1, 2, 3, 4, 1, 2, 3, 4]
    with pytest.raises(ValueError):
        real_numerals.flower_number("1m")


def test_bags_hold_the_readers_windows_of_each_crop() -> None:
    rng = np.random.default_rng(0)
    crops = [rng.integers(0, 255, (h, w, 3), dtype=np.uint8) for h, w in ((140, 100), (60, 45))]
    bags = real_numerals.bags_of(crops, ["3f", "8f"], ["a.jpg", "b.jpg"], 32)
    assert len(bags) == 2 and bags.numbers.tolist() == [3, 4] and bags.photos == ("a.jpg", "b.jpg")
    # The very windows the reader cuts from the crop brought to its size.
    import cv2

    expected = windows(cv2.resize(crops[1], CROP_SIZE, interpolation=cv2.INTER_AREA), 32)
    assert np.array_equal(bags.windows[1], expected)
    assert bags.windows.dtype == np.uint8 and bags.windows.shape[2:] == (32, 32)
    empty = real_numerals.bags_of([], [], [], 32)
    assert len(empty) == 0 and empty.windows.shape == (0, 0, 32, 32)


@pytest.mark.slow
def test_real_flower_bags_of_a_fold_are_its_labelled_flowers() -> None:
    photos = load_table_photos()
    if not photos:
        pytest.skip("../shared/data/rf-chinese is not here")
    seen = []
    bags = real_numerals.real_flower_bags([4], 32, progress=lambda done, total: seen.append((done, total)))
    assert len(bags) > 50 and set(bags.numbers.tolist()) == {1, 2, 3, 4}
    assert seen and seen[-1][0] == seen[-1][1]
    assert all(name.startswith(tuple("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"))
               for name in bags.photos)
