"""Real faces for generated scenes: which crops are kept, one face per code, scenes painted with them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from fanscan.datasets import tile_art
from fanscan.datasets.real_faces import FacePool, draw_faces, face_shaped, pool_of
from fanscan.datasets.scenes import SCENE_STYLES, generate_scene
from fanscan.datasets.tile_art import FACE_SIZE
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import TILE_CODES


def _crop(height: int, width: int, value: int = 200) -> np.ndarray:
    return np.full((height, width, 3), value, np.uint8)


def test_real_faces_keep_only_face_shaped_crops() -> None:
    assert face_shaped(_crop(52, 40))  # 1.3: a face
    assert not face_shaped(_crop(80, 40))  # 2.0: a standing tile's box with its top
    assert not face_shaped(_crop(40, 40))  # square: squeezed by the export's stretch
    assert not face_shaped(_crop(26, 20))  # face-shaped, too few pixels
    pool = pool_of([_crop(52, 40), _crop(80, 40), _crop(52, 40)], ["1m", "2m", "nope"])
    assert {code: len(c) for code, c in pool.crops.items()} == {"1m": 1}
    assert "2m" in pool.missing() and "1m" not in pool.missing()


def _full_pool() -> FacePool:
    return FacePool({code: [_crop(52, 40, 10 + i), _crop(65, 50, 130 + i)] for i, code in enumerate(TILE_CODES)})


def test_real_faces_draw_one_opaque_face_per_code() -> None:
    faces = draw_faces(_full_pool(), np.random.default_rng(0))
    assert sorted(faces) == sorted(TILE_CODES)
    for i, code in enumerate(TILE_CODES):
        face = faces[code]
        assert face.shape == (FACE_SIZE[1], FACE_SIZE[0], 4) and (face[:, :, 3] == 255).all()
        assert int(face[0, 0, 0]) in (10 + i, 130 + i)  # one of that code's own crops
    again = draw_faces(_full_pool(), np.random.default_rng(0))
    assert all(np.array_equal(faces[c], again[c]) for c in TILE_CODES)


def test_real_faces_refuse_a_pool_lacking_a_face() -> None:
    pool = _full_pool()
    del pool.crops["7f"]
    with pytest.raises(FanscanError, match="7f"):
        draw_faces(pool, np.random.default_rng(0))


@pytest.mark.skipif(not set(SCENE_STYLES) & set(tile_art.available_styles()), reason="no tile art installed")
def test_real_faces_paint_the_same_scene_as_the_art() -> None:
    red = {code: cv2.cvtColor(np.full((FACE_SIZE[1], FACE_SIZE[0], 3), (30, 30, 220), np.uint8), cv2.COLOR_BGR2BGRA)
           for code in TILE_CODES}
    art = generate_scene(11, size=(800, 600))
    given = generate_scene(11, size=(800, 600), faces=red)
    assert given.style == "given" and given.hand == art.hand
    assert all(np.array_equal(a.quad, b.quad) for a, b in zip(art.tiles, given.tiles))
    for tile in given.tiles:
        if tile.code == "back":
            continue
        centre = tile.quad.mean(axis=0).round().astype(int)
        b, g, r = given.image[centre[1], centre[0]].astype(int)
        assert r > 100 and r > 2 * g and r > 2 * b  # the given face, not the art's
