"""Rows of a hand (``geometry.rows_and_groups``): tiles in one row lie at one height and near
each other along it, or linked through tiles that do."""

from __future__ import annotations

import numpy as np

from fanscan.vision.detections import TileReading
from fanscan.vision.geometry import rows_and_groups

RIGHT, UP = np.array([1.0, 0.0]), np.array([0.0, -1.0])


def _tile(code: str, x: float, y: float) -> TileReading:
    box = np.float32([[x, y], [x + 40, y], [x + 40, y + 60], [x, y + 60]])
    return TileReading(code, 0.9, box, 0.0, False, x + 20, ((code, 0.9),))


def _codes(tiles: list[TileReading], rows: list[list[list[int]]]) -> list[list[list[str]]]:
    return [[[tiles[i].code for i in group] for group in row] for row in rows]


def test_flowers_lying_apart_between_two_rows_heights_do_not_join_the_rows() -> None:
    # The concealed row, a pung laid behind its right part a row higher, and two flowers well off
    # to the right at a height between the two (as a hand slanting in the photo shows them):
    # each tile of the flowers lies within half a tile's height of both rows.
    row = [_tile(c, 100 + 41 * k, 500) for k, c in enumerate("1m 2m 3m 4p 5p 6p 7s 8s 9s E E".split())]
    pung = [_tile("1p", 400 + 41 * k, 440) for k in range(3)]  # touching the row from behind
    flowers = [_tile("1f", 900, 470), _tile("5f", 941, 470)]
    tiles = row + pung + flowers
    assert _codes(tiles, rows_and_groups(tiles, RIGHT, UP)) == [
        [["1p", "1p", "1p"]], [["1f", "5f"]], [[t.code for t in row]]]


def test_a_row_drifting_in_height_along_its_length_stays_one_row() -> None:
    # A frame a little off the row's own: its far end lies two tile heights higher than its
    # start, each tile within half a tile's height of its neighbour.
    row = [_tile(c, 100 + 41 * k, 500 - 12 * k) for k, c in enumerate("1m 2m 3m 4p 5p 6p 7s 8s 9s E E".split())]
    assert _codes(row, rows_and_groups(row, RIGHT, UP)) == [[[t.code for t in row]]]


def test_rows_are_listed_top_first_and_a_gap_along_a_row_parts_its_groups() -> None:
    top = [_tile("5s", 100 + 41 * k, 380) for k in range(3)]
    bottom = [_tile(c, 100 + 41 * k, 500) for k, c in enumerate("1m 2m 3m".split())] + [_tile("4m", 300, 500)]
    tiles = bottom + top
    assert _codes(tiles, rows_and_groups(tiles, RIGHT, UP)) == [[["5s"] * 3], [["1m", "2m", "3m"], ["4m"]]]
