"""A doubtful tile of the hand read again, cut as the hand's typical tile at its place."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from fanscan.scoring.tiles import CLASS_LABELS
from fanscan.vision import typical_cut
from fanscan.vision.classifier import SECOND_LOOK_BELOW, Looks
from fanscan.vision.detections import TileReading
from fanscan.vision.flowers import FlowerLooks
from fanscan.vision.image_io import load_photo

RIGHT, UP = np.array([1.0, 0.0]), np.array([0.0, -1.0])  # rows along x, faces' tops towards y = 0
WIDTH, HEIGHT, STEP = 40, 54, 50


def _box(x: float, skew: float = 0.0) -> np.ndarray:
    """A tile's face box (TL, TR, BR, BL) at x, sheared: its top edge slid ``skew`` px to the
    right and its bottom edge as far to the left (its centre stays)."""
    return np.float32([[x + skew, 100], [x + WIDTH + skew, 100], [x + WIDTH - skew, 100 + HEIGHT],
                       [x - skew, 100 + HEIGHT]])


def _reading(k: int, code: str, confidence: float, skew: float = 0.0, sideways: bool = False) -> TileReading:
    box = _box(50 + STEP * k, skew)
    return TileReading(code, confidence, box, 0.0, sideways, float(box.mean(axis=0)[0]), ((code, confidence),),
                       no_tile=0.01)


def _photo():  # noqa: ANN202
    """White tiles on black, where the readings of ``_reading`` put them."""
    image = np.zeros((300, 500, 3), np.uint8)
    for k in range(5):
        x = 50 + STEP * k
        image[100:100 + HEIGHT, x:x + WIDTH] = 255
    return load_photo(cv2.imencode(".png", image)[1].tobytes())


class _Answers:
    """A classifier stand-in: every crop it is shown read as ``code`` at ``confidence``; keeps the crops."""

    answers_no_tile = True

    def __init__(self, code: str, confidence: float) -> None:
        self.row = np.full(len(CLASS_LABELS), (1 - confidence) / (len(CLASS_LABELS) - 1), np.float32)
        self.row[CLASS_LABELS.index(code)] = confidence
        self.crops: list[np.ndarray] = []

    def looks(self, crops: list[np.ndarray]) -> Looks:
        self.crops += list(crops)
        return Looks(np.tile(self.row, (len(crops), 1)), np.full(len(crops), 0.01, np.float32))


def test_the_typical_tile_is_the_median_of_the_upright_faces_in_the_hand_s_frame() -> None:
    readings = [_reading(k, "1m", 0.99) for k in range(4)] + [_reading(4, "2m", 0.99, sideways=True)]
    assert typical_cut.typical_size(readings, RIGHT, UP) == pytest.approx((WIDTH, HEIGHT))
    box = typical_cut.typical_box(np.array([70.0, 127.0]), (WIDTH, HEIGHT), RIGHT, UP)
    assert np.allclose(box, _box(50))  # TL, TR, BR, BL of the face
    assert typical_cut.typical_size(readings[:2], RIGHT, UP) is None  # too few tiles to tell


def test_a_doubtful_face_on_a_skewed_box_is_read_again_from_the_typical_box_and_keeps_its_box() -> None:
    skewed = _reading(2, "F", SECOND_LOOK_BELOW - 0.4, skew=20.0)  # its top pulled onto the neighbour
    readings = [_reading(0, "E", 0.97), _reading(1, "E", 0.96), skewed, _reading(3, "F", 0.95)]
    classifier = _Answers("E", 0.93)
    again = typical_cut.read_doubtful_again(_photo(), readings, RIGHT, UP, classifier)
    assert len(classifier.crops) == 1 and (classifier.crops[0] < 128).mean() < 0.02  # cut on the tile, not the gap
    assert again[2].code == "E" and again[2].confidence == pytest.approx(0.93)
    assert np.array_equal(again[2].box, skewed.box) and again[2].orientation == skewed.orientation
    assert again[:2] == readings[:2] and again[3] == readings[3]


def test_a_second_cut_that_reads_less_surely_keeps_the_face_and_adds_its_look_to_the_probabilities() -> None:
    readings = [_reading(0, "E", 0.97), _reading(1, "E", 0.96), _reading(2, "F", 0.6), _reading(3, "F", 0.95)]
    again = typical_cut.read_doubtful_again(_photo(), readings, RIGHT, UP, _Answers("C", 0.5))
    assert again[:2] == readings[:2] and again[3] == readings[3]
    assert again[2] == readings[2]  # its face, confidence and box as read (probabilities aside)
    others = len(CLASS_LABELS) - 1
    probs = dict(zip(CLASS_LABELS, again[2].probs))
    assert probs["F"] == pytest.approx((0.6 + 0.5 / others) / 2)  # its own look and the cut's, averaged
    assert probs["C"] == pytest.approx((0.4 / others + 0.5) / 2)


def test_a_surer_second_cut_names_the_face_and_the_first_look_s_face_stays_likely() -> None:
    readings = [_reading(0, "E", 0.97), _reading(1, "E", 0.96), _reading(2, "F", 0.45), _reading(3, "F", 0.95)]
    again = typical_cut.read_doubtful_again(_photo(), readings, RIGHT, UP, _Answers("C", 0.75))
    assert again[2].code == "C" and again[2].confidence == pytest.approx(0.75)
    others = len(CLASS_LABELS) - 1
    probs = dict(zip(CLASS_LABELS, again[2].probs))
    assert probs["C"] == pytest.approx((0.55 / others + 0.75) / 2)
    assert probs["F"] == pytest.approx((0.45 + 0.25 / others) / 2)  # an option the search can still take
    assert sorted(probs, key=probs.get)[-2:] == ["F", "C"]


class _SureOfANumber:
    """A numeral reader stand-in sure of the number ``number`` (1-4) in every crop; counts its crops."""

    def __init__(self, number: int) -> None:
        self.number, self.asked = number, 0

    def number_probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        self.asked += len(crops)
        out = np.zeros((len(crops), 4), np.float32)
        out[:, self.number - 1] = 1.0
        return out


def test_a_doubtful_flower_s_second_cut_is_not_read_again_by_the_numeral_reader() -> None:
    # The cut reads 4f, unsure among the flowers (2f close behind); a reader sure of a "1" (as in
    # the strokes of a gold 竹 that prints no number) would have made it a sure 1f, surer than
    # the tile's own 4f, and named the face so.
    readings = [_reading(0, "E", 0.97), _reading(1, "E", 0.96), _reading(2, "4f", 0.4), _reading(3, "F", 0.95)]
    classifier = _Answers("4f", 0.5)
    classifier.row[CLASS_LABELS.index("2f")] = 0.3
    numerals = _SureOfANumber(1)
    looks = FlowerLooks(specialist=None, numerals=numerals)
    again = typical_cut.read_doubtful_again(_photo(), readings, RIGHT, UP, classifier, looks)
    assert again[2].code == "4f" and again[2].confidence == pytest.approx(0.5)  # named by the surer cut
    assert numerals.asked == 0
    as_it_would_have = looks.reweigh(classifier.row[None, :], list(CLASS_LABELS), lambda i: np.zeros((64, 48, 3), np.uint8))
    assert CLASS_LABELS[int(np.argmax(as_it_would_have))] == "1f" and as_it_would_have.max() > 0.4


def test_sure_faces_backs_and_sideways_tiles_are_not_cut_again() -> None:
    readings = [_reading(0, "E", 0.97), _reading(1, "back", 0.5), _reading(2, "F", 0.5, sideways=True),
                _reading(3, "F", 0.95), _reading(4, "S", 0.96)]
    classifier = _Answers("E", 0.99)
    assert typical_cut.read_doubtful_again(_photo(), readings, RIGHT, UP, classifier) == readings
    assert classifier.crops == []
