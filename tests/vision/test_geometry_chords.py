"""``geometry.chords``: a quad's span along a direction, measured on the line through its centre."""

from __future__ import annotations

import numpy as np
from fanscan.vision.geometry import chords

_RIGHT = np.array([1.0, 0.0])
_DOWN = np.array([0.0, 1.0])


def test_chords_of_an_upright_rectangle_are_its_sides() -> None:
    box = np.float32([[[10, 20], [50, 20], [50, 80], [10, 80]]])
    np.testing.assert_allclose(chords(box, _RIGHT), [[10, 50]])
    np.testing.assert_allclose(chords(box, _DOWN), [[20, 80]])


def test_a_slanted_faces_chord_is_its_width_through_the_middle_not_its_extent() -> None:
    # A face 40 wide, its bottom edge shifted 30 to the right of its top (perspective's slant):
    # its whole extent along the row is 70, its chord through the centre 40.
    slanted = np.float32([[[0, 0], [40, 0], [70, 60], [30, 60]]])
    first, last = chords(slanted, _RIGHT)[0]
    assert (first, last) == (15.0, 55.0)
    assert np.ptp(slanted[0, :, 0]) == 70


def test_chords_of_many_quads_are_each_ones_own() -> None:
    rng = np.random.default_rng(3)
    quads = (np.float32([[0, 0], [30, 0], [30, 42], [0, 42]]) + rng.normal(0, 4, (25, 4, 2))).astype(np.float32)
    direction = np.array([0.6, 0.8])
    together = chords(quads, direction)
    one_by_one = np.concatenate([chords(q[None], direction) for q in quads])
    np.testing.assert_array_equal(together, one_by_one)
    assert (together[:, 1] > together[:, 0]).all()


def test_a_quad_the_line_does_not_cross_twice_gives_its_extent() -> None:
    point = np.full((1, 4, 2), 7.0, np.float32)  # every corner in one place
    line = np.float32([[[0, 0], [10, 0], [20, 0], [30, 0]]])  # all corners on one line
    np.testing.assert_allclose(chords(point, _RIGHT), [[7, 7]])
    np.testing.assert_allclose(chords(line, _RIGHT), [[0, 30]])
    assert chords(np.zeros((0, 4, 2), np.float32), _RIGHT).shape == (0, 2)
