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
