"""Tile art: the styles found on this machine, their 42 faces, backs, and bad names."""

from __future__ import annotations

import numpy as np
import pytest

from fanscan.datasets import tile_art
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import TILE_CODES

STYLES = tile_art.available_styles()


def test_tile_art_available_styles_are_known_names():
    assert set(STYLES) <= {
        "xmahjongg-real", "kmahjongg-default", "kmahjongg-traditional", "gnome-smooth",
        "font-symbola", "font-noto", "font-freeserif", "cangjie6",
    }


@pytest.mark.parametrize("style", STYLES or [pytest.param("none", marks=pytest.mark.skip("no art"))])
def test_tile_art_load_faces_gives_every_face_as_bgra(style):
    faces = tile_art.load_faces(style)
    assert list(faces) == list(TILE_CODES)
    width, height = tile_art.FACE_SIZE
    for code, face in faces.items():
        assert face.shape == (height, width, 4), code
        assert face.dtype == np.uint8
        if code != "P":  # some sets' white dragon is blank
            assert face[..., 3].max() == 255, f"{style} {code} is empty"
    # Distinct faces: no two codes got the same cell of a sheet.
    flat = {code: face.astype(np.int16) for code, face in faces.items()}
    assert min(
        np.abs(flat[a] - flat[b]).mean() for a in TILE_CODES for b in TILE_CODES if a < b
    ) > 1.0


def test_tile_art_load_faces_reads_its_cache_the_second_time(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    style = next((s for s in STYLES if s.startswith("font-")), None)
    if style is None:
        pytest.skip("no Unicode mahjong font installed")
    first = tile_art.load_faces(style)
    cached = tile_art.cache_dir() / style / "5p.png"
    assert cached.is_file()
    again = tile_art.load_faces(style)
    assert np.array_equal(first["5p"], again["5p"])


def test_tile_art_unknown_style_is_an_error_naming_it():
    with pytest.raises(FanscanError, match="'pastel'"):
        tile_art.load_faces("pastel")


def test_tile_art_render_back_is_an_opaque_tile_of_the_colour():
    back = tile_art.render_back("blue")
    width, height = tile_art.FACE_SIZE
    assert back.shape == (height, width, 4)
    assert (back[..., 3] == 255).all()
    blue, green, red = back[height // 2, width // 2, :3].astype(int)
    assert blue > green > red


def test_tile_art_render_back_rejects_unknown_colour():
    with pytest.raises(FanscanError, match="'plaid'"):
        tile_art.render_back("plaid")


def test_tile_art_hidden_system_art_leaves_no_debian_style_or_font(monkeypatch, request, tmp_path):
    # The suite's --no-system-art option (tests/conftest.py): a machine without Debian's packages.
    from no_system_art import clear_art_caches, hide_system_art

    from fanscan.datasets import composed_faces, scenes

    request.addfinalizer(clear_art_caches)  # runs before monkeypatch puts the paths back
    hide_system_art(monkeypatch, tmp_path)
    assert set(tile_art.available_styles()) <= {"cangjie6"}  # only ../shared art may remain
    assert composed_faces.available_fonts() == ()
    monkeypatch.setattr(tile_art, "available_styles", lambda: [])
    with pytest.raises(FanscanError, match="no tile art to render scenes with: install Debian"):
        scenes.generate_scene(5)
