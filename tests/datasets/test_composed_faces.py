"""Faces written in CJK fonts: every written code, deterministic, and the writing where it belongs."""

from __future__ import annotations

import numpy as np
import pytest

from fanscan.datasets import composed_faces
from fanscan.datasets.composed_faces import COMPOSABLE, compose_face
from fanscan.datasets.tile_art import FACE_SIZE

needs_fonts = pytest.mark.skipif(not composed_faces.available_fonts(), reason="no CJK font installed")


def _ink(face: np.ndarray) -> np.ndarray:
    """Boolean map of the drawn pixels."""
    return face[:, :, 3] > 128


@needs_fonts
@pytest.mark.parametrize("code", sorted(COMPOSABLE))
def test_composed_faces_every_written_code_is_a_bgra_face(code: str) -> None:
    face = compose_face(code, np.random.default_rng(0))
    assert face is not None
    assert face.shape == (FACE_SIZE[1], FACE_SIZE[0], 4) and face.dtype == np.uint8
    assert 0.01 < _ink(face).mean() < 0.6


@pytest.mark.parametrize("code", ["1p", "5s", "1s", "back"])
def test_composed_faces_pictures_are_not_composed(code: str) -> None:
    assert compose_face(code, np.random.default_rng(0)) is None


def test_composed_faces_without_fonts_gives_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(composed_faces, "available_fonts", lambda: ())
    assert compose_face("1m", np.random.default_rng(0)) is None


@needs_fonts
def test_composed_faces_same_seed_same_face_other_seed_other_face() -> None:
    a = compose_face("7m", np.random.default_rng(3))
    b = compose_face("7m", np.random.default_rng(3))
    c = compose_face("7m", np.random.default_rng(4))
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


@needs_fonts
def test_composed_faces_characters_write_the_numeral_above_a_red_wan() -> None:
    for seed in range(5):
        one = compose_face("1m", np.random.default_rng(seed))
        nine = compose_face("9m", np.random.default_rng(seed))
        half = FACE_SIZE[1] // 2
        # 九 has more strokes than 一; 萬 below is the same.
        assert _ink(nine[:half]).sum() > 1.5 * _ink(one[:half]).sum()
        bottom = one[half:][_ink(one[half:])]
        assert np.median(bottom[:, 2]) > np.median(bottom[:, 0]) + 60  # BGR: red ink


@needs_fonts
def test_composed_faces_flowers_are_named_in_a_top_corner(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(composed_faces, "LARGE_CHARACTER_SHARE", 0.0)
    width, height = FACE_SIZE
    for seed in range(8):
        face = compose_face("6f", np.random.default_rng(seed))
        top = _ink(face[: height // 3])
        left, right = top[:, : width // 3].sum(), top[:, 2 * width // 3 :].sum()
        assert max(left, right) > 30  # the numeral or the character
    plum = compose_face("1f", np.random.default_rng(9))
    spring = compose_face("5f", np.random.default_rng(9))
    # Same numeral, same plant (same seed): only the character differs.
    assert not np.array_equal(plum, spring)


@needs_fonts
def test_composed_faces_large_character_flowers_are_written_in_the_middle(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(composed_faces, "LARGE_CHARACTER_SHARE", 1.0)
    width, height = FACE_SIZE
    for seed in range(6):
        face = compose_face("4f", np.random.default_rng(seed))
        ink = _ink(face)
        middle = ink[height // 4 : 3 * height // 4, width // 6 : 5 * width // 6].sum()
        assert middle > 0.6 * ink.sum()  # a frame or a small numeral may lie outside
    bamboo = _ink(compose_face("4f", np.random.default_rng(1)))
    winter = _ink(compose_face("8f", np.random.default_rng(1)))
    assert (bamboo != winter).mean() > 0.05  # 竹 and 冬 (same seed: same font, size and place)
