"""Photos that show no tile: every kind drawn, at the size asked, the same for the same seed."""

from __future__ import annotations

import numpy as np
import pytest
from fanscan.datasets.no_tile_photos import KINDS, debian_pictures, kind_of, no_tile_photo


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_draws_a_photo_of_the_size_asked(kind: str) -> None:
    image, drawn = no_tile_photo(3, kind, size=(320, 240))
    assert drawn == kind
    assert image.shape == (240, 320, 3) and image.dtype == np.uint8
    assert image.std() > 2  # a picture, not a flat fill


def test_a_seed_fixes_the_photo_and_its_kind() -> None:
    first, kind = no_tile_photo(11, size=(200, 150))
    again, kind_again = no_tile_photo(11, size=(200, 150))
    other, _ = no_tile_photo(12, size=(200, 150))
    assert kind == kind_again and np.array_equal(first, again)
    assert not np.array_equal(first, other)


def test_the_seeds_draw_every_kind_and_kind_of_says_which() -> None:
    drawn = {seed: no_tile_photo(seed, size=(64, 48))[1] for seed in range(120)}
    assert set(drawn.values()) == set(KINDS)
    assert all(kind_of(seed) == kind for seed, kind in drawn.items())


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown kind"):
        no_tile_photo(0, "marble")


def test_debian_pictures_lists_only_pictures_of_the_folders_given(tmp_path) -> None:
    (tmp_path / "a.webp").write_bytes(b"x")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.JPG").write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("x")
    assert [p.name for p in debian_pictures((tmp_path, tmp_path / "missing"))] == ["a.webp", "b.JPG"]


def test_noise_photos_are_noise_of_their_seed() -> None:
    from fanscan.datasets.no_tile_photos import noise_photo

    first, again, other = noise_photo(5), noise_photo(5), noise_photo(6)
    assert first.ndim == 3 and first.shape[2] == 3 and first.dtype == np.uint8
    assert np.array_equal(first, again) and (first.shape != other.shape or not np.array_equal(first, other))
    assert min(first.shape[:2]) >= 240


def test_wallpapers_are_one_picture_each_split_in_two_halves(tmp_path) -> None:
    import cv2
    from fanscan.datasets.no_tile_photos import picture_views, wallpaper_half, wallpapers

    assert wallpapers(tmp_path / "missing") == []
    for name in ("Autumn", "Kite", "Shell"):
        images = tmp_path / name / "contents" / "images"
        images.mkdir(parents=True)
        for size in ((64, 48), (128, 96), (256, 192)):
            cv2.imwrite(str(images / f"{size[0]}x{size[1]}.png"), np.zeros((size[1], size[0], 3), np.uint8))
    found = wallpapers(tmp_path)
    assert [p.parts[-4] for p in found] == ["Autumn", "Kite", "Shell"]
    assert all(p.name == "128x96.png" for p in found)  # the middle size
    assert {wallpaper_half(p, tmp_path) for p in found} <= {0, 1}
    assert wallpaper_half(found[0], tmp_path) == wallpaper_half(found[0], tmp_path)
    picture = np.random.default_rng(0).integers(0, 256, (2000, 3000, 3), dtype=np.uint8)
    views = picture_views(picture, 1, 4)
    assert len(views) == 4 and views[0].shape == (1067, 1600, 3)  # whole, shrunk to 1600
    assert all(max(v.shape[:2]) <= 1600 for v in views)
    assert [v.shape for v in picture_views(picture, 1, 4)] == [v.shape for v in views]
