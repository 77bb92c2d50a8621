"""The hand's frame: which way the rows run, from each box's nearest neighbour."""

from __future__ import annotations

import numpy as np
from fanscan.vision.geometry import hand_frame


def _upright(x: float, y: float, w: float = 40, h: float = 56) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], float)


def test_a_row_of_touching_tiles_runs_across_the_photo() -> None:
    right, up = hand_frame(np.stack([_upright(40 * i, 100) for i in range(8)]))
    assert abs(right[0]) > 0.99 and up[1] < -0.99


def test_second_boxes_of_the_same_tiles_do_not_turn_the_rows_upright() -> None:
    # A row of eight, five of them boxed twice (the face, and the face with the tile's side below
    # it): each second box's nearest box is its own tile's, straight below; read as neighbours,
    # those steps outvote the row's and the rows would run down the photo.
    row = [_upright(40 * i, 100) for i in range(8)]
    seconds = [_upright(40 * i, 112, h=60) for i in range(5)]
    right, up = hand_frame(np.stack(row + seconds))
    assert abs(right[0]) > 0.99 and up[1] < -0.99


def test_a_column_of_touching_tiles_still_runs_down_the_photo() -> None:
    # Touching along their long sides is no overlap: a column of sideways tiles keeps its frame.
    column = [np.array([[0, 40 * i], [56, 40 * i], [56, 40 * i + 40], [0, 40 * i + 40]], float) for i in range(6)]
    right, up = hand_frame(np.stack(column))
    assert abs(right[1]) > 0.99


def test_one_tile_boxed_twice_alone_falls_back_to_its_long_axis() -> None:
    # No box has a neighbour once the second box is no neighbour: the tile's own long axis
    # (here down the photo) sets the frame, as for a lone tile.
    right, up = hand_frame(np.stack([_upright(0, 0), _upright(0, 6, h=60)]))
    assert abs(up[1]) > 0.99 and np.all(np.isfinite(right))
