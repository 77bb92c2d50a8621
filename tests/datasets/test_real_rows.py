"""Rows of faces on a table: each face's quad is where its pixels are, slanted or not."""

from __future__ import annotations

import numpy as np

from fanscan.datasets.real_rows import PHOTO, compose_row


def _faces(n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [np.full((120, 90, 3), rng.integers(60, 255, 3), np.uint8) for _ in range(n)]


def test_real_rows_quads_lie_on_their_faces() -> None:
    faces = _faces(15)
    photo, quads = compose_row(faces, np.random.default_rng(1))
    assert photo.shape == (PHOTO[1], PHOTO[0], 3) and len(quads) == 15
    for face, quad in zip(faces, quads, strict=True):
        centre = quad.mean(axis=0).round().astype(int)
        assert np.abs(photo[centre[1], centre[0]].astype(int) - face[0, 0].astype(int)).max() <= 3


def test_real_rows_keystone_narrows_the_far_side() -> None:
    _, flat = compose_row(_faces(14), np.random.default_rng(3))
    _, slanted = compose_row(_faces(14), np.random.default_rng(3), keystone=0.3)
    ratio = [np.linalg.norm(q[1] - q[0]) / np.linalg.norm(q[2] - q[3]) for q in slanted]
    assert np.mean(ratio) < 0.97  # the top edge (farther from the camera) is shorter
    assert all(abs(np.linalg.norm(q[1] - q[0]) / np.linalg.norm(q[2] - q[3]) - 1) < 1e-3 for q in flat)


def test_real_rows_two_rows_put_the_second_half_below_the_first() -> None:
    faces = _faces(17)
    photo, quads = compose_row(faces, np.random.default_rng(5), rows=2)
    assert len(quads) == 17
    for face, quad in zip(faces, quads, strict=True):
        centre = quad.mean(axis=0).round().astype(int)
        assert np.abs(photo[centre[1], centre[0]].astype(int) - face[0, 0].astype(int)).max() <= 3
    down = quads[0][3] - quads[0][0]  # along a face's side, in the rows' own frame
    height = float(np.linalg.norm(down))
    for above, below in zip(quads[:8], quads[9:], strict=True):  # the same column, one row lower
        assert float((below.mean(axis=0) - above.mean(axis=0)) @ down) / height > 1.2 * height
    gap = (quads[0][3] + quads[9][0]) / 2  # between the rows: table, not a face's rim
    assert not any(np.allclose(photo[int(gap[1]), int(gap[0])], f[0, 0], atol=3) for f in faces)
