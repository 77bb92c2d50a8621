"""Synthetic tile crops: deterministic for a seed, varied, and labelled with contract codes."""

from __future__ import annotations

import numpy as np
import pytest

from fanscan.datasets.synth_tiles import generate
from fanscan.datasets.tile_art import available_styles
from fanscan.errors import FanscanError
from fanscan.scoring.tiles import CLASS_LABELS

STYLE = next((s for s in available_styles() if s.startswith("font-")), None)
needs_art = pytest.mark.skipif(STYLE is None, reason="no Unicode mahjong font installed")


@needs_art
def test_synth_tiles_generate_is_deterministic_for_a_seed():
    first = list(generate(6, seed=7, styles=[STYLE]))
    again = list(generate(6, seed=7, styles=[STYLE]))
    assert [c.code for c in first] == [c.code for c in again]
    for a, b in zip(first, again, strict=True):
        assert np.array_equal(a.image, b.image)


@needs_art
def test_synth_tiles_generate_differs_between_seeds():
    one = list(generate(4, seed=1, styles=[STYLE]))
    two = list(generate(4, seed=2, styles=[STYLE]))
    assert any(
        a.image.shape != b.image.shape or not np.array_equal(a.image, b.image)
        for a, b in zip(one, two, strict=True)
    )


@needs_art
def test_synth_tiles_generate_gives_bgr_crops_of_known_codes():
    crops = list(generate(40, seed=3, styles=[STYLE]))
    assert len(crops) == 40
    for crop in crops:
        assert crop.code in CLASS_LABELS
        assert crop.style == STYLE
        assert crop.image.dtype == np.uint8 and crop.image.ndim == 3 and crop.image.shape[2] == 3
        height, width = crop.image.shape[:2]
        assert 30 <= height <= 210 and 0.5 < width / height < 1.0
    assert len({c.code for c in crops}) > 20


def test_synth_tiles_generate_without_art_is_an_error():
    with pytest.raises(FanscanError, match="no tile art"):
        next(generate(1, seed=0, styles=[]))
