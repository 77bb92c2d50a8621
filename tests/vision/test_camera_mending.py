"""A poor camera's faults mended before the tiles are searched: the judging, once a photo, and
the sharpening of every decode of a blurred photo at the same detail."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from fanscan.vision import camera_mending, finder, locate
from fanscan.vision.box_shapes import without_specks
from fanscan.vision.detections import TileDetections
from fanscan.vision.image_io import load_photo, unsharp

SAMPLE = Path(__file__).resolve().parents[2] / "vision" / "samples" / "sample_hand.jpg"


def _png(image: np.ndarray) -> bytes:
    return cv2.imencode(".png", image)[1].tobytes()


def _sample(blur: float = 0.0, light: float = 1.0) -> np.ndarray:
    """The bundled sample photo (1280 x 960: two pixels to one of the finder's copy), blurred by
    a Gaussian of ``blur`` px of it and dimmed to ``light``."""
    image = cv2.imread(str(SAMPLE))
    if blur:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    return np.clip(image.astype(np.float32) * light, 0, 255).astype(np.uint8)


def _copy(photo) -> np.ndarray:
    return finder.working_image(photo.decode(1), finder.WORK_SIDE)[0]


def _first_pass(photo) -> tuple[np.ndarray, TileDetections]:
    """The finder's copy of the photo and its first pass's boxes there, less specks."""
    small, found = locate.whole_photo_pass(photo, locate.find_scale(photo), finder.WORK_SIDE)
    return small, without_specks(found)


def test_sharpness_falls_with_blur_and_not_with_light() -> None:
    small, tiles = _first_pass(load_photo(str(SAMPLE)))
    sharp = camera_mending.sharpness(small, tiles.quads)
    assert sharp >= camera_mending.BLURRED_BELOW
    assert camera_mending.sharpness(cv2.GaussianBlur(small, (0, 0), 1.0), tiles.quads) < 0.6 * sharp
    dim = (small * 0.4).astype(np.uint8)
    assert camera_mending.sharpness(dim, tiles.quads) == pytest.approx(sharp, rel=0.1)
    assert camera_mending.sharpness(np.full((50, 50, 3), 128, np.uint8)) == 0.0  # no edge, no division by 0


def test_sharpness_is_judged_on_the_tiles_when_given() -> None:
    # A small sharp patch on a smooth table: the photo's edges are the table's, the tiles' are sharp.
    image = cv2.GaussianBlur(np.random.default_rng(5).integers(60, 120, (480, 640, 3)).astype(np.uint8), (0, 0), 8)
    image[200:230, 300:330] = np.where((np.indices((30, 30)).sum(axis=0) // 5 % 2)[..., None] == 1, 230, 20)
    patch = np.float32([[[300, 200], [330, 200], [330, 230], [300, 230]]])
    assert camera_mending.sharpness(image) < camera_mending.BLURRED_BELOW
    assert camera_mending.sharpness(image, patch) > camera_mending.BLURRED_BELOW
    assert camera_mending.sharpness(image, patch + 1000) == float("inf")  # no tile within: nothing to judge


def test_a_blurred_photo_is_sharpened_and_a_sharp_one_is_not() -> None:
    for blur, sharpened in ((0.0, False), (3.0, True)):
        photo = load_photo(_png(_sample(blur)))
        small, tiles = _first_pass(photo)
        before = camera_mending.sharpness(small, tiles.quads)
        assert camera_mending.sharpened_when_blurred(photo, small, tiles) == sharpened
        assert (photo.sharpening is not None) == sharpened
        if sharpened:
            sigma, amount = photo.sharpening
            assert sigma == camera_mending.UNSHARP_SIGMA * 2 and 0 < amount < camera_mending.MOST_AMOUNT
            after = camera_mending.sharpness(_copy(photo), tiles.quads)  # the decode kept, sharpened too
            assert after > 1.3 * before and after == pytest.approx(camera_mending.BLURRED_BELOW, rel=0.15)


def test_the_amount_is_the_least_that_brings_a_photo_to_the_floor() -> None:
    sigma, floor = camera_mending.UNSHARP_SIGMA, camera_mending.BLURRED_BELOW
    _, tiles = _first_pass(load_photo(str(SAMPLE)))
    quads, amounts = tiles.quads, []
    for blur in (1.0, 1.25, 1.5, 3.0):  # px of the finder's copy
        copy = cv2.GaussianBlur(cv2.resize(_sample(), (640, 480), interpolation=cv2.INTER_AREA), (0, 0), blur)
        amount = camera_mending.amount_to_floor(copy, quads, sigma)
        if blur < 3.0:
            assert camera_mending.sharpness(unsharp(copy, sigma, amount), quads) >= floor
            assert camera_mending.sharpness(unsharp(copy, sigma, amount - 0.05), quads) < floor
        amounts.append(amount)
    assert amounts == sorted(amounts)  # the blurrier, the more
    assert amounts[-1] == camera_mending.MOST_AMOUNT  # past mending: the most, and no further


def test_each_decode_is_sharpened_at_the_same_detail() -> None:
    image = _sample(blur=3.0)
    photo = load_photo(_png(image))
    photo.sharpen(4.0, 1.0)
    half = photo.decode_as_taken(2)  # drawn on as taken
    assert half.shape == (480, 640, 3)
    blurred = cv2.GaussianBlur(half, (0, 0), 2.0)  # 4 full-size pixels are 2 of the half-size decode
    expected = cv2.addWeighted(half, 2.0, blurred, -1.0, 0.0)
    assert np.abs(photo.decode(2).astype(int) - expected).max() <= 1
    with pytest.raises(ValueError):
        photo.sharpen(4.0, 1.0)  # once a photo


def test_a_sharpened_decode_is_charged_its_working_copies() -> None:
    photo = load_photo(_png(_sample()))
    plain = photo.decode_cost(1)[1]
    photo.sharpen(3.0, 1.0)
    assert photo.decode_cost(1)[1] >= plain + 6 * 1280 * 960


def test_a_photo_is_judged_once_and_a_turned_look_never() -> None:
    from fanscan.vision.turned_photo import TurnedPhoto

    photo = load_photo(_png(_sample(blur=3.0, light=0.3)))
    small, tiles = _first_pass(photo)
    view = TurnedPhoto(photo, 90.0)
    assert not camera_mending.mended(view, view.decode(1), 1, tiles)  # a window of it may be darker or blurred
    assert not photo.camera_judged and not photo.balanced and photo.sharpening is None
    assert camera_mending.mended(photo, small, 1, tiles)
    assert photo.balanced_for == {"dim"} and photo.sharpening is not None
    assert not camera_mending.mended(photo, small, 1, tiles)


def test_without_a_hand_seen_neither_focus_nor_haze_is_judged() -> None:
    photo = load_photo(_png(_hazy(_sample(blur=3.0), 0.6)))
    small, _ = _first_pass(photo)
    assert not camera_mending.mended(photo, small, 1, None)
    assert photo.camera_judged and photo.sharpening is None and not photo.balanced


def test_a_blurred_sample_is_read_as_it_was_sharp() -> None:
    # Out of focus by 1.75 px of the finder's copy; unsharpened, its hand was misread.
    from fanscan.vision.reader import read_photo

    expected = read_photo(str(SAMPLE)).hand.to_json()
    data = _png(_sample(blur=3.5))
    photo = load_photo(data)
    locate.locate(photo)
    assert photo.sharpening is not None
    assert read_photo(data).hand.to_json() == expected


def _hazy(image: np.ndarray, share: float) -> np.ndarray:
    """Every level drawn to ``share`` of its distance from white (``bench_real_tables.camera_fault``'s haze)."""
    return (255 - (255 - image.astype(np.float32)) * share).astype(np.uint8)


def test_a_photos_dark_level_is_its_darkest_channels() -> None:
    image = np.full((100, 100, 3), 200, np.uint8)
    image[0, :1] = 0  # one pixel in 10,000, darker than the rest: a speck, no shadow
    assert camera_mending.dark_level(image) == 200
    image[..., 0] = 20  # a yellow table: dark in blue alone
    assert camera_mending.dark_level(image) == 20


def test_a_hazy_photo_is_cleared_and_a_clear_one_is_not() -> None:
    image = _sample()
    image[0, 0] = 255
    for share, hazy in ((1.0, False), (0.8, True), (0.4, True)):
        photo = load_photo(_png(_hazy(image, share)))
        assert camera_mending.cleared_when_hazy(photo, _copy(photo)) == hazy
        assert ("haze" in photo.balanced_for) == hazy
        level = camera_mending.dark_level(_copy(photo))
        assert level == pytest.approx(camera_mending.HAZY_ABOVE, abs=2) if hazy else level <= camera_mending.HAZY_ABOVE
        assert (photo.decode(1)[0, 0] == 255).all()  # white stays white


def test_a_hazy_sample_is_read_as_it_was_clear() -> None:
    # Every level drawn to 0.4 of its distance from white (black at 153); not cleared, a tile was lost.
    from fanscan.vision.reader import read_photo

    expected = read_photo(str(SAMPLE)).hand.to_json()
    data = _png(_hazy(_sample(), 0.4))
    photo = load_photo(data)
    locate.locate(photo)
    assert "haze" in photo.balanced_for
    assert read_photo(data).hand.to_json() == expected


def test_judging_a_photo_imports_no_numpy_ma() -> None:
    # np.percentile's first call imports numpy.ma: about 35 ms of every one-photo command.
    import subprocess
    import sys

    code = ("import sys; from fanscan.vision.reader import read_photo; "
            f"read_photo({str(SAMPLE)!r}); print('numpy.ma' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False"
