"""Table tops: the mats and the photographed surfaces drawn from Debian's pictures."""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np
import pytest
from fanscan.datasets import photo_textures
from fanscan.datasets.photo_textures import photo_surface, read_gimp_pattern
from fanscan.datasets.textures import BUSY_TABLE_KINDS, MAT_KINDS, TABLE_KINDS, table_texture


def _write_pattern(path: Path, pixels: np.ndarray, version: int = 1) -> Path:
    """A GIMP .pat file of ``pixels`` (h, w, depth) as GIMP writes one."""
    name = b"test pattern\0"
    header = struct.pack(">5I", 24 + len(name), version, pixels.shape[1], pixels.shape[0], pixels.shape[2])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header + b"GPAT" + name + pixels.astype(np.uint8).tobytes())
    return path


def test_read_gimp_pattern_gives_bgr_of_rgb_and_grey(tmp_path: Path) -> None:
    rgb = np.zeros((3, 5, 3), np.uint8)
    rgb[..., 0] = 200  # red
    image = read_gimp_pattern(_write_pattern(tmp_path / "red.pat", rgb))
    assert image.shape == (3, 5, 3)
    assert (image[..., 2] == 200).all() and (image[..., :2] == 0).all()
    grey = read_gimp_pattern(_write_pattern(tmp_path / "grey.pat", np.full((4, 2, 1), 77)))
    assert grey.shape == (4, 2, 3) and (grey == 77).all()


@pytest.mark.parametrize("damage", ["magic", "truncated", "version"])
def test_read_gimp_pattern_refuses_what_is_no_pattern(tmp_path: Path, damage: str) -> None:
    path = _write_pattern(tmp_path / "p.pat", np.zeros((4, 4, 3)), version=2 if damage == "version" else 1)
    data = path.read_bytes()
    if damage == "magic":
        path.write_bytes(data[:20] + b"XXXX" + data[24:])
    elif damage == "truncated":
        path.write_bytes(data[:-5])
    with pytest.raises(ValueError):
        read_gimp_pattern(path)


def test_photo_surface_is_none_without_pictures_and_a_picture_with_one(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(photo_textures, "gimp_patterns", lambda: ())
    monkeypatch.setattr(photo_textures, "plasma_wallpapers", lambda: ())
    assert photo_surface(np.random.default_rng(0), 60, 80) is None
    # Without pictures the "photo" table falls back to a procedural one, never fails.
    assert table_texture("photo", np.random.default_rng(0), 60, 80).shape == (60, 80, 3)
    checker = ((np.indices((128, 128)) // 32).sum(axis=0) % 2 * 255)[..., None].repeat(3, axis=2)
    pattern = _write_pattern(tmp_path / "Wood" / "checker.pat", checker)
    monkeypatch.setattr(photo_textures, "gimp_patterns", lambda: (pattern,))
    surface = photo_surface(np.random.default_rng(1), 120, 160)
    assert surface is not None and surface.shape == (120, 160, 3)
    assert surface.std() > 20  # the pattern's squares, repeated over the table, not a flat fill


def test_gimp_patterns_are_listed_from_their_folder(tmp_path: Path) -> None:
    assert photo_textures.gimp_patterns(tmp_path / "absent") == ()
    _write_pattern(tmp_path / "Stone" / "b.pat", np.zeros((2, 2, 3)))
    _write_pattern(tmp_path / "Wood" / "a.pat", np.zeros((2, 2, 3)))
    assert [p.name for p in photo_textures.gimp_patterns(tmp_path)] == ["b.pat", "a.pat"]


@pytest.mark.parametrize("kind", BUSY_TABLE_KINDS)
def test_every_table_kind_is_drawn_the_same_for_a_seed(kind: str) -> None:
    a = table_texture(kind, np.random.default_rng(3), 90, 120)
    b = table_texture(kind, np.random.default_rng(3), 90, 120)
    assert a.shape == (90, 120, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)


def test_the_kinds_every_earlier_seed_was_drawn_from_are_unchanged() -> None:
    assert TABLE_KINDS == ("felt", "wood", "white", "cloth", "dark", "stone")
    assert set(MAT_KINDS) <= set(BUSY_TABLE_KINDS) and set(TABLE_KINDS) <= set(BUSY_TABLE_KINDS)
    with pytest.raises(ValueError, match="unknown table kind"):
        table_texture("lava", np.random.default_rng(0), 10, 10)


def test_rubber_mat_is_dark_with_a_grid_of_bright_nubs() -> None:
    mat = table_texture("rubber", np.random.default_rng(0), 400, 600).astype(np.float32).mean(axis=2)
    assert np.median(mat) < 80  # a dark mat
    bright = mat > np.median(mat) + 25
    assert 0.02 < bright.mean() < 0.4  # nubs, not a flat top nor a bright one
    # The nubs repeat: the picture's autocorrelation has peaks away from zero shift.
    centred = mat - mat.mean()
    spectrum = np.abs(np.fft.rfft2(centred))
    spectrum[0, 0] = 0
    assert spectrum.max() > 20 * np.median(spectrum)


def test_puzzle_mat_is_squares_of_a_few_colours() -> None:
    mat = table_texture("puzzle", np.random.default_rng(2), 300, 400)
    colours = {tuple(int(c) // 40 for c in pixel) for pixel in mat[::7, ::7].reshape(-1, 3)}
    assert 2 <= len(colours) <= 40  # a few foam colours (with the dimples' spread), no noise field


def test_automatic_table_is_bright_felt_with_platform_seams_and_a_console() -> None:
    seams = consoles = 0
    for seed in range(8):
        top = table_texture("automatic", np.random.default_rng(seed), 300, 400).astype(np.float32)
        felt = np.median(top.reshape(-1, 3), axis=0)
        off_felt = np.abs(top - felt).max(axis=2) > 40
        assert off_felt.mean() < 0.5  # mostly felt
        # the seams: thin dark lines, darker than the felt, in long straight runs (where in view)
        dark = (top.sum(axis=2) < 0.75 * felt.sum()).astype(np.uint8)
        seams += cv2.HoughLinesP(dark * 255, 1, np.pi / 180, 60, minLineLength=80, maxLineGap=3) is not None
        # the console: a solid block of plastic unlike the felt (where in view)
        consoles += bool(off_felt.mean() > 0.01)
    assert seams >= 5 and consoles >= 5
