"""A photo seen turned: its decodes turned at every scale, and boxes found there brought back onto
the photo's own pixels."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from fanscan.vision.detections import TileDetections
from fanscan.vision.image_io import load_photo
from fanscan.vision.turned_photo import TurnedPhoto, turn_matrix, window_around


def _white_box(image: np.ndarray) -> np.ndarray:
    """The white pixels' bounding box as a quad, clockwise from the top left, pixel edges."""
    ys, xs = np.nonzero(image[:, :, 0] > 127)
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    return np.float32([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]])


def _white_quad(image: np.ndarray) -> np.ndarray:
    """The white pixels' least rectangle, as a quad of pixel edges."""
    ys, xs = np.nonzero(image[:, :, 0] > 127)
    points = np.stack([xs, ys], axis=1).astype(np.float32) + 0.5
    (cx, cy), (w, h), angle = cv2.minAreaRect(points)
    return cv2.boxPoints(((cx, cy), (w + 1, h + 1), angle))[None]


def _photo_with_a_tile() -> tuple[np.ndarray, object]:
    image = np.zeros((200, 300, 3), np.uint8)
    cv2.rectangle(image, (40, 30), (99, 119), (255, 255, 255), -1)  # a tile standing upright
    return image, load_photo(cv2.imencode(".png", image)[1].tobytes())


def test_a_quarter_turn_is_opencv_s_and_its_boxes_come_back_onto_the_same_pixels() -> None:
    image, photo = _photo_with_a_tile()
    view = TurnedPhoto(photo, 90.0)
    assert view.size == (200, 300)
    turned = view.decode(1)
    np.testing.assert_array_equal(turned, cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE))
    found = _white_box(turned)
    assert found[0, 1, 0] - found[0, 0, 0] > found[0, 2, 1] - found[0, 1, 1]  # lying down there
    np.testing.assert_allclose(view.turned_back(found), _white_box(image))  # first corner the top left again


@pytest.mark.parametrize("degrees", [30.0, -45.0, 60.0, 135.0])
def test_boxes_found_on_a_photo_turned_any_way_come_back_onto_the_same_pixels(degrees: float) -> None:
    image, photo = _photo_with_a_tile()
    view = TurnedPhoto(photo, degrees)
    turned = view.decode(1)
    matrix, size = turn_matrix(300, 200, degrees)
    assert turned.shape[1::-1] == size
    back = view.turned_back(_white_quad(turned))[0]
    truth = _white_box(image)[0]
    # The same rectangle, whichever corner comes first.
    assert np.abs(np.sort(back, axis=0) - np.sort(truth, axis=0)).max() < 1.5


def test_a_window_of_the_turned_photo_is_decoded_at_every_scale_and_follows_its_balance() -> None:
    image, photo = _photo_with_a_tile()
    whole = TurnedPhoto(photo, 30.0).decode(1)
    view = TurnedPhoto(photo, 30.0, window=(20, 10, 220, 190))
    assert view.size == (200, 180)
    np.testing.assert_array_equal(view.decode(1), whole[10:190, 20:220])
    assert view.decode(2).shape[:2] == (90, 100)
    table = np.full((256, 1, 3), 7, np.uint8)
    view.balance(table)
    assert photo.balanced and view.balanced
    assert view.decode(1).max() == 7  # decoded again through the balance


def test_a_turned_view_follows_its_photo_into_grey_and_says_its_cast_was_beyond_reach() -> None:
    image = np.zeros((200, 300, 3), np.uint8)
    cv2.rectangle(image, (40, 30), (99, 119), (230, 60, 200), -1)  # a tile under a magenta lamp
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    view = TurnedPhoto(photo, 30.0)
    assert not (view.decode(1)[..., 0] == view.decode(1)[..., 1]).all()
    view.balance(np.arange(256, dtype=np.uint8).repeat(3).reshape(256, 1, 3), beyond_reach=True)
    assert photo.beyond_reach
    photo.read_in_grey(True)
    decoded = view.decode(1)
    assert (decoded[..., 0] == decoded[..., 1]).all() and (decoded[..., 1] == decoded[..., 2]).all()


def test_the_window_around_boxes_reaches_past_them_within_the_turned_photo() -> None:
    _, photo = _photo_with_a_tile()
    one = TileDetections(np.float32([[[140, 80], [160, 80], [160, 110], [140, 110]]]), np.ones(1, np.float32),
                         np.zeros(1, bool))
    x0, y0, x1, y1 = window_around(photo, 0.0, one)
    assert (x0, y0, x1, y1) == (60, 0, 240, 190)  # 4 short sides (20 px) around, cut at the top
    none = TileDetections(np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32), np.zeros(0, bool))
    assert window_around(photo, 30.0, none) is None


@pytest.mark.parametrize("degrees", [90.0, 30.0])
def test_a_window_turned_alone_is_that_part_of_the_whole_turned_and_no_turned_decode_is_kept(degrees: float) -> None:
    """A search again turns only its region: the same pixels as that part of the whole photo
    turned; and a turned decode is made when asked, never kept beside the photo's own."""
    image, photo = _photo_with_a_tile()
    view = TurnedPhoto(photo, degrees)
    for scale in (1, 2):
        whole = view.decode(scale)
        assert whole.shape[1::-1] == view.size_at(scale)
        np.testing.assert_array_equal(view.decode_window(scale, (15, 25, 90, 110)), whole[25:110, 15:90])
        np.testing.assert_array_equal(view.decode_window(scale, (-5, -5, 10**4, 10**4)), whole)  # cut to the decode
    assert view.decode(1) is not view.decode(1)
    assert not [value for value in vars(view).values() if isinstance(value, np.ndarray) and value.ndim == 3]
    np.testing.assert_array_equal(photo.decode_window(1, (15, 25, 90, 110)), image[25:110, 15:90])
