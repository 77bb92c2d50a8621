"""``fanscan classify``'s crops named however they were cut: turned a quarter, or loose."""

from __future__ import annotations

import numpy as np

from fanscan.vision.crop_reading import MIDDLE_SHARES, read_crops

TABLE = (40, 110, 40)


def _face(width: int = 40, height: int = 60) -> np.ndarray:
    face = np.full((height, width, 3), 235, np.uint8)
    face[4:10, 4:10] = (40, 40, 220)  # a mark in the top left corner: which way up it stands
    return face


def _on_table(image: np.ndarray, margin: int) -> np.ndarray:
    h, w = image.shape[:2]
    laid = np.zeros((h + 2 * margin, w + 2 * margin, 3), np.uint8)
    laid[:] = TABLE
    laid[margin:margin + h, margin:margin + w] = image
    return laid


class _ByLook:
    """A classifier stand-in: 1m as sure as the crop is face (not table), and only upright (taller
    than wide); a crop lying sideways reads S, unsurely; "no tile" is the table's share."""

    def named(self, images, looks=None):  # noqa: ANN001, ANN201
        codes, confidences, no_tiles = [], [], []
        for image in images:
            table = float(np.mean(np.all(image == TABLE, axis=2)))
            upright = image.shape[0] > image.shape[1]
            codes.append("1m" if upright else "S")
            confidences.append((1 - table) * (0.95 if upright else 0.4))
            no_tiles.append(table)
        return codes, np.array(confidences), np.array(no_tiles)


class _CutFaces:
    """A stand-in reading a whole crop 2m doubtfully and any part of it 3m more surely, but the
    part as likelier no tile: a tight crop whose middle cuts the face."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size

    def named(self, images, looks=None):  # noqa: ANN001, ANN201
        whole = [image.shape[:2] == self.size for image in images]
        return (["2m" if w else "3m" for w in whole], np.array([0.6 if w else 0.8 for w in whole]),
                np.array([0.01 if w else 0.2 for w in whole]))


def test_a_tight_upright_crop_is_read_as_it_is() -> None:
    [reading] = read_crops([_face()], _ByLook())
    assert (reading.code, reading.confidence) == ("1m", 0.95)


def test_a_crop_wider_than_tall_is_read_turned_a_quarter_too_and_the_surer_kept() -> None:
    sideways = np.ascontiguousarray(np.rot90(_face()))
    [reading] = read_crops([sideways], _ByLook())
    assert (reading.code, reading.confidence) == ("1m", 0.95)


def test_a_loose_crop_is_read_again_at_its_middle_which_drops_the_table() -> None:
    loose = _on_table(_face(), 20)  # the face is half the crop each way
    first = _ByLook().named([loose])[1][0]
    assert first < 0.9  # doubtful as it is
    [reading] = read_crops([loose], _ByLook())
    assert reading.code == "1m" and reading.confidence > first and reading.no_tile < 0.5
    assert min(MIDDLE_SHARES) <= 0.5  # a face half the crop's size is among the middles tried


def test_a_loose_crop_lying_sideways_is_read_at_its_middle_turned() -> None:
    loose = np.ascontiguousarray(np.rot90(_on_table(_face(), 20)))
    [reading] = read_crops([loose], _ByLook())
    assert reading.code == "1m" and reading.confidence > 0.5


def test_a_middle_that_reads_surer_but_likelier_no_tile_leaves_the_crop_as_read() -> None:
    tight = _face()
    [reading] = read_crops([tight], _CutFaces(tight.shape[:2]))
    assert (reading.code, reading.confidence) == ("2m", 0.6)


def test_no_crops_no_readings() -> None:
    assert read_crops([], _ByLook()) == []
