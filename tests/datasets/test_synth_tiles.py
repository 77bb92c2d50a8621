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


def test_synth_tiles_plain_crops_use_only_the_styles_own_art(monkeypatch):
    # What the numeral reader learns as "no numeral": never a written face, an added corner
    # numeral, or a character tile beside it.
    from fanscan.datasets import synth_tiles

    styles = [s for s in ("gnome-smooth", "kmahjongg-traditional", "xmahjongg-real") if s in available_styles()]
    if not styles:
        pytest.skip("no Debian tile art installed")

    def forbidden(*args, **kwargs):
        raise AssertionError("a plain crop wrote on a face")

    monkeypatch.setattr(synth_tiles, "compose_face", forbidden)
    monkeypatch.setattr(synth_tiles, "_mark_flower", forbidden)
    monkeypatch.setattr(synth_tiles, "COMPOSED_SHARE", 1.0)  # would always compose, were it not plain
    drawn: list[str] = []
    real_face = synth_tiles._face_on_body

    def spy(style, code, rng, *, plain=False):
        drawn.append(code)
        return real_face(style, code, rng, plain=plain)

    monkeypatch.setattr(synth_tiles, "_face_on_body", spy)
    for seed in range(6):
        crop = synth_tiles.render_plain_upright_crop(styles[0], "4f", np.random.default_rng(seed))
        assert crop.ndim == 3 and crop.shape[2] == 3 and crop.dtype == np.uint8
    assert not any(code.endswith("m") for code in drawn[1:])
    again = synth_tiles.render_plain_upright_crop(styles[0], "4f", np.random.default_rng(3))
    monkeypatch.undo()
    assert np.array_equal(again, synth_tiles.render_plain_upright_crop(styles[0], "4f", np.random.default_rng(3)))
