"""Things on the table that are no tiles: laid clear of every tile, drawn under them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from fanscan.datasets import tile_art
from fanscan.datasets.scene_props import Prop, lay_props, paint_props
from fanscan.datasets.scenes import NOT_THE_HANDS, SCENE_STYLES, generate_scene
from fanscan.datasets.textures import BUSY_TABLE_KINDS, TABLE_KINDS

_art = pytest.mark.skipif(not set(SCENE_STYLES) & set(tile_art.available_styles()), reason="no tile art installed")


def _row(count: int) -> list[np.ndarray]:
    """Footprints (mm) of ``count`` tiles side by side along x, 26 x 35 each."""
    return [np.float32([[x, 0], [x + 26, 0], [x + 26, 35], [x, 35]]) for x in range(0, 26 * count, 26)]


@pytest.mark.parametrize("seed", range(30))
def test_props_never_lie_on_a_tile_or_on_each_other(seed: int) -> None:
    tiles = _row(14)
    props = lay_props(np.random.default_rng(seed), tiles, np.array([0, 364, 0, 35]), lambda p: True)
    shapes = [cv2.convexHull(p.footprint).reshape(-1, 2) for p in props]
    for i, shape in enumerate(shapes):
        for tile in tiles:
            assert cv2.intersectConvexConvex(shape, tile)[0] < 1e-3, props[i].kind
        for other in shapes[i + 1:]:
            assert cv2.intersectConvexConvex(shape, other)[0] < 1e-3


def test_props_are_laid_only_where_the_camera_sees_them() -> None:
    nothing = lay_props(np.random.default_rng(4), _row(14), np.array([0, 364, 0, 35]), lambda p: False)
    # Only what is laid along the hand, never tried elsewhere, may remain: the rack and fingers.
    assert {p.kind for p in nothing} <= {"rack", "finger"}


def test_props_of_every_kind_are_drawn_over_many_tables() -> None:
    kinds = set()
    for seed in range(60):
        kinds |= {p.kind for p in lay_props(np.random.default_rng(seed), _row(14), np.array([0, 364, 0, 35]),
                                            lambda p: True)}
    assert kinds == {"rack", "die", "coin", "phone", "finger"}


def test_paint_props_draws_a_die_with_its_pips() -> None:
    canvas = np.zeros((200, 200, 3), np.float32)
    die = Prop("die", np.float32([[-8, -8], [8, -8], [8, 8], [-8, 8]]), 16.0, (235, 238, 240), (160, 160, 160),
               pips=5)
    paint_props(canvas, [die], lambda points: points[:, :2] * 5 + 100)  # a camera straight down
    face = canvas[65:135, 65:135].mean(axis=2)
    assert (face > 200).mean() > 0.5  # the white top
    dark = (face < 100).astype(np.uint8)
    assert cv2.connectedComponents(dark)[0] - 1 == 5  # five pips


@_art
@pytest.mark.parametrize("seed", [3, 11, 17])
def test_scenes_with_props_keep_the_tiles_as_they_were(seed: int) -> None:
    plain = generate_scene(seed, size=(960, 720), tables=BUSY_TABLE_KINDS)
    busy = generate_scene(seed, size=(960, 720), tables=BUSY_TABLE_KINDS, props=True)
    assert busy.hand == plain.hand and busy.table == plain.table
    assert all(np.array_equal(a.quad, b.quad) for a, b in zip(plain.tiles, busy.tiles))
    for tile in busy.tiles:  # the faces untouched: props are drawn before, under the tiles
        centre = tile.quad.mean(axis=0)
        inner = np.round(centre + (tile.quad - centre) * 0.7).astype(np.int32)
        mask = np.zeros(busy.image.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, inner, 1)
        difference = np.abs(busy.image.astype(int) - plain.image.astype(int))[mask > 0]
        assert difference.mean() < 2.0  # JPEG blocks shared with a prop's edge may move a little


@_art
def test_scenes_default_to_the_tables_every_earlier_seed_was_drawn_on() -> None:
    assert all(generate_scene(seed, size=(320, 240)).table in TABLE_KINDS for seed in range(12))
    with pytest.raises(ValueError, match="unknown table kinds"):
        generate_scene(1, size=(320, 240), tables=("lava",))
    assert any(generate_scene(seed, size=(320, 240), tables=BUSY_TABLE_KINDS).table not in TABLE_KINDS
               for seed in range(12))
    assert NOT_THE_HANDS == -1
